// Overload protection of a gateway, as kube-apiserver's filters give it: the in-flight limit
// refuses what is over it at once with 429 (nothing over the limit is stored, nothing under it
// is lost), and the request timeout answers 504 and abandons the storage call. The storage
// service is paused (SIGSTOP) to hold requests in flight deterministically.
import { Agent } from 'node:https';
import { performance } from 'node:perf_hooks';
import { Answer, Cluster, startCluster } from './cluster';
import { eventually } from '@plinth/testing';

const adminToken = 'admin-token';
const aliceToken = 'alice-token';
const serviceAccounts = '/api/v1/namespaces/default/serviceaccounts';
const limit = 4;
// Gateway 0 has small in-flight limits, gateway 1 a short request timeout.
const gatewayArgs = (index: number) =>
  index === 0 ? [`--max-requests-inflight=${limit}`, `--max-mutating-requests-inflight=${limit}`] : ['--request-timeout=2s'];

describe('overload', () => {
  let cluster: Cluster;
  let pauseStorage: () => void;
  let resumeStorage: () => void;

  beforeAll(async () => {
    cluster = await startCluster({ gateways: 2, gatewayArgs });
    const storage = cluster.members.get('storage');
    if (!storage) throw new Error('no storage member');
    pauseStorage = () => storage.process.child.kill('SIGSTOP');
    resumeStorage = () => storage.process.child.kill('SIGCONT');
    const binding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'alice-admin' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }],
    };
    expect((await cluster.request(0, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', adminToken, binding)).status).toBe(201);
    await eventually(async () => (await cluster.request(0, 'GET', serviceAccounts, aliceToken)).status === 200, { timeoutMs: 60_000 });
  }, 120_000);

  afterAll(async () => {
    resumeStorage?.();
    await cluster?.stop();
  });

  const create = (gateway: number, token: string, name: string, agent?: Agent) => cluster.request(gateway, 'POST', serviceAccounts, token, { metadata: { name } }, agent);

  it('refuses what is over --max-mutating-requests-inflight with 429 at once, except system:masters, watches and health checks', async () => {
    // Watches take no seat: with `limit` of them open, read-only requests are still served.
    const watches = await Promise.all(Array.from({ length: limit }, () => cluster.openStream(0, `${serviceAccounts}?watch=true`, aliceToken)));
    expect(watches.map((w) => w.status)).toEqual(Array(limit).fill(200));
    pauseStorage();
    let held: Promise<Answer>[];
    let masters: Promise<Answer>;
    try {
      // Twice the limit at once: half take the seats (and wait on storage), half are refused.
      const answers = Array.from({ length: 2 * limit }, (_, i) => create(0, aliceToken, `held-${i}`));
      const refused: Answer[] = [];
      const settled = answers.map((answer) => answer.then((a) => (a.status === 429 ? void refused.push(a) : undefined)));
      await eventually(() => refused.length === limit, { timeoutMs: 60_000 });
      for (const answer of refused) {
        expect(answer.status).toBe(429);
        expect(answer.headers['retry-after']).toBe('1');
        expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
        expect(answer.headers['cache-control']).toBe('no-cache, private');
        expect(answer.body).toBe('Too many requests, please try again later.\n');
      }
      held = answers;
      void settled;
      // system:masters is never refused: its request waits on storage with the others.
      masters = create(0, adminToken, 'by-masters');
      // Health checks take no seat; read-only requests have their own, which the watches left.
      expect((await cluster.request(0, 'GET', '/livez/ping', aliceToken)).status).toBe(200);
      expect((await cluster.request(0, 'GET', '/version', aliceToken)).status).toBe(200);
      expect((await create(0, aliceToken, 'one-more')).status).toBe(429);
    } finally {
      resumeStorage();
      for (const watch of watches) watch.close();
    }
    const results = await Promise.all(held);
    expect(results.map((r) => r.status).sort()).toEqual([...Array(limit).fill(201), ...Array(limit).fill(429)]);
    expect((await masters).status).toBe(201);
    // Nothing over the limit was stored; everything under it was.
    const stored = await storedNames();
    const admitted = results.filter((r) => r.status === 201).map((r) => JSON.parse(r.body).metadata.name);
    expect(admitted.every((name) => stored.has(name))).toBe(true);
    expect(Array.from({ length: 2 * limit }, (_, i) => `held-${i}`).filter((name) => stored.has(name)).sort()).toEqual([...admitted].sort());
    expect(stored.has('by-masters')).toBe(true);
    expect(stored.has('one-more')).toBe(false);
    // The seats are free again.
    expect((await create(0, aliceToken, 'after')).status).toBe(201);
    expect((await cluster.request(0, 'GET', '/metrics', adminToken)).body).toMatch(
      /^apiserver_request_terminations_total\{code="429",component="apiserver",group="",resource="serviceaccounts",scope="resource",subresource="",verb="POST",version="v1"\} 5$/m,
    );
  }, 60_000);

  it('loses nothing under a steady load of twice the limit: every write is stored or refused with 429', async () => {
    const outcomes: { name: string; status: number; ms: number }[] = [];
    const started = Date.now();
    const worker = async (id: number) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: cluster.ca });
      try {
        for (let i = 0; i < 40; i++) {
          const name = `steady-${id}-${i}`;
          const sent = performance.now();
          const { status } = await create(0, aliceToken, name, agent);
          outcomes.push({ name, status, ms: performance.now() - sent });
        }
      } finally {
        agent.destroy();
      }
    };
    await Promise.all(Array.from({ length: 2 * limit }, (_, id) => worker(id)));
    const seconds = (Date.now() - started) / 1000;
    expect(outcomes.filter((o) => o.status !== 201 && o.status !== 429)).toEqual([]);
    const stored = await storedNames();
    const created = outcomes.filter((o) => o.status === 201);
    const refused = outcomes.filter((o) => o.status === 429);
    expect(created.filter((o) => !stored.has(o.name))).toEqual([]);
    expect(refused.filter((o) => stored.has(o.name))).toEqual([]);
    const median = (list: { ms: number }[]) => (list.length ? list.map((o) => o.ms).sort((a, b) => a - b)[list.length >> 1].toFixed(1) : '-');
    console.log(
      `overload at 2x --max-mutating-requests-inflight=${limit}: ${outcomes.length} creates in ${seconds.toFixed(1)} s, ` +
        `${created.length} created (${(created.length / seconds) | 0}/s, median ${median(created)} ms), ` +
        `${refused.length} refused with 429 and Retry-After: 1 (${((100 * refused.length) / outcomes.length).toFixed(0)}%, median ${median(refused)} ms)`,
    );
  }, 120_000);

  it('answers 504 Timeout after --request-timeout and drops the abandoned answer', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: cluster.ca });
    try {
      // Open the connection the timed-out request will use.
      expect((await cluster.request(1, 'GET', '/version', adminToken, undefined, agent)).status).toBe(200);
      pauseStorage();
      let answer: Answer;
      try {
        answer = await create(1, adminToken, 'too-slow', agent);
      } finally {
        resumeStorage();
      }
      // The request's deadline and its storage call's end together, as in kube-apiserver, where
      // both are the request's context: the timeout filter's answer (its Status as Go's
      // json.Encoder writes it, without kind or apiVersion, as text/plain) or the finisher's.
      const timeoutStatus = { metadata: {}, status: 'Failure', reason: 'Timeout', details: {}, code: 504 };
      expect([
        { status: 504, contentType: 'text/plain; charset=utf-8', json: { ...timeoutStatus, message: 'Timeout: request did not complete within the allotted timeout' } },
        {
          status: 504,
          contentType: 'application/json',
          json: { kind: 'Status', apiVersion: 'v1', ...timeoutStatus, message: 'Timeout: request did not complete within requested timeout - context deadline exceeded' },
        },
      ]).toContainEqual({ status: answer.status, contentType: answer.headers['content-type'], json: JSON.parse(answer.body) });
      // The storage call went on without its client; once it is done, the same connection
      // carries the next answer whole.
      await eventually(async () => (await storedNames()).has('too-slow'), { timeoutMs: 60_000 });
      const next = await cluster.request(1, 'GET', `${serviceAccounts}/too-slow`, adminToken, undefined, agent);
      expect(next.status).toBe(200);
      expect(JSON.parse(next.body).metadata.name).toBe('too-slow');
      // The dropped answer is not a failure of the server; the timeout is a termination.
      const metrics = (await cluster.request(1, 'GET', '/metrics', adminToken)).body;
      expect(metrics).toMatch(/^apiserver_request_panics_total 0$/m);
      expect(metrics).toMatch(/^apiserver_request_terminations_total\{code="504",component="apiserver",group="",resource="serviceaccounts",scope="resource",subresource="",verb="POST",version="v1"\} 1$/m);
    } finally {
      agent.destroy();
    }
  }, 60_000);

  async function storedNames(): Promise<Set<string>> {
    const list = JSON.parse((await cluster.request(0, 'GET', serviceAccounts, adminToken)).body);
    return new Set(list.items.map((item: { metadata: { name: string } }) => item.metadata.name));
  }
});
