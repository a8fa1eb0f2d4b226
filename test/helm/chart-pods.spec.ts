// The chart's pods as processes: the storage, authz, gateway, controller manager and node
// simulator containers of a rendering run here with the arguments, environment and mounted
// Secret and ConfigMap files the chart gives them (etcd and NATS external, secured with the
// PKI values as the chart's own would be: every link TLS; the cluster's
// Service names pointed at loopback). The gateway's probes answer, the controller manager's
// kubeconfig reaches the API, a Job runs to completion on the simulated nodes, Prometheus's
// token reads /metrics, and every component exports its traces under the name the chart gives
// it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { natsPermissions, natsServerAuthorization } from '@plinth/authz-nats';
import { EtcdServer, freePort, NatsServer, OtlpReceiver, RunningProcess, startEtcd, startNats, startOtlpReceiver, startProcess, waitForPort, eventually } from '@plinth/testing';
import { kubectl } from '@plinth/testing-server';
import { assembleImageTree, ImageTree } from '../build/image-tree';
import { renderChart } from './render/chart';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Manifest = any;

const root = join(__dirname, '../..');
const release = { name: 'ctl', namespace: 'plinth-system' };

function get(url: string, ca: string, token?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { ca, headers: token ? { authorization: `Bearer ${token}` } : {} }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
describe('helm/plinth pods, run as processes', () => {
  let dir: string;
  let image: ImageTree;
  let etcd: EtcdServer;
  let nats: NatsServer;
  let receiver: OtlpReceiver;
  const processes: RunningProcess[] = [];
  let ports: { storage: number; gateway: number; metrics: number; storageMetrics: number; authzMetrics: number };
  let objects: Manifest[];
  let ca: string;
  let stopped = false;

  // Pod filesystems live under dir; Service names resolve to loopback.
  const containerPath = (path: string) => join(dir, path);
  // (the gateway Service's port 443 is the gateway's own port here).
  const localHosts = (text: string) =>
    text.replace(/https:\/\/ctl-gateway\.plinth-system\.svc(?=\n|$)/g, `https://127.0.0.1:${ports.gateway}`).replace(/ctl-storage(?=:)/g, '127.0.0.1');

  const stopAll = async () => {
    if (stopped) return;
    stopped = true;
    for (const proc of [...processes].reverse()) await proc.stop();
  };

  // run starts a workload's container: the image's entry point (node, in the image's files laid
  // out by assembleImageTree) with the rendered args and env, after writing its Secret and
  // ConfigMap volumes.
  function run(name: string): RunningProcess {
    const workload = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === name);
    const pod = workload.spec.template.spec;
    const container = pod.containers[0];
    for (const mount of [...(container.volumeMounts ?? [])].sort((a: Manifest, b: Manifest) => a.mountPath.length - b.mountPath.length)) {
      const volume = pod.volumes.find((v: Manifest) => v.name === mount.name);
      const at = containerPath(mount.mountPath);
      mkdirSync(at, { recursive: true });
      const source = volume.secret
        ? objects.find((o) => o.kind === 'Secret' && o.metadata.name === volume.secret.secretName).data
        : volume.configMap
          ? objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === volume.configMap.name).data
          : {};
      const decode = (value: string) => (volume.secret ? Buffer.from(value, 'base64').toString('utf8') : value);
      const items = volume.secret?.items ?? Object.keys(source).map((key) => ({ key, path: key }));
      for (const item of items) writeFileSync(join(at, item.path), localHosts(decode(source[item.key])));
    }
    const mounts = (container.volumeMounts ?? []).map((m: Manifest) => m.mountPath as string);
    const args = (container.args as string[]).map((arg) => {
      const value = localHosts(arg);
      const mount = mounts.find((m: string) => value.includes(`=${m}`));
      return mount ? value.replace(`=${mount}`, `=${containerPath(mount)}`) : value;
    });
    const inPod = (value: string) => {
      const mount = mounts.find((m: string) => value.startsWith(`${m}/`));
      return mount ? `${containerPath(mount)}${value.slice(mount.length)}` : value;
    };
    const env = Object.fromEntries((container.env ?? []).filter((e: Manifest) => 'value' in e).map((e: Manifest) => [e.name, inPod(localHosts(e.value))]));
    // The container gives arguments only: the image's ENTRYPOINT (node and its flags) runs them.
    expect(container.command).toBeUndefined();
    const proc = startProcess(process.execPath, [...image.nodeFlags, ...args], { ...process.env, ...env }, { cwd: image.root });
    processes.push(proc);
    return proc;
  }

  let adminKubeconfigPath: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plinth-chart-pods-'));
    image = assembleImageTree();
    const pki = parse(
      execFileSync(process.execPath, ['-r', join(root, 'tools/register.js'), join(root, 'tools/helm-pki-values.ts'), '--release', release.name, '--namespace', release.namespace], { cwd: root, encoding: 'utf8' }),
    ) as Record<string, unknown>;
    // etcd and NATS run outside the chart, secured with the chart's PKI values: etcd requires
    // the storage service's client certificate, NATS serves TLS to the two users.
    const links = (pki as { pki: Record<string, string> }).pki;
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text, { mode: 0o600 });
      return join(dir, name);
    };
    const etcdTls = { caFile: file('etcd-ca.crt', links.etcdCaCrt), certFile: file('etcd.crt', links.etcdCrt), keyFile: file('etcd.key', links.etcdKey) };
    const permissions = natsPermissions();
    const authorization = natsServerAuthorization([
      { user: 'plinth-gateway', password: links.natsGatewayPassword, permissions: permissions.gateway },
      { user: 'plinth-authz', password: links.natsAuthzPassword, permissions: permissions.authz },
    ]);
    const natsTls = { certFile: file('nats.crt', links.natsCrt), keyFile: file('nats.key', links.natsKey) };
    [etcd, nats, receiver] = await Promise.all([startEtcd({ tls: etcdTls }), startNats({ tls: natsTls, authorization }), startOtlpReceiver()]);
    ports = { storage: await freePort(), gateway: await freePort(), metrics: await freePort(), storageMetrics: await freePort(), authzMetrics: await freePort() };
    const { manifests } = renderChart(join(root, 'helm/plinth'), {
      ...release,
      values: {
        ...pki,
        etcd: { external: { endpoints: etcd.endpoint } },
        nats: { external: { url: nats.url } },
        storage: { port: ports.storage, metricsPort: ports.storageMetrics },
        authz: { metricsPort: ports.authzMetrics },
        // Stopped at the end without load balancers to wait for.
        gateway: { securePort: ports.gateway, shutdownDelayDuration: '0s' },
        controllers: { metricsPort: ports.metrics, replicas: 1 },
        nodeSimulator: { nodes: 1 },
        otel: { endpoint: receiver.endpoint },
        metrics: { token: 'prometheus-token' },
      },
    });
    objects = [...manifests.values()].flatMap((text) => parseAllDocuments(text).map((d) => d.toJS())).filter(Boolean);
    const values = (pki as { pki: Record<string, string> }).pki;
    adminKubeconfigPath = join(dir, 'admin.kubeconfig');
    writeFileSync(adminKubeconfigPath, adminKubeconfigText(`https://127.0.0.1:${ports.gateway}`, values.caCrt, values.adminCrt, values.adminKey));
    ca = Buffer.from(objects.find((o) => o.kind === 'Secret' && o.metadata.name === 'ctl-pki').data['ca.crt'], 'base64').toString('utf8');

    await waitForPort(run('ctl-storage'), ports.storage, 'storage', 60000);
    await waitForPort(run('ctl-authz'), ports.authzMetrics, 'authz', 60000);
    await waitForPort(run('ctl-gateway'), ports.gateway, 'gateway', 60000);
    await waitForPort(run('ctl-controllers'), ports.metrics, 'controllers', 60000);
    run('ctl-node-simulator');
  }, 180000);

  afterAll(async () => {
    await stopAll();
    await Promise.all([etcd?.stop(), nats?.stop(), receiver?.stop()]);
    if (dir) rmSync(dir, { recursive: true, force: true });
    image?.remove();
  });

  it('answers the gateway probes anonymously and the controller manager probe', async () => {
    const gateway = `https://127.0.0.1:${ports.gateway}`;
    const readyz = await eventually(async () => {
      const res = await get(`${gateway}/readyz`, ca);
      return res.status === 200 ? res : undefined;
    }, { what: 'the gateway ready', timeoutMs: 45_000 });
    expect(readyz.body).toBe('ok');
    expect((await get(`${gateway}/livez`, ca)).status).toBe(200);
    expect((await get(`${gateway}/api/v1/namespaces`, ca)).status).toBe(403);
    expect((await fetch(`http://127.0.0.1:${ports.metrics}/healthz`)).status).toBe(200);
  });

  it('serves the storage service\'s and authz\'s links on their metrics ports', async () => {
    const linkUp = (port: number, link: string) =>
      eventually(async () => ((await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()).split('\n').includes(`plinth_link_up{link="${link}"} 1`) ? true : undefined), { what: `plinth_link_up{link="${link}"} 1 on ${port}`, timeoutMs: 45_000 });
    expect(await linkUp(ports.storageMetrics, 'etcd')).toBe(true);
    expect(await linkUp(ports.authzMetrics, 'storage')).toBe(true);
    expect(await linkUp(ports.authzMetrics, 'nats')).toBe(true);
  });

  it('runs a Job through the controller manager and the node simulator, reached with the chart kubeconfig', async () => {
    const local = join(dir, 'etc/plinth/kubeconfig/controllers.kubeconfig');
    expect(readFileSync(local, 'utf8')).toContain(`server: https://127.0.0.1:${ports.gateway}\n`);
    // The chart's kubeconfig is the controller manager's own identity, which may not make Jobs.
    expect((await kubectl(local, ['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'])).stdout).toBe('system:kube-controller-manager');
    expect((await kubectl(local, ['create', 'job', 'refused', '--image=busybox'])).code).toBe(1);
    expect((await kubectl(adminKubeconfigPath, ['create', 'job', 'charted', '--image=busybox'])).code).toBe(0);
    await eventually(async () => ((await kubectl(adminKubeconfigPath, ['get', 'job', 'charted', '-o', 'jsonpath={.status.succeeded}'])).stdout === '1' ? true : undefined), { what: 'the job succeeds', timeoutMs: 90000 });
    const scraped = await get(`https://127.0.0.1:${ports.gateway}/metrics`, ca, 'prometheus-token');
    expect(scraped.status).toBe(200);
    expect(scraped.body).toMatch(/^apiserver_request_total\{code="201",component="apiserver",dry_run="",group="batch",resource="jobs",scope="resource",subresource="",verb="POST",version="v1"\} 1$/m);
    expect(await (await fetch(`http://127.0.0.1:${ports.metrics}/metrics`)).text()).toMatch(/^workqueue_adds_total\{name="job"\} [1-9]/m);
  }, 120000);

  it('exports every component\'s traces under the service name the chart gives it, the controllers\' calls continuing into the gateway', async () => {
    await stopAll();
    const spans = receiver.spans();
    expect([...new Set(spans.map((s) => s.service))].sort()).toEqual(['plinth-authz', 'plinth-controllers', 'plinth-gateway', 'plinth-node-simulator', 'plinth-storage']);
    // The job controller creating the Job's pod: its client span is the parent of the
    // gateway's request span.
    const podCreate = spans.find((s) => s.service === 'plinth-gateway' && s.name === 'POST /api/v1/namespaces/{:namespace}/pods' && s.attributes['http.status_code'] === 201);
    const caller = spans.find((s) => s.spanId === podCreate?.parentSpanId);
    expect(caller).toMatchObject({ service: 'plinth-controllers', name: 'HTTP POST', kind: 3, attributes: { 'http.method': 'POST', 'http.target': '/api/v1/namespaces/default/pods' } });
  }, 60000);
});

// adminKubeconfigText is a kubeconfig for the PKI values' admin certificate (system:masters).
function adminKubeconfigText(server: string, ca: string, cert: string, key: string): string {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  return [
    'apiVersion: v1',
    'kind: Config',
    `clusters: [{name: plinth, cluster: {server: "${server}", certificate-authority-data: ${b64(ca)}}}]`,
    `users: [{name: admin, user: {client-certificate-data: ${b64(cert)}, client-key-data: ${b64(key)}}}]`,
    'contexts: [{name: plinth, context: {cluster: plinth, user: admin}}]',
    'current-context: plinth',
    '',
  ].join('\n');
}
