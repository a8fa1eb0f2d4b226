// Objects too large for etcd (--max-request-bytes, 1.5 MiB by default; its gRPC limit 2 MiB),
// through the API server on a real etcd: as kube-apiserver, a write that etcd refuses is tried
// once more without managedFields, and an object too large even so is a 500 with etcd's words
// (not a 503: the store is there, the request is what it refuses).
import { EtcdObjectStore } from '@plinth/storage-etcd';
import { EtcdServer, startEtcd } from '@plinth/testing';
import { startTestApiServer, TestApiServer, testTokens } from '@plinth/testing-server';

describe('objects too large for etcd', () => {
  let etcd: EtcdServer;
  let store: EtcdObjectStore;
  let server: TestApiServer;

  const post = async (body: unknown) => {
    const res = await fetch(`${server.url}/api/v1/namespaces/default/serviceaccounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${testTokens.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as { metadata: { labels: Record<string, string>; managedFields?: unknown } } };
  };

  beforeAll(async () => {
    etcd = await startEtcd();
    store = new EtcdObjectStore({ endpoints: [etcd.endpoint] });
    server = await startTestApiServer({}, { store });
  }, 60000);

  afterAll(async () => {
    await server?.stop();
    await store?.close();
    await etcd?.stop();
  });

  it('stores an object whose managedFields make it too large, without them', async () => {
    // 60,000 labels: about 1 MB of object, about as much again of managedFields.
    const labels = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`l${i}`, 'v']));
    const created = await post({ metadata: { name: 'many-labels', labels } });
    expect(created.status).toBe(201);
    expect(Object.keys(created.json.metadata.labels)).toHaveLength(60_000);
    expect(created.json.metadata.managedFields).toBeUndefined();
  }, 60000);

  it('answers 500 with etcd\'s words when the object alone is too large', async () => {
    // Labels of 63 characters: 22,000 of them pass etcd's gRPC limit but not --max-request-bytes,
    // 30,000 pass neither.
    const labels = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`l${i}`, 'v'.repeat(63)]));
    for (const [name, n] of [['big', 22_000], ['bigger', 30_000]] as const) {
      const refused = await post({ metadata: { name, labels: labels(n) } });
      expect(refused).toEqual({ status: 500, json: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'etcdserver: request is too large', code: 500 } });
    }
  }, 60000);
});
