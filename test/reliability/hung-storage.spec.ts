// A storage service that is connected but hung (SIGSTOP: its sockets stay open, nothing is
// read or answered) under a distributed gateway. Every request still gets an answer: those that
// need storage 504 Timeout (the request's --request-timeout and the storage call's deadline end
// together: the timeout filter's bare Status or the finisher's), and none hangs; the gateway's storage calls end at their deadline
// (Timeout in its metrics; a link reset by keepalive would count Unreachable) rather than wait
// for the service's return. Once
// the service runs again (SIGCONT) the gateway serves writes again, and each create that failed
// is either stored whole or not at all, as with kube-apiserver, whose timed-out write may still
// land. A client whose keepalive pings go unanswered resets its link and fails its calls long
// before their deadline. The link's metrics show it: the pending calls climb while the service
// is stopped and fall back once their deadlines pass, and a gateway started with a small
// --storage-max-pending-calls refuses the calls past it at once (503), counting them.
import { StorageErrorCode } from '@plinth/storage';
import { Answer, Cluster, startCluster } from './cluster';
import { eventually } from '@plinth/testing';

const adminToken = 'admin-token';
const serviceAccounts = '/api/v1/namespaces/default/serviceaccounts';

interface StatusBody {
  kind?: string;
  code?: number;
  reason?: string;
  message?: string;
}

// sample reads one series of a gateway's /metrics (0 when absent): the first line that starts
// with the series' name and holds every fragment.
async function sample(cluster: Cluster, gateway: number, name: string, ...fragments: string[]): Promise<number> {
  const metrics = (await cluster.request(gateway, 'GET', '/metrics', adminToken)).body;
  const line = metrics.split('\n').find((l) => (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) && fragments.every((f) => l.includes(f)));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

// failedCreates is the gateway's count of storage creates that ended at their deadline.
const failedCreates = (cluster: Cluster) => sample(cluster, 0, 'plinth_storage_request_duration_seconds_count', 'operation="Create"', 'code="Timeout"');
const pendingCalls = (cluster: Cluster, gateway: number) => sample(cluster, gateway, 'plinth_storage_pending_calls');
const refusedCalls = (cluster: Cluster, gateway: number) => sample(cluster, gateway, 'plinth_storage_calls_refused_total');
// smallCap is the pending-call cap of gateway 1.
const smallCap = 5;

function statusOf(answer: Answer): StatusBody {
  try {
    return JSON.parse(answer.body) as StatusBody;
  } catch {
    return {};
  }
}

const timeoutFilterAnswer = { status: 504, kind: undefined, reason: 'Timeout', message: 'Timeout: request did not complete within the allotted timeout' };
const finisherAnswer = { status: 504, kind: 'Status', reason: 'Timeout', message: 'Timeout: request did not complete within requested timeout - context deadline exceeded' };

describe('a hung storage service', () => {
  let cluster: Cluster;
  let stopped = false;

  beforeAll(async () => {
    cluster = await startCluster({ gateways: 2, gatewayArgs: (index) => ['--request-timeout=5s', ...(index === 1 ? [`--storage-max-pending-calls=${smallCap}`] : [])] });
    expect((await cluster.request(0, 'POST', serviceAccounts, adminToken, { metadata: { name: 'before' } })).status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    if (stopped) cluster.members.get('storage')?.signal('SIGCONT');
    await cluster?.stop();
  });

  it('answers every request with a Status while stopped, serves again once continued, and stores no half-written create', async () => {
    const storage = cluster.members.get('storage');
    if (!storage) throw new Error('no storage member');
    const failedBefore = await failedCreates(cluster);
    expect(await refusedCalls(cluster, 0)).toBe(0);
    storage.signal('SIGSTOP');
    stopped = true;
    const names = Array.from({ length: 40 }, (_, i) => `while-stopped-${i}`);
    const sent = Promise.all(names.map((name) => cluster.request(0, 'POST', serviceAccounts, adminToken, { metadata: { name } })));
    // The creates await their answers on the link, which shows them as pending calls.
    let pending = 0;
    await eventually(async () => (pending = await pendingCalls(cluster, 0)) >= names.length, { timeoutMs: 30_000, what: () => `${names.length} pending storage calls (last read ${pending})` });
    const creates = await sent;
    const reads = await Promise.all([
      cluster.request(0, 'GET', `${serviceAccounts}/before`, adminToken),
      cluster.request(0, 'GET', serviceAccounts, adminToken),
      cluster.request(0, 'DELETE', `${serviceAccounts}/before`, adminToken),
    ]);
    // Every create's storage call has ended by its deadline, while the service is still stopped.
    await eventually(async () => (await failedCreates(cluster)) >= failedBefore + names.length, { timeoutMs: 60_000, what: 'the creates failed in the metrics' });
    storage.signal('SIGCONT');
    stopped = false;
    // None was refused: 40 is far below the default cap.
    expect(await refusedCalls(cluster, 0)).toBe(0);

    for (const answer of creates) {
      const status = statusOf(answer);
      // The request's deadline and its storage call's end together, as in kube-apiserver, where
      // both are the request's context: the timeout filter's bare Status or the finisher's.
      expect([timeoutFilterAnswer, finisherAnswer]).toContainEqual({ status: answer.status, kind: status.kind, reason: status.reason, message: status.message });
    }
    for (const answer of reads) {
      // A read may be served from the gateway's cache; what needs storage is a Status error.
      if (answer.status !== 200) {
        expect({ status: answer.status, reason: statusOf(answer).reason }).toEqual({ status: 504, reason: 'Timeout' });
      }
    }

    await eventually(async () => (await cluster.request(0, 'POST', serviceAccounts, adminToken, { metadata: { name: 'after' } })).status === 201, {
      timeoutMs: 90_000,
      what: 'a create after SIGCONT',
    });
    const listed = JSON.parse((await cluster.request(0, 'GET', serviceAccounts, adminToken)).body) as { items: { metadata: { name: string; uid?: string } }[] };
    const stored = new Set(listed.items.map((item) => item.metadata.name));
    expect(stored.has('after')).toBe(true);
    for (const name of names) {
      const read = await cluster.request(0, 'GET', `${serviceAccounts}/${name}`, adminToken);
      if (read.status === 200) {
        const object = JSON.parse(read.body) as { kind: string; metadata: { name: string; uid?: string; resourceVersion?: string } };
        expect({ kind: object.kind, name: object.metadata.name }).toEqual({ kind: 'ServiceAccount', name });
        expect(object.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
        expect(object.metadata.resourceVersion).toMatch(/^\d+$/);
        expect(stored.has(name)).toBe(true);
      } else {
        expect({ name, status: read.status, reason: statusOf(read).reason }).toEqual({ name, status: 404, reason: 'NotFound' });
        expect(stored.has(name)).toBe(false);
      }
    }
  }, 240_000);

  it('refuses at once, with 503, the calls past --storage-max-pending-calls, counting them, and serves again once continued', async () => {
    const storage = cluster.members.get('storage');
    if (!storage) throw new Error('no storage member');
    const refusedBefore = await refusedCalls(cluster, 1);
    storage.signal('SIGSTOP');
    stopped = true;
    // The first smallCap creates fill the link (or fewer, if the gateway's own calls hold some
    // places); the others are refused without waiting for the deadline.
    const names = Array.from({ length: 3 * smallCap }, (_, i) => `capped-${i}`);
    const answers = await Promise.all(names.map((name) => cluster.request(1, 'POST', serviceAccounts, adminToken, { metadata: { name } })));
    const pendingAtCap = await pendingCalls(cluster, 1);
    const refusedAfter = await refusedCalls(cluster, 1);
    storage.signal('SIGCONT');
    stopped = false;

    const statuses = answers.map((answer) => `${answer.status} ${statusOf(answer).reason}`);
    const refused = statuses.filter((s) => s === '503 ServiceUnavailable').length;
    expect(statuses.filter((s) => s !== '503 ServiceUnavailable' && s !== '504 Timeout')).toEqual([]);
    expect(refused).toBeGreaterThanOrEqual(names.length - smallCap);
    expect(refusedAfter - refusedBefore).toBeGreaterThanOrEqual(refused);
    expect(pendingAtCap).toBeLessThanOrEqual(smallCap);
    const refusal = answers.find((answer) => answer.status === 503);
    expect(statusOf(refusal ?? { status: 0, headers: {}, body: '' }).message).toMatch(/calls await the storage service's answers/);

    await eventually(async () => (await cluster.request(1, 'POST', serviceAccounts, adminToken, { metadata: { name: 'after-cap' } })).status === 201, {
      timeoutMs: 90_000,
      what: 'a create on the capped gateway after SIGCONT',
    });
    await eventually(async () => (await pendingCalls(cluster, 1)) === 0, { timeoutMs: 30_000, what: 'no pending storage calls once storage answers' });
  }, 120_000);

  it('resets the link of a client whose keepalive pings go unanswered, failing its calls before their deadline', async () => {
    const storage = cluster.members.get('storage');
    if (!storage) throw new Error('no storage member');
    const client = cluster.storageClient({
      callTimeoutMs: 3_600_000,
      keepaliveTimeMs: 1_000,
      keepaliveTimeoutMs: 1_000,
    });
    try {
      expect(await client.currentRevision()).toBeGreaterThan(0);
      storage.signal('SIGSTOP');
      stopped = true;
      const err = await client.currentRevision().then(
        () => undefined,
        (e: unknown) => e as { code?: string; message?: string },
      );
      expect(err?.code).toBe(StorageErrorCode.Unreachable);
      expect(err?.message).toMatch(/^storage unreachable: UNAVAILABLE/);
    } finally {
      storage.signal('SIGCONT');
      stopped = false;
      await client.close();
    }
    await eventually(async () => (await cluster.request(0, 'POST', serviceAccounts, adminToken, { metadata: { name: 'after-keepalive' } })).status === 201, {
      timeoutMs: 90_000,
      what: 'a create after SIGCONT',
    });
  }, 120_000);
});
