// A gateway told to stop (SIGTERM) under a write load, with a watch open: /readyz fails at once
// while the listener serves on for --shutdown-delay-duration, then every request is either
// answered or refused before it was read, the watch ends at an event boundary, and no object
// is stored whose client saw an error.
import { Agent } from 'node:https';
import { Cluster, refusedBeforeRead, startCluster, until } from './cluster';

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
    await until(() => outcomes.length >= 80);
    const exited = gateway.kill('SIGTERM');

    // /readyz fails at once, while requests (on new connections too) are still served.
    await until(async () => (await cluster.request(0, 'GET', '/readyz?verbose', adminToken)).status === 500);
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
