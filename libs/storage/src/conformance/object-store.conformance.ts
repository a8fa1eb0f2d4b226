// runObjectStoreConformance is the one behavioural contract of ObjectStore, run against every
// backend (embedded, etcd) and through the gRPC adapter, in the manner of
// k8s.io/apiserver/pkg/storage/testing/store_tests.go. Each test works under its own prefix,
// so backends may share one server across tests.
import { randomUUID } from 'node:crypto';
import { maxRequestBytes, StorageError, StorageErrorCode } from '../errors';
import { KeyValue, ObjectStore, Watch, WatchEvent } from '../object-store';

export interface ObjectStoreFactory {
  // create returns a store over a server that stays up for the whole suite.
  create(): Promise<ObjectStore>;
  // teardown stops what create started.
  teardown?(): Promise<void>;
}

export interface ConformanceOptions {
  // progressNotify is whether watches can be asked for BOOKMARK events within a few seconds.
  progressNotify: boolean;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function json(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

function parse(kv: KeyValue | undefined): unknown {
  if (!kv) throw new Error('no key-value');
  return JSON.parse(decoder.decode(kv.value));
}

async function expectStorageError(promise: Promise<unknown>, code: StorageErrorCode): Promise<StorageError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(StorageError);
    expect((err as StorageError).code).toBe(code);
    return err as StorageError;
  }
  throw new Error(`expected StorageError ${code}, but the operation succeeded`);
}

// collect reads events from a watch until `count` arrived (bookmarks excluded unless asked),
// failing the test after timeoutMs instead of hanging.
async function collect(watch: Watch, count: number, timeoutMs = 15000, keepBookmarks = false): Promise<WatchEvent[]> {
  const events: WatchEvent[] = [];
  const iterator = watch[Symbol.asyncIterator]();
  const deadline = Date.now() + timeoutMs;
  while (events.length < count) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new Error(`watch delivered ${events.length} of ${count} events`);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`watch delivered ${events.length} of ${count} events`)), remaining);
    });
    try {
      const next = await Promise.race([iterator.next(), timeout]);
      if (next.done) break;
      if (next.value.type === 'BOOKMARK' && !keepBookmarks) continue;
      events.push(next.value);
    } finally {
      clearTimeout(timer);
    }
  }
  return events;
}

async function nextError(watch: Watch, timeoutMs = 10000): Promise<unknown> {
  const iterator = watch[Symbol.asyncIterator]();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('watch did not fail')), timeoutMs);
  });
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), timeout]);
      if (next.done) throw new Error('watch ended without an error');
    }
  } catch (err) {
    return err;
  } finally {
    clearTimeout(timer);
  }
}

export function runObjectStoreConformance(name: string, factory: ObjectStoreFactory, options: ConformanceOptions): void {
  describe(`ObjectStore conformance: ${name}`, () => {
    let store: ObjectStore;
    let prefix: string;

    beforeAll(async () => {
      store = await factory.create();
    });

    afterAll(async () => {
      await store?.close();
      await factory.teardown?.();
    });

    beforeEach(() => {
      prefix = `/registry/conformance/${randomUUID()}/`;
    });

    describe('get and create', () => {
      it('creates a key and reads it back with its revisions', async () => {
        const before = await store.currentRevision();
        const created = await store.create(`${prefix}a`, json({ n: 1 }));
        expect(created.key).toBe(`${prefix}a`);
        expect(parse(created)).toEqual({ n: 1 });
        expect(created.revision).toBeGreaterThan(before);
        expect(created.createRevision).toBe(created.revision);
        const got = await store.get(`${prefix}a`);
        expect(parse(got)).toEqual({ n: 1 });
        expect(got.revision).toBe(created.revision);
        expect(await store.currentRevision()).toBeGreaterThanOrEqual(created.revision);
      });

      it('refuses to create an existing key', async () => {
        await store.create(`${prefix}a`, json({ n: 1 }));
        await expectStorageError(store.create(`${prefix}a`, json({ n: 2 })), StorageErrorCode.KeyExists);
        expect(parse(await store.get(`${prefix}a`))).toEqual({ n: 1 });
      });

      it('refuses writes larger than etcd takes with RequestTooLarge, and stores nothing', async () => {
        // Just past etcd's request limit, and past its gRPC message limit (limit plus 512 KiB).
        for (const size of [maxRequestBytes + 1024, maxRequestBytes + 1024 * 1024]) {
          const big = json({ data: 'x'.repeat(size) });
          const err = await expectStorageError(store.create(`${prefix}big`, big), StorageErrorCode.RequestTooLarge);
          expect(err.message).toBe('etcdserver: request is too large');
          await expectStorageError(store.get(`${prefix}big`), StorageErrorCode.KeyNotFound);
          const small = await store.create(`${prefix}small-${size}`, json({ n: 1 }));
          await expectStorageError(store.update(`${prefix}small-${size}`, big, small.revision), StorageErrorCode.RequestTooLarge);
          expect(parse(await store.get(`${prefix}small-${size}`))).toEqual({ n: 1 });
        }
      });

      it('reports a missing key as KeyNotFound', async () => {
        await expectStorageError(store.get(`${prefix}missing`), StorageErrorCode.KeyNotFound);
      });

      it('reads a key as it was at an older revision', async () => {
        const first = await store.create(`${prefix}a`, json({ n: 1 }));
        await store.update(`${prefix}a`, json({ n: 2 }), first.revision);
        expect(parse(await store.get(`${prefix}a`, { revision: first.revision }))).toEqual({ n: 1 });
        expect(parse(await store.get(`${prefix}a`))).toEqual({ n: 2 });
      });

      it('creates a key again after its deletion, with a new createRevision', async () => {
        const first = await store.create(`${prefix}a`, json({ n: 1 }));
        await store.delete(`${prefix}a`);
        const second = await store.create(`${prefix}a`, json({ n: 2 }));
        expect(second.createRevision).toBeGreaterThan(first.createRevision);
      });
    });

    describe('update (compare-and-swap)', () => {
      it('updates at the current revision and moves the revision forward', async () => {
        const created = await store.create(`${prefix}a`, json({ n: 1 }));
        const updated = await store.update(`${prefix}a`, json({ n: 2 }), created.revision);
        expect(parse(updated)).toEqual({ n: 2 });
        expect(updated.revision).toBeGreaterThan(created.revision);
        expect(updated.createRevision).toBe(created.revision);
        expect(parse(await store.get(`${prefix}a`))).toEqual({ n: 2 });
      });

      it('refuses a stale revision with Conflict and leaves the value alone', async () => {
        const created = await store.create(`${prefix}a`, json({ n: 1 }));
        await store.update(`${prefix}a`, json({ n: 2 }), created.revision);
        const err = await expectStorageError(store.update(`${prefix}a`, json({ n: 3 }), created.revision), StorageErrorCode.Conflict);
        expect(err.key).toBe(`${prefix}a`);
        expect(parse(await store.get(`${prefix}a`))).toEqual({ n: 2 });
      });

      it('refuses to update a missing key with KeyNotFound', async () => {
        await expectStorageError(store.update(`${prefix}missing`, json({}), 1), StorageErrorCode.KeyNotFound);
      });

      it('lets exactly one of 50 concurrent updates at one revision win', async () => {
        const created = await store.create(`${prefix}race`, json({ winner: -1 }));
        const attempts = Array.from({ length: 50 }, (_, i) =>
          store.update(`${prefix}race`, json({ winner: i }), created.revision).then(
            (kv) => ({ ok: true as const, i, kv }),
            (err: unknown) => ({ ok: false as const, i, err }),
          ),
        );
        const results = await Promise.all(attempts);
        const winners = results.filter((r) => r.ok);
        expect(winners).toHaveLength(1);
        for (const loser of results.filter((r) => !r.ok)) {
          expect(loser.ok === false && loser.err instanceof StorageError && loser.err.code).toBe(StorageErrorCode.Conflict);
        }
        const winner = winners[0];
        expect(parse(await store.get(`${prefix}race`))).toEqual({ winner: winner.i });
      });
    });

    describe('delete', () => {
      it('returns the last state and the deletion revision', async () => {
        const created = await store.create(`${prefix}a`, json({ n: 1 }));
        const result = await store.delete(`${prefix}a`);
        expect(parse(result.deleted)).toEqual({ n: 1 });
        expect(result.deleted.revision).toBe(created.revision);
        expect(result.revision).toBeGreaterThan(created.revision);
        await expectStorageError(store.get(`${prefix}a`), StorageErrorCode.KeyNotFound);
      });

      it('refuses to delete a missing key with KeyNotFound', async () => {
        await expectStorageError(store.delete(`${prefix}missing`), StorageErrorCode.KeyNotFound);
      });

      it('checks the revision precondition', async () => {
        const created = await store.create(`${prefix}a`, json({ n: 1 }));
        await store.update(`${prefix}a`, json({ n: 2 }), created.revision);
        await expectStorageError(store.delete(`${prefix}a`, { revision: created.revision }), StorageErrorCode.Conflict);
        expect(parse(await store.get(`${prefix}a`))).toEqual({ n: 2 });
      });

      it('checks the uid precondition against metadata.uid', async () => {
        await store.create(`${prefix}a`, json({ metadata: { uid: 'u-1' } }));
        await expectStorageError(store.delete(`${prefix}a`, { uid: 'u-2' }), StorageErrorCode.Conflict);
        const result = await store.delete(`${prefix}a`, { uid: 'u-1' });
        expect(parse(result.deleted)).toEqual({ metadata: { uid: 'u-1' } });
      });
    });

    describe('list', () => {
      async function seed(count: number): Promise<void> {
        for (let i = 0; i < count; i++) {
          await store.create(`${prefix}item-${String(i).padStart(3, '0')}`, json({ i }));
        }
      }

      it('lists only the keys under the prefix, in key order', async () => {
        await store.create(`${prefix}b`, json('b'));
        await store.create(`${prefix}a`, json('a'));
        await store.create(`${prefix.slice(0, -1)}x`, json('outside'));
        await store.create(`${prefix}c/d`, json('nested'));
        const result = await store.list({ prefix });
        expect(result.items.map((kv) => kv.key)).toEqual([`${prefix}a`, `${prefix}b`, `${prefix}c/d`]);
        expect(result.revision).toBeGreaterThanOrEqual(Math.max(...result.items.map((kv) => kv.revision)));
        expect(result.continue).toBeUndefined();
        expect(result.remainingItemCount).toBeUndefined();
      });

      it('returns an empty list with the current revision for an empty prefix', async () => {
        const current = await store.currentRevision();
        const result = await store.list({ prefix });
        expect(result.items).toEqual([]);
        expect(result.revision).toBeGreaterThanOrEqual(current);
      });

      it('pages with limit and continue, counting the remaining items', async () => {
        await seed(7);
        const first = await store.list({ prefix, limit: 3 });
        expect(first.items.map((kv) => parse(kv))).toEqual([{ i: 0 }, { i: 1 }, { i: 2 }]);
        expect(first.remainingItemCount).toBe(4);
        expect(typeof first.continue).toBe('string');
        const second = await store.list({ prefix, limit: 3, continue: first.continue });
        expect(second.items.map((kv) => parse(kv))).toEqual([{ i: 3 }, { i: 4 }, { i: 5 }]);
        expect(second.remainingItemCount).toBe(1);
        expect(second.revision).toBe(first.revision);
        const third = await store.list({ prefix, limit: 3, continue: second.continue });
        expect(third.items.map((kv) => parse(kv))).toEqual([{ i: 6 }]);
        expect(third.continue).toBeUndefined();
        expect(third.remainingItemCount).toBeUndefined();
        expect(third.revision).toBe(first.revision);
      });

      it('ends without a continue token when the last page is exactly full', async () => {
        await seed(4);
        const first = await store.list({ prefix, limit: 2 });
        const second = await store.list({ prefix, limit: 2, continue: first.continue });
        expect(second.items).toHaveLength(2);
        expect(second.continue).toBeUndefined();
      });

      it('encodes the continue token as Kubernetes does, relative to the prefix', async () => {
        await seed(3);
        const first = await store.list({ prefix, limit: 1 });
        const token = JSON.parse(Buffer.from(first.continue ?? '', 'base64url').toString('utf8'));
        expect(token).toEqual({ v: 'meta.platform.io/v1', rv: first.revision, start: 'item-000\u0000' });
      });

      it('keeps its snapshot across pages: writes between pages do not show', async () => {
        await seed(6);
        const first = await store.list({ prefix, limit: 3 });
        const page2Key = `${prefix}item-004`;
        const current = await store.get(page2Key);
        await store.update(page2Key, json({ i: 'changed' }), current.revision);
        await store.delete(`${prefix}item-005`);
        await store.create(`${prefix}item-003a`, json({ i: 'new' }));
        const second = await store.list({ prefix, limit: 3, continue: first.continue });
        expect(second.items.map((kv) => parse(kv))).toEqual([{ i: 3 }, { i: 4 }, { i: 5 }]);
        expect(second.revision).toBe(first.revision);
        const fresh = await store.list({ prefix });
        expect(fresh.items.map((kv) => parse(kv))).toEqual([{ i: 0 }, { i: 1 }, { i: 2 }, { i: 3 }, { i: 'new' }, { i: 'changed' }]);
        expect(fresh.revision).toBeGreaterThan(first.revision);
      });

      it('lists at an exact older revision', async () => {
        await seed(2);
        const at = await store.currentRevision();
        await store.create(`${prefix}item-100`, json({ i: 100 }));
        await store.delete(`${prefix}item-000`);
        const old = await store.list({ prefix, revision: at });
        expect(old.revision).toBe(at);
        expect(old.items.map((kv) => parse(kv))).toEqual([{ i: 0 }, { i: 1 }]);
      });

      it('rejects a malformed continue token with InvalidArgument', async () => {
        await expectStorageError(store.list({ prefix, continue: 'not-a-token' }), StorageErrorCode.InvalidArgument);
        const wrongVersion = Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v0', rv: 1, start: 'a' })).toString('base64url');
        await expectStorageError(store.list({ prefix, continue: wrongVersion }), StorageErrorCode.InvalidArgument);
      });
    });

    describe('watch', () => {
      it('sees 1,000 writes made while it runs, in order, each once', async () => {
        const start = await store.currentRevision();
        const watch = store.watch({ prefix, revision: start });
        try {
          const writes = (async () => {
            const pending: Promise<KeyValue>[] = [];
            for (let i = 0; i < 1000; i++) {
              pending.push(store.create(`${prefix}obj-${i}`, json({ i })));
              if (pending.length === 16) await Promise.all(pending.splice(0));
            }
            await Promise.all(pending);
          })();
          const events = await collect(watch, 1000, 60000);
          await writes;
          expect(events).toHaveLength(1000);
          expect(events.every((e) => e.type === 'ADDED')).toBe(true);
          const revisions = events.map((e) => e.revision);
          for (let i = 1; i < revisions.length; i++) expect(revisions[i]).toBeGreaterThan(revisions[i - 1]);
          const keys = new Set(events.map((e) => e.kv?.key));
          expect(keys.size).toBe(1000);
          for (const e of events) expect(e.kv?.revision).toBe(e.revision);
        } finally {
          watch.close();
        }
      }, 90000);

      it('replays history after its start revision and tells ADDED from MODIFIED and DELETED', async () => {
        const start = await store.currentRevision();
        const a = await store.create(`${prefix}a`, json({ n: 1 }));
        const a2 = await store.update(`${prefix}a`, json({ n: 2 }), a.revision);
        const deleted = await store.delete(`${prefix}a`);
        const watch = store.watch({ prefix, revision: start });
        try {
          const events = await collect(watch, 3);
          expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
          expect(events.map((e) => e.revision)).toEqual([a.revision, a2.revision, deleted.revision]);
          expect(parse(events[1].kv)).toEqual({ n: 2 });
          expect(parse(events[1].prevKv)).toEqual({ n: 1 });
        } finally {
          watch.close();
        }
      });

      it('starts after the given revision, not at it', async () => {
        const a = await store.create(`${prefix}a`, json({ n: 1 }));
        const b = await store.create(`${prefix}b`, json({ n: 2 }));
        const watch = store.watch({ prefix, revision: a.revision });
        try {
          const events = await collect(watch, 1);
          expect(events[0].kv?.key).toBe(`${prefix}b`);
          expect(events[0].revision).toBe(b.revision);
        } finally {
          watch.close();
        }
      });

      it('yields DELETED with the last state when a watched key is deleted', async () => {
        const created = await store.create(`${prefix}a`, json({ n: 1 }));
        const updated = await store.update(`${prefix}a`, json({ n: 'last' }), created.revision);
        const watch = store.watch({ key: `${prefix}a`, revision: updated.revision });
        try {
          const events = collect(watch, 1);
          const result = await store.delete(`${prefix}a`);
          const [event] = await events;
          expect(event.type).toBe('DELETED');
          expect(event.revision).toBe(result.revision);
          expect(event.kv?.key).toBe(`${prefix}a`);
          expect(parse(event.kv)).toEqual({ n: 'last' });
          expect(event.kv?.revision).toBe(updated.revision);
        } finally {
          watch.close();
        }
      });

      it('watches one key and ignores its neighbours', async () => {
        const start = await store.currentRevision();
        await store.create(`${prefix}ab`, json('neighbour'));
        await store.create(`${prefix}b`, json('other'));
        await store.create(`${prefix}a`, json('mine'));
        const watch = store.watch({ key: `${prefix}a`, revision: start });
        try {
          const events = await collect(watch, 1);
          expect(parse(events[0].kv)).toBe('mine');
          const none = await collect(watch, 1, 300).catch((err: Error) => err);
          expect(none).toBeInstanceOf(Error);
        } finally {
          watch.close();
        }
      });

      it('ends the iteration on close', async () => {
        const watch = store.watch({ prefix, revision: await store.currentRevision() });
        const iterator = watch[Symbol.asyncIterator]();
        const pending = iterator.next();
        watch.close();
        await expect(pending).resolves.toEqual({ value: undefined, done: true });
      });

      if (options.progressNotify) {
        it('sends BOOKMARK events carrying a revision when asked for progress', async () => {
          const created = await store.create(`${prefix}a`, json({ n: 1 }));
          const watch = store.watch({ prefix, revision: created.revision, progressNotify: true });
          try {
            const [bookmark] = await collect(watch, 1, 20000, true);
            expect(bookmark.type).toBe('BOOKMARK');
            expect(bookmark.kv).toBeUndefined();
            expect(bookmark.revision).toBeGreaterThanOrEqual(created.revision);
          } finally {
            watch.close();
          }
        }, 30000);
      }
    });

    describe('compaction', () => {
      it('expires reads, continue tokens and watches from before the compacted revision', async () => {
        for (let i = 0; i < 4; i++) await store.create(`${prefix}item-${i}`, json({ i }));
        const page = await store.list({ prefix, limit: 2 });
        const old = await store.get(`${prefix}item-0`);
        await store.update(`${prefix}item-0`, json({ i: 'new' }), old.revision);
        const current = await store.currentRevision();
        await store.compact(current);

        await expectStorageError(store.list({ prefix, limit: 2, continue: page.continue }), StorageErrorCode.Expired);
        await expectStorageError(store.get(`${prefix}item-0`, { revision: old.revision }), StorageErrorCode.Expired);
        // A key that never existed tells a compacted revision (Expired) from a kept one (KeyNotFound).
        await expectStorageError(store.get(`${prefix}absent`, { revision: old.revision }), StorageErrorCode.Expired);
        await expectStorageError(store.get(`${prefix}absent`, { revision: current }), StorageErrorCode.KeyNotFound);
        await expectStorageError(store.list({ prefix, revision: old.revision }), StorageErrorCode.Expired);

        const watch = store.watch({ prefix, revision: old.revision });
        try {
          const err = await nextError(watch);
          expect(err).toBeInstanceOf(StorageError);
          expect((err as StorageError).code).toBe(StorageErrorCode.Expired);
        } finally {
          watch.close();
        }

        // The latest state and watches from the compacted revision on still work.
        expect(parse(await store.get(`${prefix}item-0`))).toEqual({ i: 'new' });
        const live = store.watch({ prefix, revision: current });
        try {
          const events = collect(live, 1);
          await store.create(`${prefix}after`, json('after'));
          expect(parse((await events)[0].kv)).toBe('after');
        } finally {
          live.close();
        }
      });
    });
  });
}
