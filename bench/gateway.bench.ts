// The gateway section: HTTPS requests to the distributed gateway (gateway → gRPC storage
// service → etcd, three processes) beside the etcd3 client doing the same work on the same
// etcd, in one run.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Agent, request } from 'node:https';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { startEtcd, startNats } from '@plinth/testing';
import { startAuthz, startGateway, startStorageService, writeHeapSnapshots } from './processes';
import { LeanHttpsPool } from './lean-https';
import { Figures, formatRow, header, runConcurrent, summarize } from './stats';

const inFlight = 16;
const nsValue = (name: string) => Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, uid: '0f1c7e1e-3a4b-4c5d-8e9f-001122334455', labels: { app: 'bench' } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } }));

interface HttpsClient {
  call(method: string, path: string, body?: unknown, contentType?: string): Promise<{ status: number; body: string }>;
  stream(path: string, onLine: (line: string) => void): () => void;
  close(): void;
}

// httpsClient talks to the gateway as the administrator (client certificate), or as a token
// user, whose requests the authz app decides. Requests go through the lean load generator
// (lean-https.ts); watch streams through node:https.
function httpsClient(port: number, dataDir: string, token?: string): HttpsClient {
  const pki = (name: string) => readFileSync(join(dataDir, 'pki', name), 'utf8');
  const tls = { ca: pki('ca.crt'), ...(token ? {} : { cert: pki('admin.crt'), key: pki('admin.key') }) };
  const agent = new Agent({ keepAlive: true, maxSockets: inFlight * 2, ...tls });
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const pool = new LeanHttpsPool(port, tls, auth);
  return {
    call(method, path, body, contentType = 'application/json') {
      return pool.call(method, path, body === undefined ? undefined : JSON.stringify(body), contentType);
    },
    close() {
      pool.close();
      agent.destroy();
    },
    stream(path, onLine) {
      let buffer = '';
      const req = request({ host: '127.0.0.1', port, method: 'GET', path, agent, headers: auth }, (res) => {
        res.on('data', (c: Buffer) => {
          buffer += c.toString();
          let nl: number;
          while ((nl = buffer.indexOf('\n')) >= 0) {
            onLine(buffer.slice(0, nl));
            buffer = buffer.slice(nl + 1);
          }
        });
      });
      req.on('error', () => undefined);
      req.end();
      return () => req.destroy();
    },
  };
}

function expect2xx(res: { status: number; body: string }): void {
  if (res.status >= 300) throw new Error(`unexpected ${res.status}: ${res.body.slice(0, 300)}`);
}

export async function gatewayBench(counts: { writes: number; reads: number; lists: number; watches: number }): Promise<string[]> {
  const etcdServer = await startEtcd({ progressNotifyInterval: '5s' });
  const nats = await startNats();
  const storage = await startStorageService(etcdServer.endpoint);
  const authz = await startAuthz(storage.address, nats.url);
  const tokens = join(mkdtempSync(join(tmpdir(), 'plinth-bench-tokens-')), 'tokens.csv');
  writeFileSync(tokens, 'bench-reader-token,bench-reader,bench-reader-uid\n');
  const gateway = await startGateway(storage.address, nats.url, ['--token-auth-file', tokens]);
  const etcd = new Etcd3({ hosts: [etcdServer.endpoint] });
  const http = httpsClient(gateway.port, gateway.dataDir);
  const reader = httpsClient(gateway.port, gateway.dataDir, 'bench-reader-token');
  const lines = [`gateway: HTTPS to the distributed gateway (gateway → storage service → etcd) vs etcd3 directly, ${inFlight} in flight`, header];
  try {
    const rows: [string, Figures, Figures][] = [];
    // Both sides warm up (JIT, connections) on as many creates before they are measured: the
    // gateway side runs in three fresh processes, the raw side in this one.
    const warmUps = Math.min(2000, counts.writes);
    await runConcurrent(warmUps, inFlight, (i) => http.call('POST', '/api/v1/namespaces', { metadata: { name: `warm-${i}` } }).then(expect2xx));
    await runConcurrent(warmUps, inFlight, (i) => etcd.if(`/bench/warm/${i}`, 'Create', '==', 0).then(etcd.put(`/bench/warm/${i}`).value(nsValue('w'))).commit());

    const rawCreate = await runConcurrent(counts.writes, inFlight, (i) => etcd.if(`/bench/raw/ns/c-${i}`, 'Create', '==', 0).then(etcd.put(`/bench/raw/ns/c-${i}`).value(nsValue(`c-${i}`))).commit());
    const gwCreate = await runConcurrent(counts.writes, inFlight, (i) => http.call('POST', '/api/v1/namespaces', { metadata: { name: `c-${i}` } }).then(expect2xx));
    rows.push(['create (POST namespace)', rawCreate, gwCreate]);

    const rawGet = await runConcurrent(counts.reads, inFlight, (i) => etcd.get(`/bench/raw/ns/c-${i % counts.writes}`).buffer());
    const gwGet = await runConcurrent(counts.reads, inFlight, (i) => http.call('GET', `/api/v1/namespaces/c-${i % counts.writes}`).then(expect2xx));
    rows.push(['get (GET namespace)', rawGet, gwGet]);

    // Lists of 1,000 objects: the first 1,000 namespaces created above, on both sides.
    const rawList = await runConcurrent(counts.lists, 4, () => etcd.getAll().prefix('/bench/raw/ns/').limit(1000).buffers());
    const gwList = await runConcurrent(counts.lists, 4, () => http.call('GET', '/api/v1/namespaces?limit=1000').then(expect2xx));
    rows.push(['list 1,000, 4 in flight', rawList, gwList]);

    rows.push(['create → watch event (sequential)', await rawWatchLatency(etcd, counts.watches), await gatewayWatchLatency(http, counts.watches)]);
    for (const [name, r, g] of rows) lines.push(formatRow(name, r, g));

    // Apply beside a plain update (merge patch) of the same objects, both through the gateway.
    const update = await runConcurrent(counts.writes, inFlight, (i) =>
      http.call('PATCH', `/api/v1/namespaces/c-${i % counts.writes}?fieldManager=bench`, { metadata: { labels: { round: 'update' } } }, 'application/merge-patch+json').then(expect2xx),
    );
    const applied = await runConcurrent(counts.writes, inFlight, (i) =>
      http.call('PATCH', `/api/v1/namespaces/c-${i % counts.writes}?fieldManager=bench-apply`, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `c-${i % counts.writes}`, labels: { applied: 'yes' } } }, 'application/apply-patch+yaml').then(expect2xx),
    );
    lines.push('', 'gateway: server-side apply beside a plain update (merge patch), same objects', header.replace('ops/s', 'upd/s').replace(/ops\/s(?!.*ops\/s)/, 'apl/s'));
    lines.push(formatRow('update vs apply (PATCH namespace)', update, applied));

    // The cost of authorization: a user the authz app decides for (over NATS), each GET a new
    // question (cold decision cache) or the same one again (warm), beside the administrator,
    // whom the gateway allows without asking (system:masters).
    expect2xx(
      await http.call('POST', '/apis/rbac.authorization.platform.io/v1/clusterrolebindings', {
        metadata: { name: 'bench-reader' },
        roleRef: { apiGroup: 'rbac.authorization.platform.io', kind: 'ClusterRole', name: 'view' },
        subjects: [{ kind: 'User', name: 'bench-reader', apiGroup: 'rbac.authorization.platform.io' }],
      }),
    );
    await waitUntil(async () => (await reader.call('GET', '/api/v1/namespaces/default/serviceaccounts')).status === 200);
    for (let i = 0; i < counts.writes; i++) expect2xx(await http.call('POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: `sa-${i}` } }));
    const asAdmin = await runConcurrent(counts.writes, inFlight, (i) => http.call('GET', `/api/v1/namespaces/default/serviceaccounts/sa-${i}`).then(expect2xx));
    const cold = await runConcurrent(counts.writes, inFlight, (i) => reader.call('GET', `/api/v1/namespaces/default/serviceaccounts/sa-${i}`).then(expect2xx));
    const warm = await runConcurrent(counts.writes, inFlight, (i) => reader.call('GET', `/api/v1/namespaces/default/serviceaccounts/sa-${i}`).then(expect2xx));
    lines.push('', 'gateway: authorization cost (GET serviceaccount): administrator (no question) beside a user decided by the authz app over NATS', header);
    lines.push(formatRow('admin vs user, cold decision cache', asAdmin, cold));
    lines.push(formatRow('admin vs user, warm decision cache', asAdmin, warm));
  } finally {
    http.close();
    reader.close();
    etcd.close();
    await writeHeapSnapshots([
      ['gateway', gateway],
      ['storage', storage],
      ['authz', authz],
    ]);
    await gateway.stop();
    await authz.stop();
    await storage.stop();
    await nats.stop();
    await etcdServer.stop();
  }
  return lines;
}

async function rawWatchLatency(etcd: Etcd3, samples: number): Promise<Figures> {
  const watcher = await etcd.watch().prefix('/bench/raw/w/').create();
  const latencies: number[] = [];
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < samples; i++) {
    const seen = new Promise<void>((resolve) => watcher.once('put', () => resolve()));
    const start = process.hrtime.bigint();
    await etcd.put(`/bench/raw/w/${i}`).value(nsValue(`w-${i}`));
    await seen;
    latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  await watcher.cancel();
  return summarize(latencies, Number(process.hrtime.bigint() - t0) / 1e9);
}

async function gatewayWatchLatency(http: HttpsClient, samples: number): Promise<Figures> {
  const list = JSON.parse((await http.call('GET', '/api/v1/namespaces?limit=1')).body) as { metadata: { resourceVersion: string } };
  const waiters = new Map<string, () => void>();
  const stop = http.stream(`/api/v1/namespaces?watch=1&resourceVersion=${list.metadata.resourceVersion}`, (line) => {
    const event = JSON.parse(line) as { type: string; object: { metadata: { name: string } } };
    if (event.type === 'ADDED') waiters.get(event.object.metadata.name)?.();
  });
  const latencies: number[] = [];
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < samples; i++) {
    const name = `watched-${i}`;
    const seen = new Promise<void>((resolve) => waiters.set(name, resolve));
    const start = process.hrtime.bigint();
    expect2xx(await http.call('POST', '/api/v1/namespaces', { metadata: { name } }));
    await seen;
    latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  stop();
  return summarize(latencies, Number(process.hrtime.bigint() - t0) / 1e9);
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 10000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
