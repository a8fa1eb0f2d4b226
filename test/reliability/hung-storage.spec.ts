// A storage service that is connected but hung (SIGSTOP: its sockets stay open, nothing is
// read or answered) under a distributed gateway. Every request still gets an answer: those that
// need storage 504 Timeout (the request's --request-timeout passes before the storage call's
// deadline, which starts later: the timeout filter's bare Status, without kind), and none hangs; the gateway's storage calls end at their deadline
// (Timeout in its metrics; a link reset by keepalive would count Unreachable) rather than wait
// for the service's return. Once
// the service runs again (SIGCONT) the gateway serves writes again, and each create that failed
// is either stored whole or not at all, as with kube-apiserver, whose timed-out write may still
// land. A client whose keepalive pings go unanswered resets its link and fails its calls long
// before their deadline.
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

// failedCreates is the gateway's count of storage creates that ended at their deadline.
async function failedCreates(cluster: Cluster): Promise<number> {
  const metrics = (await cluster.request(0, 'GET', '/metrics', adminToken)).body;
  const line = metrics.split('\n').find((l) => l.startsWith('plinth_storage_request_duration_seconds_count{') && l.includes('operation="Create"') && l.includes('code="Timeout"'));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

function statusOf(answer: Answer): StatusBody {
  try {
    return JSON.parse(answer.body) as StatusBody;
  } catch {
    return {};
  }
}

describe('a hung storage service', () => {
  let cluster: Cluster;
  let stopped = false;

  beforeAll(async () => {
    cluster = await startCluster({ gateways: 1, gatewayArgs: () => ['--request-timeout=5s'] });
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
    storage.signal('SIGSTOP');
    stopped = true;
    const names = Array.from({ length: 40 }, (_, i) => `while-stopped-${i}`);
    const creates = await Promise.all(names.map((name) => cluster.request(0, 'POST', serviceAccounts, adminToken, { metadata: { name } })));
    const reads = await Promise.all([
      cluster.request(0, 'GET', `${serviceAccounts}/before`, adminToken),
      cluster.request(0, 'GET', serviceAccounts, adminToken),
      cluster.request(0, 'DELETE', `${serviceAccounts}/before`, adminToken),
    ]);
    // Every create's storage call has ended by its deadline, while the service is still stopped.
    await eventually(async () => (await failedCreates(cluster)) >= failedBefore + names.length, { timeoutMs: 60_000, what: 'the creates failed in the metrics' });
    storage.signal('SIGCONT');
    stopped = false;

    for (const answer of creates) {
      const status = statusOf(answer);
      expect({ status: answer.status, kind: status.kind, code: status.code, reason: status.reason }).toEqual({ status: 504, kind: undefined, code: 504, reason: 'Timeout' });
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

  it('resets the link of a client whose keepalive pings go unanswered, failing its calls before their deadline', async () => {
    const storage = cluster.members.get('storage');
    if (!storage) throw new Error('no storage member');
    const client = cluster.storageClient({
      callTimeoutMs: 3_600_000,
      channelOptions: { 'grpc.keepalive_time_ms': 1_000, 'grpc.keepalive_timeout_ms': 1_000 },
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
