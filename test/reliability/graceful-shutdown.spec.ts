// A gateway told to stop (SIGTERM) under a write load, with a watch open: /readyz fails at once
// while the listener serves on for --shutdown-delay-duration, then every request is either
// answered or refused before it was read, the watch ends at an event boundary, and no object
// is stored whose client saw an error.
import { readFileSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { startPlinth } from '@plinth/testing-server';
import { KeyValue } from '@plinth/storage';
import { Answer, Cluster, refusedBeforeRead, startCluster } from './cluster';
import { eventually } from '@plinth/testing';

const adminToken = 'admin-token';
const serviceAccounts = '/api/v1/namespaces/default/serviceaccounts';

type Outcome = { name: string; result: 'created' } | { name: string; result: 'refused'; error: string } | { name: string; result: 'failed'; detail: string };

describe('graceful shutdown of a gateway', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await startCluster({ gatewayArgs: () => ['--shutdown-delay-duration=4s'] });
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  it('answers or refuses unread every request of a write load, and stores no write whose client saw an error', async () => {
    const gateway = cluster.members.get('gateway-0');
    if (!gateway) throw new Error('no gateway');
    const watch = await openWatch(cluster);
    const outcomes: Outcome[] = [];
    let stopLoad = false;
    // worker creates ServiceAccounts one after another on its own keep-alive connection, until its
    // gateway refuses a request.
    const worker = async (id: number) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: cluster.ca });
      try {
        for (let i = 0; !stopLoad; i++) {
          const name = `load-${id}-${i}`;
          try {
            const answer = await cluster.request(0, 'POST', serviceAccounts, adminToken, { metadata: { name } }, agent);
            if (answer.status === 201 && JSON.parse(answer.body).metadata.name === name) outcomes.push({ name, result: 'created' });
            else outcomes.push({ name, result: 'failed', detail: `${answer.status} ${answer.body}` });
          } catch (err) {
            if (!refusedBeforeRead(err)) {
              outcomes.push({ name, result: 'failed', detail: String(err) });
              return;
            }
            outcomes.push({ name, result: 'refused', error: (err as NodeJS.ErrnoException).code ?? '' });
            if ((err as NodeJS.ErrnoException).code === 'ECONNREFUSED') return;
          }
        }
      } finally {
        agent.destroy();
      }
    };
    const workers = Array.from({ length: 8 }, (_, id) => worker(id));
    await eventually(() => outcomes.length >= 80, { timeoutMs: 60_000 });
    const exited = gateway.kill('SIGTERM');

    // /readyz fails at once, while requests (on new connections too) are still served.
    await eventually(async () => (await cluster.request(0, 'GET', '/readyz?verbose', adminToken)).status === 500, { timeoutMs: 60_000 });
    const readyz = await cluster.request(0, 'GET', '/readyz?verbose', adminToken);
    expect(readyz.body).toContain('[-]shutdown failed: reason withheld');
    expect((await cluster.request(0, 'GET', '/livez', adminToken)).status).toBe(200);
    const during = await cluster.request(0, 'POST', serviceAccounts, adminToken, { metadata: { name: 'during-delay' } });
    expect(during.status).toBe(201);

    expect(await exited).toBe(0);
    stopLoad = true;
    await Promise.all(workers);
    await watch.ended;

    const failed = outcomes.filter((o) => o.result === 'failed');
    expect(failed).toEqual([]);
    const created = outcomes.filter((o) => o.result === 'created').map((o) => o.name);
    const refused = outcomes.filter((o) => o.result === 'refused').map((o) => o.name);
    expect(created.length).toBeGreaterThan(80);
    expect(refused.length).toBeGreaterThanOrEqual(8);

    // The watch ended cleanly at an event boundary: every line is a whole event.
    expect(watch.cut).toBe(false);
    expect(watch.trailing).toBe('');
    expect(watch.events.length).toBeGreaterThan(0);

    await gateway.start();
    const list = JSON.parse((await cluster.request(0, 'GET', serviceAccounts, adminToken)).body);
    const stored = new Set<string>(list.items.map((item: { metadata: { name: string } }) => item.metadata.name));
    expect(created.filter((name) => !stored.has(name))).toEqual([]);
    expect(refused.filter((name) => stored.has(name))).toEqual([]);
    expect(stored.has('during-delay')).toBe(true);
    // Every event the watch delivered is a stored object (no event of a refused write).
    expect(watch.events.filter((e) => e.type === 'ADDED' && !stored.has(e.object.metadata.name))).toEqual([]);
  }, 120_000);
});

async function openWatch(cluster: Cluster) {
  const { request } = await import('node:https');
  const state = { events: [] as { type: string; object: { metadata: { name: string } } }[], trailing: '', cut: false, ended: Promise.resolve() };
  state.ended = new Promise<void>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: cluster.gatewayPort(0), path: `${serviceAccounts}?watch=true`, ca: cluster.ca, headers: { authorization: `Bearer ${adminToken}` } },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`watch answered ${res.statusCode}`));
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          state.trailing += chunk;
          let nl: number;
          while ((nl = state.trailing.indexOf('\n')) >= 0) {
            state.events.push(JSON.parse(state.trailing.slice(0, nl)));
            state.trailing = state.trailing.slice(nl + 1);
          }
        });
        res.on('close', () => {
          state.cut = !res.complete;
          resolve();
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
  return state;
}

describe('graceful shutdown with --shutdown-send-retry-after, and of the storage service', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await startCluster({ gatewayArgs: () => ['--shutdown-send-retry-after'] });
  }, 120_000);

  afterAll(async () => {
    cluster?.members.get('etcd')?.process.child.kill('SIGCONT');
    cluster?.members.get('storage')?.process.child.kill('SIGCONT');
    await cluster?.stop();
  });

  it('refuses new requests with 429 while the gateway listens for the ones in flight, then exits', async () => {
    const storage = cluster.members.get('storage');
    const gateway = cluster.members.get('gateway-0');
    if (!storage || !gateway) throw new Error('no storage or gateway member');
    // With storage paused, a create stays in flight in the gateway.
    storage.process.child.kill('SIGSTOP');
    let held: Promise<Answer>;
    let exited: Promise<number | null>;
    try {
      held = cluster.request(0, 'POST', serviceAccounts, adminToken, { metadata: { name: 'held' } });
      await eventually(async () => /^apiserver_current_inflight_requests\{request_kind="mutating"\} 1$/m.test((await cluster.request(0, 'GET', '/metrics', adminToken)).body), { timeoutMs: 60_000 });
      exited = gateway.kill('SIGTERM');
      await eventually(async () => (await cluster.request(0, 'GET', '/version', adminToken)).status === 429, { timeoutMs: 60_000 });
      const refused = await cluster.request(0, 'POST', serviceAccounts, adminToken, { metadata: { name: 'refused' } });
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.headers.connection).toBe('close');
      expect(refused.body).toBe('The apiserver is shutting down, please try again later.\n');
      // Health checks are still answered (one that needs no storage, which is paused).
      expect((await cluster.request(0, 'GET', '/readyz/shutdown', adminToken)).status).toBe(500);
      expect((await cluster.request(0, 'GET', '/livez/ping', adminToken)).status).toBe(200);
    } finally {
      storage.process.child.kill('SIGCONT');
    }
    expect((await held).status).toBe(201);
    expect(await exited).toBe(0);
    await gateway.start();
    const names = JSON.parse((await cluster.request(0, 'GET', serviceAccounts, adminToken)).body).items.map((i: { metadata: { name: string } }) => i.metadata.name);
    expect(names).toContain('held');
    expect(names).not.toContain('refused');
  }, 60_000);

  it('answers the calls in flight before it closes the store and exits', async () => {
    const etcd = cluster.members.get('etcd');
    const storage = cluster.members.get('storage');
    if (!etcd || !storage) throw new Error('no etcd or storage member');
    const client = cluster.storageClient();
    try {
      await client.currentRevision();
      // With etcd paused, the writes wait in the storage service.
      etcd.process.child.kill('SIGSTOP');
      let exited: Promise<number | null>;
      let writes: Promise<KeyValue>[];
      try {
        writes = [0, 1, 2].map((i) => client.create(`/registry/drained/${i}`, new TextEncoder().encode(`{"i":${i}}`)));
        // The calls cross the loopback in a moment; give them that moment.
        await new Promise((r) => setTimeout(r, 300));
        exited = storage.kill('SIGTERM');
        await new Promise((r) => setTimeout(r, 200));
        expect(storage.process.child.exitCode).toBeNull();
      } finally {
        etcd.process.child.kill('SIGCONT');
      }
      const stored = await Promise.all(writes);
      expect(stored.map((kv) => kv.key)).toEqual(['/registry/drained/0', '/registry/drained/1', '/registry/drained/2']);
      expect(await exited).toBe(0);
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('graceful shutdown of the all-in-one', () => {
  it('fails /readyz at once, serves through the shutdown delay, and exits 0', async () => {
    const plinth = await startPlinth(['--shutdown-delay-duration=3s', '--simulated-nodes', '0']);
    try {
      const pki = (name: string) => readFileSync(join(plinth.dataDir, 'pki', name), 'utf8');
      const get = (path: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = httpsRequest({ host: '127.0.0.1', port: plinth.port, path, ca: pki('ca.crt'), cert: pki('admin.crt'), key: pki('admin.key'), agent: false }, (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (body += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          });
          req.on('error', reject);
          req.end();
        });
      expect((await get('/readyz')).status).toBe(200);
      process.kill(plinth.pid, 'SIGTERM');
      await eventually(async () => (await get('/readyz')).status === 500, { timeoutMs: 60_000 });
      expect((await get('/readyz?verbose')).body).toContain('[-]shutdown failed: reason withheld');
      expect((await get('/api/v1/namespaces/default')).status).toBe(200);
      expect(await plinth.exited).toBe(0);
    } finally {
      await plinth.stop();
    }
  }, 60_000);
});
