// The storage service as it runs in production: its own process over a real etcd that
// requires client certificates, configured through its environment (as the chart does),
// serving mutual TLS to GrpcObjectStore, and stopped with SIGTERM. Without TLS files or
// --storage-insecure it refuses to start. Its metrics endpoint follows the etcd link.
import { join } from 'node:path';
import { GrpcObjectStore, storageClientCredentials } from '@plinth/storage-grpc';
import { EtcdServer, LinkPki, makeLinkPki, RunningProcess, startEtcd, startProcess, waitForOutput, eventually } from '@plinth/testing';

const root = join(__dirname, '../../..');
const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

// listening waits for the service's "listening on" line and returns the address in it.
function listening(service: RunningProcess, timeoutMs = 30000): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the storage service did not start:\n${service.output()}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /storage service listening on (\S+:\d+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      service.child.stdout?.off('data', onData);
      resolve(match[1]);
    };
    service.child.stdout?.on('data', onData);
    service.child.once('exit', (code) => reject(new Error(`the storage service exited with ${code}:\n${service.output()}`)));
  });
}

// etcdLinkUp polls the metrics endpoint until plinth_link_up{link="etcd"} reads the value.
async function etcdLinkUp(metricsUrl: string, value: 0 | 1): Promise<void> {
  await eventually(async () => (await (await fetch(metricsUrl)).text()).split('\n').includes(`plinth_link_up{link="etcd"} ${value}`), { what: `plinth_link_up{link="etcd"} ${value}`, intervalMs: 200 });
}

describe('storage service', () => {
  let etcd: EtcdServer;
  let service: RunningProcess;
  let pki: LinkPki;

  beforeAll(async () => {
    pki = makeLinkPki();
    etcd = await startEtcd({ tls: pki.etcdServer });
  });

  afterAll(async () => {
    await service?.stop();
    await etcd?.stop();
    pki?.remove();
  });

  it('refuses to serve plaintext unless told to, naming the flags', async () => {
    const refused = startProcess(process.execPath, ['-r', join(root, 'tools/register.js'), join(root, 'apps/storage/src/main.ts'), '--storage-address=127.0.0.1:0'], { ...process.env, NO_COLOR: '1' });
    const code = await new Promise<number | null>((resolve) => refused.child.once('exit', (c) => resolve(c)));
    expect(code).toBe(2);
    expect(refused.output()).toContain('Error: the storage service serves only mutual TLS: set --tls-cert-file, --tls-private-key-file and --client-ca-file');
  }, 60000);

  it('serves plinth_link_up{link="etcd"} on its metrics address (0 while etcd is stopped, 1 once it is back) and etcd\'s size', async () => {
    const withMetrics = startProcess(process.execPath, ['-r', join(root, 'tools/register.js'), join(root, 'apps/storage/src/main.ts')], {
      ...process.env,
      NO_COLOR: '1',
      PLINTH_ETCD_SERVERS: etcd.endpoint,
      PLINTH_ETCD_CAFILE: pki.etcdClient.caFile,
      PLINTH_ETCD_CERTFILE: pki.etcdClient.certFile,
      PLINTH_ETCD_KEYFILE: pki.etcdClient.keyFile,
      PLINTH_STORAGE_ADDRESS: '127.0.0.1:0',
      PLINTH_TLS_CERT_FILE: pki.storageServer.certFile,
      PLINTH_TLS_PRIVATE_KEY_FILE: pki.storageServer.keyFile,
      PLINTH_CLIENT_CA_FILE: pki.storageServer.caFile,
      PLINTH_METRICS_BIND_ADDRESS: '127.0.0.1:0',
    });
    try {
      const metricsUrl = await waitForOutput(withMetrics, 'the storage service', /serving metrics on (http:\/\/\S+\/metrics)/);
      await listening(withMetrics);
      await etcdLinkUp(metricsUrl, 1);
      // etcd's database size, per endpoint and for the cluster, polled from start (the first
      // answer may come after the link is up).
      const sizeSeries = `apiserver_storage_db_total_size_in_bytes{endpoint="${etcd.endpoint}"}`;
      const text = await eventually(async () => (await fetch(metricsUrl)).text(), {
        until: (body) => body.split('\n').some((l) => l.startsWith(`${sizeSeries} `)),
        what: `${sizeSeries} on ${metricsUrl}`,
      });
      const size = (series: string) => Number(text.split('\n').find((l) => l.startsWith(`${series} `))?.slice(series.length + 1));
      expect(size(`apiserver_storage_db_total_size_in_bytes{endpoint="${etcd.endpoint}"}`)).toBeGreaterThan(0);
      expect(size('apiserver_storage_size_bytes{cluster="etcd-0"}')).toBe(size(`apiserver_storage_db_total_size_in_bytes{endpoint="${etcd.endpoint}"}`));
      await etcd.restart(() => etcdLinkUp(metricsUrl, 0));
      await etcdLinkUp(metricsUrl, 1);
      expect(withMetrics.output()).toMatch(/link to etcd lost/);
      expect(withMetrics.output()).toMatch(/link to etcd back after/);
    } finally {
      await withMetrics.stop();
    }
  }, 90000);

  it('serves an etcd-backed store over mutual TLS and exits 0 on SIGTERM', async () => {
    service = startProcess(process.execPath, ['-r', join(root, 'tools/register.js'), join(root, 'apps/storage/src/main.ts')], {
      ...process.env,
      NO_COLOR: '1',
      PLINTH_ETCD_SERVERS: etcd.endpoint,
      PLINTH_ETCD_CAFILE: pki.etcdClient.caFile,
      PLINTH_ETCD_CERTFILE: pki.etcdClient.certFile,
      PLINTH_ETCD_KEYFILE: pki.etcdClient.keyFile,
      PLINTH_STORAGE_ADDRESS: '127.0.0.1:0',
      PLINTH_TLS_CERT_FILE: pki.storageServer.certFile,
      PLINTH_TLS_PRIVATE_KEY_FILE: pki.storageServer.keyFile,
      PLINTH_CLIENT_CA_FILE: pki.storageServer.caFile,
    });
    const address = await listening(service);

    const store = new GrpcObjectStore({ address, credentials: storageClientCredentials(pki.gatewayClient) });
    try {
      const prefix = `/registry/e2e/${Date.now()}/`;
      const start = await store.currentRevision();
      const watch = store.watch({ prefix, revision: start });
      const created = await store.create(`${prefix}a`, bytes({ n: 1 }));
      expect(new TextDecoder().decode((await store.get(`${prefix}a`)).value)).toBe('{"n":1}');
      const { value: event } = await watch[Symbol.asyncIterator]().next();
      expect(event).toMatchObject({ type: 'ADDED', revision: created.revision, kv: { key: `${prefix}a` } });

      // An open watch must not hold the shutdown up: it ends with Unreachable.
      const ended = watch[Symbol.asyncIterator]().next().catch((err: unknown) => err);
      const exited = new Promise<number | null>((resolve) => service.child.once('exit', (code) => resolve(code)));
      service.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(await ended).toMatchObject({ code: 'Unreachable' });
    } finally {
      await store.close();
    }
  }, 60000);
});
