// The chart's HA etcd and NATS as real local processes: the three etcd members of
// `etcd.replicas: 3` run with the StatefulSet's arguments and the PKI values' certificates
// (member names, ports and the peers' Service names mapped to loopback), form one cluster over
// peer TLS, and serve the storage service's client certificate from any member; the three NATS
// members of `nats.replicas: 3` run with the chart's nats.conf, route to each other over TLS,
// and carry a question from the gateway's user on one member to authz's on another.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, NatsConnection } from 'nats';
import { parse, parseAllDocuments } from 'yaml';
import { EtcdObjectStore } from '@plinth/storage-etcd';
import { etcdBinary, findBinary, freePort, natsBinary, RunningProcess, startProcess, waitForPort, eventually } from '@plinth/testing';
import { renderChart } from './render/chart';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Manifest = any;

const root = join(__dirname, '../..');
const release = { name: 'ctl', namespace: 'plinth-system' };

describe('helm/plinth HA members, run as processes', () => {
  let dir: string;
  let objects: Manifest[];
  let links: Record<string, string>;
  const processes: RunningProcess[] = [];
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text, { mode: 0o600 });
    return join(dir, name);
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'plinth-chart-ha-'));
    const pki = parse(
      execFileSync(process.execPath, ['-r', join(root, 'tools/register.js'), join(root, 'tools/helm-pki-values.ts'), '--release', release.name, '--namespace', release.namespace], { cwd: root, encoding: 'utf8' }),
    ) as { pki: Record<string, string> };
    links = pki.pki;
    const { manifests } = renderChart(join(root, 'helm/plinth'), { ...release, values: { ...pki, etcd: { replicas: 3 }, nats: { replicas: 3 } } });
    objects = [...manifests.values()].flatMap((text) => parseAllDocuments(text).map((d) => d.toJS())).filter(Boolean);
  }, 60000);

  afterAll(async () => {
    for (const proc of processes.reverse()) await proc.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('forms a three-member etcd cluster over peer TLS that serves the storage service from any member', async () => {
    const statefulSet = objects.find((o) => o.kind === 'StatefulSet' && o.metadata.name === 'ctl-etcd');
    const args: string[] = statefulSet.spec.template.spec.containers[0].args;
    const ports = await Promise.all([0, 1, 2].map(async () => ({ client: await freePort(), peer: await freePort(), health: await freePort() })));
    const tlsFiles: Record<string, string> = {
      '/etc/etcd/tls/etcd.crt': file('etcd.crt', links.etcdCrt),
      '/etc/etcd/tls/etcd.key': file('etcd.key', links.etcdKey),
      '/etc/etcd/tls/etcd-ca.crt': file('etcd-ca.crt', links.etcdCaCrt),
    };
    // member maps a pod's arguments to loopback: its stable peer name, ports and mounted files.
    const member = (i: number) =>
      args.map((arg) => {
        let local = arg.replace(/\$\(POD_NAME\)/g, `ctl-etcd-${i}`).replace('/var/lib/etcd/data', join(dir, `etcd-${i}`));
        for (const [path, at] of Object.entries(tlsFiles)) local = local.replace(path, at);
        local = local.replace(/0\.0\.0\.0:2379/, `127.0.0.1:${ports[i].client}`).replace(/0\.0\.0\.0:2380/, `127.0.0.1:${ports[i].peer}`).replace(/0\.0\.0\.0:2381/, `127.0.0.1:${ports[i].health}`);
        return local.replace(/ctl-etcd-(\d)\.ctl-etcd-peers\.plinth-system\.svc:(2379|2380)/g, (_, n: string, port: string) => `127.0.0.1:${port === '2379' ? ports[Number(n)].client : ports[Number(n)].peer}`);
      });
    expect(member(1).find((a) => a.startsWith('--initial-cluster=')))
      .toBe(`--initial-cluster=${[0, 1, 2].map((i) => `ctl-etcd-${i}=https://127.0.0.1:${ports[i].peer}`).join(',')}`);
    for (const i of [0, 1, 2]) processes.push(startProcess(findBinary(etcdBinary), [...member(i), '--unsafe-no-fsync', '--log-level=error']));
    await Promise.all([0, 1, 2].map((i) => waitForPort(processes[i], ports[i].client, `etcd member ${i}`, 60000)));

    const storeOn = (i: number) =>
      new EtcdObjectStore({
        endpoints: [`https://127.0.0.1:${ports[i].client}`],
        tls: { ca: Buffer.from(links.etcdCaCrt), cert: Buffer.from(links.etcdClientCrt), key: Buffer.from(links.etcdClientKey) },
      });
    const [first, last] = [storeOn(0), storeOn(2)];
    try {
      const created = await first.create('/registry/ha/a', new TextEncoder().encode('{"replicated":true}'));
      const read = await last.get('/registry/ha/a');
      expect(read.revision).toBe(created.revision);
      expect(new TextDecoder().decode(read.value)).toBe('{"replicated":true}');
      const health = await (await fetch(`http://127.0.0.1:${ports[1].health}/health`)).json();
      expect(health).toMatchObject({ health: 'true' });
    } finally {
      await first.close();
      await last.close();
    }
  }, 120000);

  it('forms a three-member NATS cluster over TLS routes that carries the gateway\'s questions to authz', async () => {
    const conf = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'ctl-nats').data['nats.conf'] as string;
    const ports = await Promise.all([0, 1, 2].map(async () => ({ client: await freePort(), route: await freePort(), monitor: await freePort() })));
    const tls = { crt: file('nats.crt', links.natsCrt), key: file('nats.key', links.natsKey), ca: file('internal-ca.crt', links.internalCaCrt) };
    const configOf = (i: number) =>
      conf
        .replace('port: 4222', `port: ${ports[i].client}\nhost: "127.0.0.1"`)
        .replace('http_port: 8222', `http_port: ${ports[i].monitor}`)
        .replace('port: 6222', `port: ${ports[i].route}\n  host: "127.0.0.1"`)
        .replace(/\/etc\/nats\/tls\/nats\.crt/g, tls.crt)
        .replace(/\/etc\/nats\/tls\/nats\.key/g, tls.key)
        .replace(/\/etc\/nats\/tls\/internal-ca\.crt/g, tls.ca)
        .replace(/nats-route:\/\/ctl-nats-(\d)\.ctl-nats-peers:6222/g, (_, n: string) => `nats-route://127.0.0.1:${ports[Number(n)].route}`);
    const env = { ...process.env, NATS_GATEWAY_PASSWORD: links.natsGatewayPassword, NATS_AUTHZ_PASSWORD: links.natsAuthzPassword };
    const members = [0, 1, 2].map((i) => startProcess(findBinary(natsBinary), ['-c', file(`nats-${i}.conf`, configOf(i))], env));
    processes.push(...members);
    await Promise.all(members.map((proc, i) => waitForPort(proc, ports[i].client, `nats member ${i}`)));
    // Every member sees the two others over its routes.
    for (const i of [0, 1, 2]) {
      const routes = await eventually(async () => ((await (await fetch(`http://127.0.0.1:${ports[i].monitor}/routez`)).json()) as { num_routes: number }).num_routes, {
        until: (count) => count >= 2,
        what: `nats member ${i} routed to the others`,
      });
      expect(routes).toBe(2);
    }
    const connections: NatsConnection[] = [];
    try {
      const as = async (i: number, user: string, pass: string) => {
        const nc = await connect({ servers: `tls://127.0.0.1:${ports[i].client}`, tls: { ca: links.internalCaCrt }, user, pass });
        connections.push(nc);
        return nc;
      };
      const authz = await as(2, 'plinth-authz', links.natsAuthzPassword);
      authz.subscribe('plinth.authz.authorize', { queue: 'plinth-authz', callback: (_err, msg) => msg.respond(new TextEncoder().encode('answered')) });
      await authz.flush();
      const gateway = await as(0, 'plinth-gateway', links.natsGatewayPassword);
      let reply = '';
      for (let attempt = 0; attempt < 50 && reply === ''; attempt++) {
        reply = await gateway.request('plinth.authz.authorize', new Uint8Array(), { timeout: 500 }).then((m) => new TextDecoder().decode(m.data), () => '');
      }
      expect(reply).toBe('answered');
    } finally {
      for (const nc of connections) await nc.close();
    }
  }, 120000);
});
