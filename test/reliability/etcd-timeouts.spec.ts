// An API server over a real etcd that stops answering (SIGSTOP: its sockets stay open), as
// kube-apiserver 1.28 answers it:
// - a write whose etcd call runs out of time is answered 504 Timeout in the finisher's words
//   ("request did not complete within requested timeout - context deadline exceeded"), whether
//   the deadline was the store's own or the request's, never 503;
// - a deletecollection whose request timed out stops deleting: kube's DeleteCollection workers
//   delete with the request's context, so once it is done (the 504 written) every delete not yet
//   started fails at once and the lister lists no further page; only the delete under way when
//   the time ran out lands.
import { EtcdObjectStore } from '@plinth/storage-etcd';
import { EtcdServer, eventually, startEtcd } from '@plinth/testing';
import { startTestApiServer, TestApiServer, testTokens } from '@plinth/testing-server';

interface StatusBody {
  kind?: string;
  code?: number;
  reason?: string;
  message?: string;
}

interface Running {
  etcd: EtcdServer;
  store: EtcdObjectStore;
  server: TestApiServer;
}

async function startOverEtcd(etcdRequestTimeoutMs: number, requestTimeoutMs: number, deleteCollectionWorkers = 16): Promise<Running> {
  const etcd = await startEtcd();
  const store = new EtcdObjectStore({ endpoints: [etcd.endpoint], requestTimeoutMs: etcdRequestTimeoutMs });
  const server = await startTestApiServer({ requestTimeoutMs, deleteCollectionWorkers }, { store });
  return { etcd, store, server };
}

async function stopAll(running: Running | undefined): Promise<void> {
  if (!running) return;
  running.etcd.signal('SIGCONT');
  await running.server.stop();
  await running.store.close();
  await running.etcd.stop();
}

async function send(server: TestApiServer, method: string, path: string, body?: unknown): Promise<{ status: number; body: StatusBody & { items?: unknown[] } }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${testTokens.admin}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as StatusBody & { items?: unknown[] } };
}

// postTimeouts counts the handlers that returned after their request's timeout.
async function postTimeouts(server: TestApiServer): Promise<number> {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${testTokens.admin}` } });
  const line = (await res.text()).split('\n').find((l) => l.startsWith('apiserver_request_post_timeout_total{source="timeout-handler",status="ok"} '));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

const finisherTimeout: StatusBody = {
  kind: 'Status',
  code: 504,
  reason: 'Timeout',
  message: 'Timeout: request did not complete within requested timeout - context deadline exceeded',
};

describe("the etcd store's own deadline", () => {
  let running: Running | undefined;

  beforeAll(async () => {
    // The store gives etcd 1 s; the request has a minute.
    running = await startOverEtcd(1_000, 60_000);
  }, 60_000);

  afterAll(() => stopAll(running));

  it('answers a write etcd does not answer in time 504 Timeout as the finisher words it, and serves again once etcd runs', async () => {
    const { etcd, server } = running as Running;
    etcd.signal('SIGSTOP');
    let answer: Awaited<ReturnType<typeof send>>;
    try {
      answer = await send(server, 'POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', { metadata: { name: 'while-hung' } });
    } finally {
      etcd.signal('SIGCONT');
    }
    expect({ httpStatus: answer.status, ...answer.body }).toMatchObject({ httpStatus: 504, ...finisherTimeout });
    await eventually(async () => (await send(server, 'POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', { metadata: { name: 'after-hung' } })).status === 201, {
      timeoutMs: 30_000,
      what: 'a create once etcd runs again',
    });
  }, 60_000);
});

describe('a deletecollection whose request timed out', () => {
  const namespace = 'dc-timeout';
  const leases = `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`;
  const count = 60;
  let running: Running | undefined;

  beforeAll(async () => {
    // etcd's own deadline is far past the request's 3 s: the delete under way at the timeout
    // lands once etcd runs again. One worker: one delete at a time.
    running = await startOverEtcd(120_000, 3_000, 1);
    const { server } = running;
    expect((await send(server, 'POST', '/api/v1/namespaces', { metadata: { name: namespace } })).status).toBe(201);
    for (let i = 0; i < count; i += 10) {
      const made = await Promise.all(Array.from({ length: 10 }, (_, j) => send(server, 'POST', leases, { metadata: { name: `lease-${String(i + j).padStart(3, '0')}` } })));
      expect(made.map((m) => m.status)).toEqual(Array(10).fill(201));
    }
    // The watch cache holds them all: the deletecollection below lists from it, without etcd.
    await eventually(async () => (await send(server, 'GET', `${leases}?resourceVersion=0`)).body.items?.length === count, { timeoutMs: 30_000, what: 'the cache holding every Lease' });
  }, 120_000);

  afterAll(() => stopAll(running));

  it('answers 504 and deletes nothing after it but the delete under way', async () => {
    const { etcd, server } = running as Running;
    etcd.signal('SIGSTOP');
    let answer: Awaited<ReturnType<typeof send>>;
    try {
      // Listed from the cache (this server's own writes are all it must have seen); the first
      // delete waits on the stopped etcd past the request's end.
      answer = await send(server, 'DELETE', leases);
    } finally {
      etcd.signal('SIGCONT');
    }
    expect(`${answer.status} ${JSON.stringify(answer.body)}`).toMatch(/^504 /);
    // The timeout filter's answer: its Status without kind or apiVersion.
    expect({ kind: answer.body.kind, code: answer.body.code, reason: answer.body.reason }).toEqual({ kind: undefined, code: 504, reason: 'Timeout' });

    // The delete that waited lands now, and the handler returns (kube-apiserver counts that in
    // apiserver_request_post_timeout_total): no delete follows it, since kube's workers' next
    // deletes fail on the done context.
    await eventually(async () => (await postTimeouts(server)) === 1, { timeoutMs: 30_000, what: 'the deletecollection handler returning after its timeout' });
    const left = await send(server, 'GET', leases);
    expect(left.body.items).toHaveLength(count - 1);
  }, 60_000);
});
