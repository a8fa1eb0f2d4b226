import { KubeObject } from '@plinth/api';
import { Clock, realClock } from '@plinth/machinery';
import { builtinDefinitions, everything, InformerHandler, objectKey, ResourceDefinition, ResourceStore } from '@plinth/registry';
import { EmbeddedObjectStore } from '@plinth/storage';
import { eventually, FakeClock } from '@plinth/testing';
import { ItemsWriter, itemJson, withoutTypeMeta } from '../item-json';
import { buildPredicate } from '../selectors';
import { StoredItem } from '../stored-item';
import { CachedWatchItem, CacheWatcher } from './cache-watcher';
import { eventFreshMs } from './event-window';
import { cacheCatchUpMs, ReadBound } from './read-bound';
import { WatchCache, WatchCacheOptions } from './watch-cache';

const leaseDefinition = builtinDefinitions().find((def) => def.resource === 'leases') as ResourceDefinition;

function lease(name: string, labels: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'coordination.platform.io/v1', kind: 'Lease', metadata: { name, labels }, spec: { holderIdentity: 'test' } } as KubeObject;
}

function seen(revision: number): ReadBound {
  return { revision, waitMs: cacheCatchUpMs };
}

async function startCache(options: WatchCacheOptions = {}, storage = new EmbeddedObjectStore(), clock: Clock = realClock): Promise<{ store: ResourceStore; storage: EmbeddedObjectStore; cache: WatchCache }> {
  const store = new ResourceStore(leaseDefinition, storage, realClock, new Map());
  const cache = new WatchCache(store, clock, undefined, options);
  cache.start();
  expect(await cache.list(undefined, everything, 0, seen(0))).not.toBeNull();
  return { store, storage, cache };
}

async function take(watcher: CacheWatcher, count: number): Promise<CachedWatchItem[]> {
  const items: CachedWatchItem[] = [];
  if (count === 0) return items;
  for await (const item of watcher) {
    items.push(item);
    if (items.length === count) break;
  }
  return items;
}

function names(items: CachedWatchItem[]): [string, string | undefined][] {
  return items.map((item) => [item.type, item.type === 'BOOKMARK' ? undefined : item.object.metadata.name]);
}

const watchAll = { namespace: 'default', predicate: everything, bookmarks: false, deadline: Number.MAX_SAFE_INTEGER };

// quietStorage sends no progress notification while a test runs.
function quietStorage(): EmbeddedObjectStore {
  return new EmbeddedObjectStore({ progressNotifyIntervalMs: 3_600_000 });
}

describe('WatchCache', () => {
  let running: WatchCache | undefined;
  afterEach(() => running?.stop());

  it('starts a watcher from a revision inside its window, replaying the events after it', async () => {
    const { store, cache } = await startCache();
    running = cache;
    const first = await store.create('default', lease('a'));
    await store.create('default', lease('b'));
    await store.update('default', 'a', (current) => ({ ...current!, spec: { holderIdentity: 'other' } }));
    const watcher = await cache.watch(Number(first.metadata.resourceVersion), watchAll);
    expect(watcher).not.toBeNull();
    expect(names(await take(watcher!, 2))).toEqual([
      ['ADDED', 'b'],
      ['MODIFIED', 'a'],
    ]);
  });

  it('lists an object from the very bytes storage holds it as, whether it came by the list or by the watch', async () => {
    const storage = new EmbeddedObjectStore();
    const listedLease = await new ResourceStore(leaseDefinition, storage, realClock, new Map()).create('default', lease('listed'));
    const { store, cache } = await startCache({}, storage);
    running = cache;
    const watched = await store.create('default', lease('watched'));
    for (const object of [listedLease, watched]) {
      const { name, resourceVersion } = object.metadata;
      const cached = (await cache.get('default', name!, seen(Number(watched.metadata.resourceVersion))))!;
      const item = itemJson(cached, false) as StoredItem;
      expect(item.bytes).toBe((await storage.get(objectKey(leaseDefinition, 'default', name!))).value);
      const writer = new ItemsWriter();
      writer.add(cached, false);
      const out = Buffer.alloc(writer.length);
      writer.write(out, 0);
      expect(JSON.parse(out.toString())).toEqual({ ...withoutTypeMeta(object), metadata: { ...object.metadata, resourceVersion } });
    }
  });

  it('answers null for a revision older than its window, and serves one at its edge', async () => {
    const { store, cache } = await startCache({ windowSize: 2 });
    running = cache;
    const created = [];
    for (const name of ['a', 'b', 'c']) created.push(await store.create('default', lease(name)));
    await cache.list(undefined, everything, 0, seen(Number(created[2].metadata.resourceVersion)));
    expect(await cache.watch(Number(created[0].metadata.resourceVersion) - 1, watchAll)).toBeNull();
    const edge = await cache.watch(Number(created[0].metadata.resourceVersion), watchAll);
    expect(names(await take(edge!, 2))).toEqual([
      ['ADDED', 'b'],
      ['ADDED', 'c'],
    ]);
  });

  it('keeps every event of a burst beyond 2,048 for a watcher behind, and drops stale ones as events come', async () => {
    const clock = new FakeClock();
    const { store, cache } = await startCache({}, quietStorage(), clock);
    running = cache;
    // 3,200 events fill a window that doubled from 100.
    const burst = 3200;
    let last = 0;
    for (let index = 0; index < burst; index++) last = Number((await store.create('default', lease(`l${index}`))).metadata.resourceVersion);
    const first = last - burst + 1;
    await cache.list(undefined, everything, 0, seen(last));
    const behind = await cache.watch(first - 1, watchAll);
    expect(behind).not.toBeNull();
    const replayed = await take(behind!, burst);
    expect(replayed[0]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'l0' } } });
    expect(replayed[burst - 1]).toMatchObject({ type: 'ADDED', object: { metadata: { name: `l${burst - 1}` } } });
    behind!.close();
    // 75 s on, the next event finds the full window stale: it halves, and the burst's start is
    // older than the window (storage serves such a watch), its second half still inside.
    clock.advance(eventFreshMs + 1);
    const next = await store.create('default', lease('after'));
    await cache.list(undefined, everything, 0, seen(Number(next.metadata.resourceVersion)));
    expect(await cache.watch(first - 1, watchAll)).toBeNull();
    const inside = await cache.watch(first + burst / 2, watchAll);
    expect(inside).not.toBeNull();
    inside!.close();
  });

  it('lists and watches with no gap: a watcher started at a list sees every later change', async () => {
    const { store, cache } = await startCache();
    running = cache;
    await store.create('default', lease('before'));
    const written = await store.create('default', lease('listed'));
    const listed = await cache.listAndWatch(seen(Number(written.metadata.resourceVersion)), watchAll);
    expect(listed!.items.map((o) => o.metadata.name)).toEqual(['before', 'listed']);
    await store.delete('default', 'before');
    expect(names(await take(listed!.watcher, 1))).toEqual([['DELETED', 'before']]);
  });

  it('shows objects moving into and out of a selector as ADDED and DELETED', async () => {
    const { store, cache } = await startCache();
    running = cache;
    const predicate = buildPredicate(leaseDefinition, 'tier=web', '');
    const watcher = await cache.watch(cache.currentRevision, { namespace: 'default', predicate, bookmarks: false, deadline: Number.MAX_SAFE_INTEGER });
    await store.create('default', lease('moving', { tier: 'db' }));
    await store.update('default', 'moving', (current) => ({ ...current!, metadata: { ...current!.metadata, labels: { tier: 'web' } } }));
    await store.update('default', 'moving', (current) => ({ ...current!, metadata: { ...current!.metadata, labels: { tier: 'db' } } }));
    expect(names(await take(watcher!, 2))).toEqual([
      ['ADDED', 'moving'],
      ['DELETED', 'moving'],
    ]);
  });

  it('ends its watchers when it relists', async () => {
    const { cache } = await startCache();
    running = cache;
    const watcher = await cache.watch(cache.currentRevision, watchAll);
    // A relist is what the informer does after storage compacted past its watch.
    (cache as unknown as { handler(): { replace(objects: KubeObject[], revision: number): void } }).handler().replace([], cache.currentRevision);
    expect(await take(watcher!, 1)).toEqual([]);
    expect(cache.watcherCount).toBe(0);
  });

  it('hands an event to many watchers in batches, letting other work run between them', async () => {
    const { store, cache } = await startCache({ dispatchBatch: 100 });
    running = cache;
    const watchers: CacheWatcher[] = [];
    for (let i = 0; i < 1000; i++) watchers.push((await cache.watch(cache.currentRevision, watchAll))!);
    let received = 0;
    let receivedWhenOtherWorkRan = -1;
    const all = watchers.map(async (watcher, index) => {
      await take(watcher, 1);
      received++;
      if (index === 0) setImmediate(() => (receivedWhenOtherWorkRan = received));
    });
    await store.create('default', lease('fan-out'));
    await Promise.all(all);
    expect(received).toBe(1000);
    expect(receivedWhenOtherWorkRan).toBeGreaterThan(0);
    expect(receivedWhenOtherWorkRan).toBeLessThan(1000);
    expect(cache.watcherCount).toBe(0);
  });

  it('hands a watcher every event pending when a round began at once, so that its connection writes them together', async () => {
    const { cache } = await startCache({ dispatchBatch: 1 }, quietStorage());
    running = cache;
    const start = cache.currentRevision;
    const watchers = [(await cache.watch(start, watchAll))!, (await cache.watch(start, watchAll))!];
    // turn counts the event loop's turns: what a watcher gets in one turn, its connection writes at once.
    let turn = 0;
    let ticking = true;
    const tick = () => {
      turn++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const turnsOf = async (watcher: CacheWatcher) => {
      const turns: number[] = [];
      for await (const item of watcher) {
        if (item.type !== 'BOOKMARK') turns.push(turn);
        if (turns.length === 3) break;
      }
      return turns;
    };
    const received = Promise.all(watchers.map(turnsOf));
    // Three changes at once: the first round hands out the first; the two others wait for the
    // next round, which hands both to each watcher.
    const handler = (cache as unknown as { handler(): InformerHandler }).handler();
    ['a', 'b', 'c'].forEach((name, index) => {
      const revision = start + index + 1;
      handler.upsert({ ...lease(name), metadata: { name, namespace: 'default', resourceVersion: String(revision) } } as KubeObject, revision, { key: objectKey(leaseDefinition, 'default', name), value: new Uint8Array(), revision, createRevision: revision });
    });
    const [, second] = await received;
    ticking = false;
    expect(second[0]).toBeLessThan(second[1]);
    expect(second[1]).toBe(second[2]);
  });

  it("hands an event to one connection's watchers together, connections in the order they first watched", async () => {
    const { store, cache } = await startCache({ dispatchBatch: 2 });
    running = cache;
    const sessions = [{}, {}];
    const order: string[] = [];
    const consumed: Promise<void>[] = [];
    for (const [name, connection] of [['a1', sessions[0]], ['b1', sessions[1]], ['a2', sessions[0]], ['b2', sessions[1]], ['a3', sessions[0]]] as const) {
      const watcher = (await cache.watch(cache.currentRevision, { ...watchAll, connection }))!;
      consumed.push(watcher.consume((item) => item.type !== 'BOOKMARK' && order.push(name)));
    }
    await store.create('default', lease('grouped'));
    await eventually(async () => order.length, { until: (count) => count === 5, what: 'every watcher to get the event' });
    expect(order).toEqual(['a1', 'a2', 'a3', 'b1', 'b2']);
    cache.stop();
    await Promise.all(consumed);
    expect(cache.watcherCount).toBe(0);
  });

  it('sends each watcher asking for bookmarks one bookmark 2 s before its deadline, with the last revision processed, encoded once for all', async () => {
    const clock = new FakeClock();
    const { store, cache } = await startCache({}, quietStorage(), clock);
    running = cache;
    const before = cache.currentRevision;
    const written = Number((await store.create('default', lease('before-bookmark'))).metadata.resourceVersion);
    expect(await cache.list(undefined, everything, 0, seen(written))).not.toBeNull();
    const inFiveSeconds = { ...watchAll, bookmarks: true, deadline: clock.now() + 5000 };
    const first = (await cache.watch(before, inFiveSeconds))!;
    const second = (await cache.watch(before, inFiveSeconds))!;
    const without = (await cache.watch(before, { ...watchAll, deadline: clock.now() + 5000 }))!;
    // A bookmark at the revision a watcher started from tells it nothing: it gets none.
    const fromWritten = (await cache.watch(written, inFiveSeconds))!;
    clock.advance(5000);
    await store.create('default', lease('after-bookmark'));
    clock.advance(120_000);
    await store.create('default', lease('long-after'));
    const [a, b, c, d] = await Promise.all([take(first, 4), take(second, 4), take(without, 3), take(fromWritten, 2)]);
    expect(names(a)).toEqual([['ADDED', 'before-bookmark'], ['BOOKMARK', undefined], ['ADDED', 'after-bookmark'], ['ADDED', 'long-after']]);
    expect(names(c)).toEqual([['ADDED', 'before-bookmark'], ['ADDED', 'after-bookmark'], ['ADDED', 'long-after']]);
    expect(names(d)).toEqual([['ADDED', 'after-bookmark'], ['ADDED', 'long-after']]);
    if (a[1].type !== 'BOOKMARK' || b[1].type !== 'BOOKMARK') throw new Error('expected bookmarks');
    expect(b[1].shared).toBe(a[1].shared);
    expect(a[1].revision).toBe(written);
  });

  it("shares the newest events' encodings among watchers and forgets older ones, each watcher replaying those encoding its own", async () => {
    const { store, cache } = await startCache({ encodedEvents: 2 });
    running = cache;
    const before = cache.currentRevision;
    for (const name of ['a', 'b', 'c', 'd']) await store.create('default', lease(name));
    const [first, second] = await Promise.all([cache.watch(before, watchAll), cache.watch(before, watchAll)]);
    const [x, y] = await Promise.all([take(first!, 4), take(second!, 4)]);
    expect(names(x)).toEqual([['ADDED', 'a'], ['ADDED', 'b'], ['ADDED', 'c'], ['ADDED', 'd']]);
    expect(names(y)).toEqual(names(x));
    expect(x.map((item, i) => item.shared === y[i].shared)).toEqual([false, false, true, true]);
  });

  it('forgets an encoding only once every watcher has been handed the event, however far the newest events ran ahead', async () => {
    const { store, cache } = await startCache({ encodedEvents: 1, dispatchBatch: 1 });
    running = cache;
    const from = cache.currentRevision;
    const [first, second] = await Promise.all([cache.watch(from, watchAll), cache.watch(from, watchAll)]);
    // The three events arrive while the first dispatch round still holds the first of them for
    // the second watcher (it yields after each watcher).
    await Promise.all(['a', 'b', 'c'].map((name) => store.create('default', lease(name))));
    const [x, y] = await Promise.all([take(first!, 3), take(second!, 3)]);
    expect(names(y)).toEqual(names(x));
    expect(x.map((item, i) => item.shared === y[i].shared)).toEqual([true, true, true]);
  });

  it('sends a long watch a bookmark every minute, carrying the events since', async () => {
    const clock = new FakeClock();
    const { store, cache } = await startCache({}, quietStorage(), clock);
    running = cache;
    const written = Number((await store.create('default', lease('first'))).metadata.resourceVersion);
    expect(await cache.list(undefined, everything, 0, seen(written))).not.toBeNull();
    const watcher = (await cache.watch(written, { ...watchAll, bookmarks: true, deadline: clock.now() + 600_000 }))!;
    clock.advance(59_000);
    const second = Number((await store.create('default', lease('second'))).metadata.resourceVersion);
    expect(await cache.list(undefined, everything, 0, seen(second))).not.toBeNull();
    clock.advance(2_500);
    const third = Number((await store.create('default', lease('third'))).metadata.resourceVersion);
    expect(await cache.list(undefined, everything, 0, seen(third))).not.toBeNull();
    clock.advance(62_500);
    const items = await take(watcher, 4);
    expect(names(items)).toEqual([['ADDED', 'second'], ['BOOKMARK', undefined], ['ADDED', 'third'], ['BOOKMARK', undefined]]);
    if (items[1].type !== 'BOOKMARK' || items[3].type !== 'BOOKMARK') throw new Error('expected bookmarks');
    expect(items[1].revision).toBe(second);
    expect(items[3].revision).toBe(third);
  });

  it('cuts a first page from its sorted keys and counts the rest without a selector', async () => {
    const { store, storage, cache } = await startCache();
    running = cache;
    for (const name of ['e', 'c', 'a', 'd', 'b']) await store.create('default', lease(name));
    const other = await store.create('other', lease('z'));
    const page = await cache.list('default', everything, 2, seen(Number(other.metadata.resourceVersion)));
    expect(page!.items.map((o) => o.metadata.name)).toEqual(['a', 'b']);
    expect(page!.remainingItemCount).toBe(3);
    expect(page!.continue).toBeDefined();
    const whole = await cache.list(undefined, everything, 6, seen(0));
    expect(whole!.items.map((o) => o.metadata.name)).toEqual(['a', 'b', 'c', 'd', 'e', 'z']);
    expect(whole!.continue).toBeUndefined();
    await store.delete('default', 'c');
    const afterDelete = await cache.list('default', everything, 2, seen(await storage.currentRevision()));
    expect(afterDelete!.items.map((o) => o.metadata.name)).toEqual(['a', 'b']);
    expect(afterDelete!.remainingItemCount).toBe(2);
  });

  it("serves a continue token's page as storage does while the resource is unchanged since its revision, and leaves it to storage after a change", async () => {
    const { store, cache } = await startCache();
    running = cache;
    for (const name of ['a', 'b', 'c', 'd', 'e']) await store.create('default', lease(name, { tier: name === 'c' ? 'cold' : 'hot' }));
    const last = await store.create('other', lease('z'));
    const first = (await cache.list('default', everything, 2, seen(Number(last.metadata.resourceVersion))))!;
    const fromCache = cache.continuePage('default', everything, 2, first.continue!);
    const fromStorage = await store.list('default', { limit: 2, continue: first.continue });
    expect(fromCache!.items.map((o) => o.metadata.name)).toEqual(['c', 'd']);
    expect(fromCache).toEqual(fromStorage);
    const hot = buildPredicate(leaseDefinition, 'tier=hot', '');
    expect(cache.continuePage('default', hot, 2, first.continue!)!.items.map((o) => o.metadata.name)).toEqual(['d', 'e']);
    expect(cache.continuePage('default', everything, 2, 'not-a-token')).toBeNull();
    await store.create('default', lease('f'));
    await cache.list('default', everything, 1, seen(await store.currentRevision()));
    expect(cache.continuePage('default', everything, 2, first.continue!)).toBeNull();
  });

  it("serves a continue token's page while only keys outside it changed: another namespace, or before the page", async () => {
    const { store, cache } = await startCache();
    running = cache;
    for (const name of ['a', 'b', 'c', 'd', 'e']) await store.create('default', lease(name));
    const last = await store.create('other', lease('z'));
    const first = (await cache.list('default', everything, 2, seen(Number(last.metadata.resourceVersion))))!;
    await store.update('other', 'z', (current) => ({ ...current!, spec: { holderIdentity: 'renewed' } }));
    await store.delete('default', 'a');
    await cache.list('default', everything, 1, seen(await store.currentRevision()));
    const fromCache = cache.continuePage('default', everything, 2, first.continue!);
    expect(fromCache).toEqual(await store.list('default', { limit: 2, continue: first.continue }));
    expect(fromCache!.items.map((o) => o.metadata.name)).toEqual(['c', 'd']);
    expect(fromCache!.remainingItemCount).toBe(1);
    // A change after the token's position is the page's: storage serves it.
    await store.delete('default', 'e');
    await cache.list('default', everything, 1, seen(await store.currentRevision()));
    expect(cache.continuePage('default', everything, 2, first.continue!)).toBeNull();
  });

  it("leaves a continue token's page to storage once the window no longer holds every event after its revision", async () => {
    const { store, cache } = await startCache({ windowSize: 2 });
    running = cache;
    for (const name of ['a', 'b', 'c']) await store.create('default', lease(name));
    const first = (await cache.list('default', everything, 1, seen(await store.currentRevision())))!;
    for (const name of ['x', 'y', 'z']) await store.create('other', lease(name));
    await cache.list('default', everything, 1, seen(await store.currentRevision()));
    expect(cache.continuePage('default', everything, 1, first.continue!)).toBeNull();
  });
  it("waits for a bound's revision only as long as the bound says, and serves the page once an event brings it there", async () => {
    const clock = new FakeClock();
    const storage = quietStorage();
    const { store, cache } = await startCache({}, storage, clock);
    running = cache;
    // A write to another resource moves storage's revision past every lease event.
    await storage.create('/registry/other/elsewhere', new TextEncoder().encode('{}'));
    const current = await storage.currentRevision();
    expect(await cache.list(undefined, everything, 0, { revision: current, waitMs: 0 })).toBeNull();
    const short = cache.list(undefined, everything, 0, { revision: current, waitMs: 100 });
    clock.advance(100);
    expect(await short).toBeNull();
    const long = cache.list(undefined, everything, 0, { revision: current, waitMs: 3000 });
    await store.create('default', lease('brings-it-there'));
    expect((await long)?.items.map((item) => item.metadata.name)).toEqual(['brings-it-there']);
  });
});
