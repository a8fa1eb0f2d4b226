// Lists (selectors, paging, resourceVersion) and watches (initial events, selector
// transitions, bookmarks, 410 after compaction, sendInitialEvents).
import { startTestApiServer } from '@plinth/testing-server';
import { client, openWatch, suiteServer } from './http';

const ns = (name: string, labels: Record<string, string> = {}) => ({ metadata: { name, labels } });

describe('API server: list', () => {
  const server = suiteServer();
  const { request } = server;

  beforeAll(async () => {
    for (let i = 0; i < 5; i++) await request('POST', '/api/v1/namespaces', { body: ns(`page-${i}`, { tier: i % 2 === 0 ? 'even' : 'odd' }) });
  });

  it('pages with limit and continue over a consistent snapshot, counting what remains', async () => {
    const first = await request('GET', '/api/v1/namespaces?limit=3');
    expect(first.json.items).toHaveLength(3);
    expect(first.json.metadata.continue).toBeTruthy();
    const total = (await request('GET', '/api/v1/namespaces')).json.items.length;
    expect(first.json.metadata.remainingItemCount).toBe(total - 3);
    await request('POST', '/api/v1/namespaces', { body: ns('zzz-after-first-page') });
    const rest = await request('GET', `/api/v1/namespaces?limit=100&continue=${encodeURIComponent(first.json.metadata.continue)}`);
    expect(rest.json.metadata.resourceVersion).toBe(first.json.metadata.resourceVersion);
    expect(rest.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).not.toContain('zzz-after-first-page');
    expect(rest.json.metadata.continue).toBeUndefined();
    expect(first.json.items.length + rest.json.items.length).toBe(total);
  });

  it('writes the same list from the JSON kept for cached items as a pretty list written whole, and again after a change', async () => {
    for (let round = 0; round < 2; round++) {
      const assembled = await request('GET', '/api/v1/namespaces');
      const whole = await request('GET', '/api/v1/namespaces?pretty=true');
      expect(assembled.json.items.length).toBeGreaterThan(0);
      // The lists' resourceVersions may differ: the cache moves on with storage's progress.
      expect({ ...assembled.json, metadata: {} }).toEqual({ ...whole.json, metadata: {} });
      expect(assembled.json.items[0].apiVersion).toBeUndefined();
      const page0 = (await request('GET', '/api/v1/namespaces/page-0')).json;
      await request('PUT', '/api/v1/namespaces/page-0', { body: { ...page0, metadata: { ...page0.metadata, annotations: { round: String(round) } } } });
      const after = (await request('GET', '/api/v1/namespaces')).json.items.find((i: { metadata: { name: string } }) => i.metadata.name === 'page-0');
      expect(after.metadata.annotations).toEqual({ round: String(round) });
    }
  });

  it('filters with label and field selectors and omits remainingItemCount then', async () => {
    const even = await request('GET', '/api/v1/namespaces?labelSelector=tier%3Deven');
    expect(even.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['page-0', 'page-2', 'page-4']);
    const paged = await request('GET', '/api/v1/namespaces?labelSelector=tier%3Deven&limit=2');
    expect(paged.json.items).toHaveLength(2);
    expect(paged.json.metadata.remainingItemCount).toBeUndefined();
    const byName = await request('GET', '/api/v1/namespaces?fieldSelector=metadata.name%3Dpage-1');
    expect(byName.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['page-1']);
  });

  it('answers bad selectors with 400', async () => {
    const badField = await request('GET', '/api/v1/namespaces?fieldSelector=spec.bogus%3Dx');
    expect(badField.status).toBe(400);
    expect(badField.json.message).toBe('field label not supported: spec.bogus');
    const badLabel = await request('GET', '/api/v1/namespaces?labelSelector=a%20in%20(b');
    expect(badLabel.status).toBe(400);
  });

  it('refuses a watch of one named object whose field selector names another, as the list handler does', async () => {
    const other = await request('GET', '/api/v1/watch/namespaces/default/serviceaccounts/default?fieldSelector=metadata.name%3Dother');
    expect([other.status, other.json.message]).toEqual([400, "fieldSelector metadata.name doesn't match requested name"]);
    const unnamed = await request('GET', '/api/v1/watch/namespaces/default/serviceaccounts/default?fieldSelector=metadata.namespace%3Ddefault');
    expect([unnamed.status, unnamed.json.message]).toEqual([400, "fieldSelector metadata.name doesn't match requested name"]);
  });

  it('answers an expired continue token with 410 Expired', async () => {
    const first = await request('GET', '/api/v1/namespaces?limit=1');
    await request('POST', '/api/v1/namespaces', { body: ns('compact-trigger') });
    await server.store.compact(await server.store.currentRevision());
    const res = await request('GET', `/api/v1/namespaces?limit=1&continue=${encodeURIComponent(first.json.metadata.continue)}`);
    expect(res.status).toBe(410);
    expect(res.json.reason).toBe('Expired');
    expect(res.json.message).toMatch(/^The provided continue parameter is too old/);
  });

  it('answers a continue token past its compaction with 410 Expired even when the resource has not changed since', async () => {
    const leases = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
    for (const name of ['quiet-a', 'quiet-b']) expect((await request('POST', leases, { body: { metadata: { name } } })).status).toBe(201);
    const first = await request('GET', `${leases}?limit=1`);
    expect(first.json.metadata.continue).toBeDefined();
    await request('POST', '/api/v1/namespaces', { body: ns('compact-trigger-quiet') });
    await server.store.compact(await server.store.currentRevision());
    const res = await request('GET', `${leases}?limit=1&continue=${encodeURIComponent(first.json.metadata.continue)}`);
    expect(res.status).toBe(410);
    expect(res.json.reason).toBe('Expired');
  });

  it('validates list options as Kubernetes does', async () => {
    const res = await request('GET', '/api/v1/namespaces?resourceVersionMatch=Exact');
    expect(res.status).toBe(422);
    expect(res.json.message).toBe('ListOptions.meta.platform.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided');
  });

  it('serves Tables and falls back through the Accept list; 406 when nothing fits', async () => {
    const table = await request('GET', '/api/v1/namespaces', { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' } });
    expect(table.json.kind).toBe('Table');
    expect(table.json.apiVersion).toBe('meta.k8s.io/v1');
    expect(table.json.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Status', 'Age']);
    expect(table.json.rows[0].object.kind).toBe('PartialObjectMetadata');
    const fallback = await request('GET', '/api/v1/namespaces', { headers: { accept: 'application/json;as=Foo;v=v1;g=meta.k8s.io, application/json' } });
    expect(fallback.json.kind).toBe('NamespaceList');
    const none = await request('GET', '/api/v1/namespaces', { headers: { accept: 'text/html' } });
    expect(none.status).toBe(406);
    expect(none.json.reason).toBe('NotAcceptable');
    // go-restful refuses it before the handler, naming what the GET route produces.
    expect(none.json.message).toBe('406: Not Acceptable\n\nAvailable representations: application/json, application/yaml, application/vnd.kubernetes.protobuf, application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch');
  });

  it('serves a v1beta1 Table whose rows name v1beta1 too, and rows holding no object for includeObject=None', async () => {
    const beta = await request('GET', '/api/v1/namespaces', { headers: { accept: 'application/json;as=Table;v=v1beta1;g=meta.k8s.io' } });
    expect(beta.status).toBe(200);
    expect(beta.json.apiVersion).toBe('meta.k8s.io/v1beta1');
    expect(beta.json.rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1beta1' });
    const none = await request('GET', '/api/v1/namespaces?includeObject=None', { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    expect(none.json.rows.length).toBeGreaterThan(0);
    for (const row of none.json.rows) expect(row).toHaveProperty('object', null);
  });

  it('compresses large responses when the client accepts gzip', async () => {
    for (let i = 0; i < 400; i++) {
      await request('POST', '/api/v1/namespaces', { body: { metadata: { name: `bulk-${i}`, annotations: { pad: 'x'.repeat(300) } } } });
    }
    const res = await fetch(`${server.url}/api/v1/namespaces`, { headers: { 'accept-encoding': 'gzip', authorization: 'Bearer admin-token' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const body = (await res.json()) as { items: unknown[] };
    expect(body.items.length).toBeGreaterThan(400);
  });
});

describe('API server: watch', () => {
  const server = suiteServer({ featureGates: 'WatchList=true', watchCacheSize: 2 });
  const { request } = server;

  it('streams ADDED, MODIFIED and DELETED after a resourceVersion', async () => {
    const list = await request('GET', '/api/v1/namespaces');
    const watch = await openWatch(server.url, `/api/v1/namespaces?watch=1&resourceVersion=${list.json.metadata.resourceVersion}`);
    try {
      expect(watch.status).toBe(200);
      expect(watch.headers.get('content-type')).toBe('application/json');
      const created = (await request('POST', '/api/v1/namespaces', { body: ns('w-1') })).json;
      await request('PUT', '/api/v1/namespaces/w-1', { body: { ...created, metadata: { ...created.metadata, labels: { a: 'b' } } } });
      await request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'w-2' } } });
      const events = await watch.waitFor(3);
      expect(events.map((e) => [e.type, e.object.metadata.name])).toEqual([
        ['ADDED', 'w-1'],
        ['MODIFIED', 'w-1'],
        ['ADDED', 'w-2'],
      ]);
      expect(events[0].object.kind).toBe('Namespace');
      expect(events[0].object.apiVersion).toBe('v1');
    } finally {
      watch.close();
    }
  });

  it('sends the current objects first when watching without a resourceVersion', async () => {
    await request('POST', '/api/v1/namespaces', { body: ns('init-1', { watch: 'init' }) });
    const watch = await openWatch(server.url, '/api/v1/namespaces?watch=true&labelSelector=watch%3Dinit');
    try {
      const events = await watch.waitFor(1);
      expect(events[0]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'init-1' } } });
    } finally {
      watch.close();
    }
  });

  it('reports objects leaving and entering a label selector as DELETED and ADDED', async () => {
    const rv = (await request('GET', '/api/v1/namespaces')).json.metadata.resourceVersion;
    const watch = await openWatch(server.url, `/api/v1/namespaces?watch=1&resourceVersion=${rv}&labelSelector=sel%3Din`);
    try {
      const created = (await request('POST', '/api/v1/namespaces', { body: ns('sel-1', { sel: 'out' }) })).json;
      const inside = (await request('PUT', '/api/v1/namespaces/sel-1', { body: { ...created, metadata: { ...created.metadata, labels: { sel: 'in' } } } })).json;
      await request('PUT', '/api/v1/namespaces/sel-1', { body: { ...inside, metadata: { ...inside.metadata, labels: { sel: 'out' } } } });
      const events = await watch.waitFor(2);
      expect(events.map((e) => e.type)).toEqual(['ADDED', 'DELETED']);
    } finally {
      watch.close();
    }
  });

  it('answers a resourceVersion older than the watch cache window and compacted with an ERROR event carrying 410 Expired', async () => {
    const rv = Number((await request('GET', '/api/v1/namespaces')).json.metadata.resourceVersion);
    for (let i = 1; i <= 3; i++) await request('POST', '/api/v1/namespaces', { body: ns(`old-${i}`) });
    await server.store.compact(await server.store.currentRevision());
    const watch = await openWatch(server.url, `/api/v1/namespaces?watch=1&resourceVersion=${rv}`);
    const events = await watch.waitFor(1);
    await watch.ended;
    expect(events[0].type).toBe('ERROR');
    expect(events[0].object).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 });
    expect(events[0].object.message).toMatch(/^too old resource version: /);
  });

  it('serves a compacted resourceVersion still inside the watch cache window', async () => {
    const rv = Number((await request('GET', '/api/v1/namespaces')).json.metadata.resourceVersion);
    await request('POST', '/api/v1/namespaces', { body: ns('kept-1') });
    await server.store.compact(await server.store.currentRevision());
    const watch = await openWatch(server.url, `/api/v1/namespaces?watch=1&resourceVersion=${rv}`);
    try {
      const events = await watch.waitFor(1);
      expect(events.map((e) => [e.type, e.object.metadata.name])).toEqual([['ADDED', 'kept-1']]);
    } finally {
      watch.close();
    }
  });

  it('ends the stream after timeoutSeconds', async () => {
    const rv = (await request('GET', '/api/v1/namespaces')).json.metadata.resourceVersion;
    const watch = await openWatch(server.url, `/api/v1/namespaces?watch=1&resourceVersion=${rv}&timeoutSeconds=1`);
    await watch.ended;
    expect(watch.events).toEqual([]);
  });

  it('streams initial events and the initial-events-end bookmark with sendInitialEvents', async () => {
    const watch = await openWatch(server.url, '/api/v1/namespaces?watch=1&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&fieldSelector=metadata.name%3Ddefault');
    try {
      const events = await watch.waitFor(2);
      expect(events[0]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'default' } } });
      expect(events[1].type).toBe('BOOKMARK');
      expect(events[1].object.metadata.annotations).toEqual({ 'platform.io/initial-events-end': 'true' });
    } finally {
      watch.close();
    }
  });

  it('sends a watch allowing bookmarks one bookmark before its timeout, at the collection\'s latest revision', async () => {
    const rv = (await request('GET', '/api/v1/namespaces')).json.metadata.resourceVersion;
    const watch = await openWatch(server.url, `/api/v1/namespaces?watch=1&resourceVersion=${rv}&timeoutSeconds=5&allowWatchBookmarks=true`);
    const created = (await request('POST', '/api/v1/namespaces', { body: ns('bm-1') })).json;
    await watch.ended;
    expect(watch.events.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']);
    expect(watch.events[0].object.metadata.name).toBe('bm-1');
    // The bookmark carries the last revision the cache processed, storage's progress included:
    // the namespace's own, or that of a write that followed it.
    const latest = (await request('GET', '/api/v1/namespaces')).json.metadata.resourceVersion;
    // Its object is a Namespace's zero value as Go writes it, with that revision.
    expect(watch.events[1].object).toEqual({ kind: 'Namespace', apiVersion: 'v1', metadata: { resourceVersion: latest, creationTimestamp: null }, spec: {}, status: {} });
    expect(Number(latest)).toBeGreaterThanOrEqual(Number(created.metadata.resourceVersion));
  });
});

describe('API server: WatchList gate off', () => {
  it('answers sendInitialEvents with 422 Invalid', async () => {
    const server = await startTestApiServer();
    try {
      const res = await client(server.url)('GET', '/api/v1/namespaces?watch=1&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan');
      expect(res.status).toBe(422);
      expect(res.json.message).toBe(
        'ListOptions.meta.platform.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
      );
    } finally {
      await server.stop();
    }
  });
});
