// deletecollection as kube-apiserver's Store.DeleteCollection answers it: the objects as listed,
// in pages of 10,000, deleted by several workers, each delete a DELETE's own (finalizers,
// dryRun, preconditions), a DELETED event for each object removed.
import { openWatch, suiteServer } from './http';

const leases = (ns: string) => `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`;

describe('API server: deletecollection', () => {
  const server = suiteServer();
  const request = server.request;

  async function namespace(name: string): Promise<string> {
    expect((await request('POST', '/api/v1/namespaces', { body: { metadata: { name } } })).status).toBe(201);
    return name;
  }

  async function lease(ns: string, name: string, metadata: Record<string, unknown> = {}): Promise<{ metadata: { name: string; resourceVersion: string } }> {
    const res = await request('POST', leases(ns), { body: { metadata: { name, ...metadata } } });
    expect(res.status).toBe(201);
    return res.json;
  }

  it('answers the objects as listed, removes those it can and marks those finalizers hold, with an event for each', async () => {
    const ns = await namespace('dc-listed');
    const a = await lease(ns, 'a');
    const held = await lease(ns, 'held', { finalizers: ['example.com/hold'] });
    const z = await lease(ns, 'z');
    const listed = await request('GET', leases(ns));
    const watch = await openWatch(server.url, `${leases(ns)}?watch=1&resourceVersion=${listed.json.metadata.resourceVersion}`);
    try {
      const res = await request('DELETE', leases(ns));
      expect(res.status).toBe(200);
      expect(res.json.kind).toBe('LeaseList');
      expect(res.json.metadata).toEqual({ resourceVersion: listed.json.metadata.resourceVersion });
      expect(res.json.items.map((item: { metadata: { name: string; resourceVersion: string; deletionTimestamp?: string } }) => [item.metadata.name, item.metadata.resourceVersion, item.metadata.deletionTimestamp])).toEqual([
        ['a', a.metadata.resourceVersion, undefined],
        ['held', held.metadata.resourceVersion, undefined],
        ['z', z.metadata.resourceVersion, undefined],
      ]);
      const events = await watch.waitFor(3);
      expect(events.map((event: { type: string; object: { metadata: { name: string } } }) => `${event.type} ${event.object.metadata.name}`).sort()).toEqual(['DELETED a', 'DELETED z', 'MODIFIED held']);
      expect((await request('GET', `${leases(ns)}/a`)).status).toBe(404);
      expect((await request('GET', `${leases(ns)}/held`)).json.metadata.deletionTimestamp).toEqual(expect.any(String));
    } finally {
      watch.close();
    }
  });

  it('deletes nothing on a dry run and answers what it would delete', async () => {
    const ns = await namespace('dc-dry');
    await lease(ns, 'kept');
    const res = await request('DELETE', `${leases(ns)}?dryRun=All`);
    expect(res.status).toBe(200);
    expect(res.json.items.map((item: { metadata: { name: string } }) => item.metadata.name)).toEqual(['kept']);
    expect((await request('GET', `${leases(ns)}/kept`)).status).toBe(200);
  });

  it('answers the first failed delete, here a uid precondition no object meets, and deletes nothing', async () => {
    const ns = await namespace('dc-precondition');
    for (const name of ['p1', 'p2', 'p3']) await lease(ns, name);
    const res = await request('DELETE', leases(ns), { body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'no-such-uid' } } });
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ kind: 'Status', reason: 'Conflict' });
    expect(res.json.message).toContain('the UID in the precondition (no-such-uid) does not match the UID in record');
    expect((await request('GET', leases(ns))).json.items).toHaveLength(3);
  });

  // The query is ListOptions and, without a body, DeleteOptions too (kube-apiserver decodes it
  // into both): its resourceVersion picks the list's revision and is each delete's precondition.
  it('lists at the query resourceVersion and, without a body, takes it as each delete precondition', async () => {
    const ns = await namespace('dc-query-rv');
    const a = await lease(ns, 'a');
    await lease(ns, 'b');
    const res = await request('DELETE', `${leases(ns)}?resourceVersion=${a.metadata.resourceVersion}`);
    expect({ status: res.status, listed: res.json.items.map((item: { metadata: { name: string } }) => item.metadata.name), rv: res.json.metadata.resourceVersion }).toEqual({
      status: 200,
      listed: ['a'],
      rv: a.metadata.resourceVersion,
    });
    expect((await request('GET', leases(ns))).json.items.map((item: { metadata: { name: string } }) => item.metadata.name)).toEqual(['b']);
    const zero = await request('DELETE', `${leases(ns)}?resourceVersion=0`);
    expect({ status: zero.status, reason: zero.json.reason }).toEqual({ status: 409, reason: 'Conflict' });
    expect(zero.json.message).toContain('the ResourceVersion in the precondition (0) does not match the ResourceVersion in record');
  });

  it('takes preconditions from a body alone, the query resourceVersion then only the list one', async () => {
    const ns = await namespace('dc-body-rv');
    const a = await lease(ns, 'a');
    const b = await lease(ns, 'b');
    const listedOnly = await request('DELETE', `${leases(ns)}?resourceVersion=${a.metadata.resourceVersion}`, { body: { kind: 'DeleteOptions', apiVersion: 'v1' } });
    expect({ status: listedOnly.status, listed: listedOnly.json.items.map((item: { metadata: { name: string } }) => item.metadata.name) }).toEqual({ status: 200, listed: ['a'] });
    const c = await lease(ns, 'c');
    const conflict = await request('DELETE', `${leases(ns)}?resourceVersion=${c.metadata.resourceVersion}&resourceVersionMatch=NotOlderThan`, {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { resourceVersion: b.metadata.resourceVersion } },
    });
    expect({ status: conflict.status, reason: conflict.json.reason }).toEqual({ status: 409, reason: 'Conflict' });
    expect(conflict.json.message).toContain(`Lease.coordination.platform.io "c": the ResourceVersion in the precondition (${b.metadata.resourceVersion})`);
    expect((await request('GET', leases(ns))).json.items.map((item: { metadata: { name: string } }) => item.metadata.name)).toEqual(['c']);
  });

  it('answers a resourceVersion far ahead with etcd\'s 500 and deletes nothing', async () => {
    const ns = await namespace('dc-future-rv');
    await lease(ns, 'a');
    const res = await request('DELETE', `${leases(ns)}?resourceVersion=999999999`);
    expect({ status: res.status, json: res.json }).toEqual({
      status: 500,
      json: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'etcdserver: mvcc: required revision is a future revision', code: 500 },
    });
    expect((await request('GET', leases(ns))).json.items).toHaveLength(1);
  });

  it('lists in pages of 10,000 and deletes every page, answering the first page\'s metadata', async () => {
    const ns = await namespace('dc-pages');
    const total = 10_005;
    const created = Date.now();
    for (let i = 0; i < total; i++) {
      const name = `l-${String(i).padStart(5, '0')}`;
      const object = { apiVersion: 'coordination.platform.io/v1', kind: 'Lease', metadata: { name, namespace: ns, uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, creationTimestamp: new Date(created).toISOString().replace(/\.\d+Z$/, 'Z') }, spec: {} };
      await server.store.create(`/registry/coordination.platform.io/leases/${ns}/${name}`, Buffer.from(JSON.stringify(object)));
    }
    const res = await request('DELETE', leases(ns));
    expect(res.status).toBe(200);
    expect(res.json.items).toHaveLength(total);
    expect(new Set(res.json.items.map((item: { metadata: { name: string } }) => item.metadata.name)).size).toBe(total);
    expect(res.json.metadata.remainingItemCount).toBe(total - 10_000);
    expect(res.json.metadata.continue).toEqual(expect.any(String));
    expect((await request('GET', `${leases(ns)}?limit=1`)).json.items).toEqual([]);
  }, 60_000);
});
