// The store's watches are fed by one keyspace watch and by the answers of its own writes: these
// specs check on a real etcd that every watcher still sees etcd's history exactly (each
// revision once, in order, nothing missing) with several writers at once, across a hand-over
// from a watch's own replay to the feed, a storage restart and the loss of the feed.
import { Etcd3 } from 'etcd3';
import { StorageError, StorageErrorCode, Watch, WatchEvent } from '@plinth/storage';
import { EtcdServer, startEtcd } from '@plinth/testing';
import { newEtcdClient } from './client';
import { EtcdObjectStore } from './etcd-object-store';
import { watchEtcd } from './watch';

let etcd: EtcdServer;
let other: Etcd3;

beforeAll(async () => {
  etcd = await startEtcd();
  other = newEtcdClient({ endpoints: [etcd.endpoint] });
});

afterAll(async () => {
  other?.close();
  await etcd?.stop();
});

const text = (value: string) => Buffer.from(value);
const endKey = (prefix: string) => `${prefix}~end`;

// described names what a watcher must see of an event, prevKv included.
function described(event: WatchEvent): string {
  const kv = event.kv;
  const prev = event.prevKv ? ` prev ${event.prevKv.revision} ${Buffer.from(event.prevKv.value).toString()}` : '';
  return `${event.revision} ${event.type} ${kv?.key} ${kv ? Buffer.from(kv.value).toString() : ''} ${kv?.createRevision}${prev}`;
}

// eventsUntilEnd collects a watch's events up to the end marker (of the prefix, by default),
// BOOKMARKs left out.
async function eventsUntilEnd(watch: Watch, prefix: string, end = endKey(prefix)): Promise<string[]> {
  const seen: string[] = [];
  for await (const event of watch) {
    if (event.type === 'BOOKMARK') continue;
    seen.push(described(event));
    if (event.kv?.key === end) break;
  }
  return seen;
}

// history is etcd's own account of the prefix after revision: an etcd watch of its own.
async function history(prefix: string, revision: number): Promise<string[]> {
  const client = newEtcdClient({ endpoints: [etcd.endpoint] });
  try {
    return await eventsUntilEnd(watchEtcd(client, { prefix, revision }, new Set()), prefix);
  } finally {
    client.close();
  }
}

// writeMany runs the writers' work, `inFlight` at a time each: creates and deletes through a
// store (events from their answers), updates (events from the feed) and another client's
// two-key transactions (one revision, two events).
async function writeMany(stores: EtcdObjectStore[], prefix: string, count: number, inFlight = 8): Promise<void> {
  const work = (store: EtcdObjectStore, s: number) => async (i: number) => {
    const key = `${prefix}s${s}-${i}`;
    const created = await store.create(key, text(`v${i}`));
    if (i % 3 === 0) await store.update(key, text(`u${i}`), created.revision);
    if (i % 4 === 0) await store.delete(key);
    if (i % 5 === 0) {
      await other.kv.txn({
        compare: [],
        success: [{ request_put: { key: Buffer.from(`${prefix}t${s}-${i}-a`), value: text('a') } }, { request_put: { key: Buffer.from(`${prefix}t${s}-${i}-b`), value: text('b') } }],
      });
    }
  };
  await Promise.all(
    stores.map(async (store, s) => {
      const run = work(store, s);
      let next = 0;
      await Promise.all(
        Array.from({ length: inFlight }, async () => {
          while (next < count) await run(next++);
        }),
      );
    }),
  );
}

describe('EtcdObjectStore watches fed by the keyspace watch', () => {
  it("queues the event of a create, an update and a delete before the write answers", async () => {
    const store = new EtcdObjectStore({ endpoints: [etcd.endpoint] });
    const prefix = '/registry/live/answer/';
    try {
      const watch = store.watch({ prefix, revision: await store.currentRevision() });
      // The first two events may come from etcd's echo, while the feed starts and the watch
      // hands over to it.
      const events = watch[Symbol.asyncIterator]();
      for (const name of ['first', 'second']) {
        await store.create(`${prefix}${name}`, text(name));
        await events.next();
      }
      const queuedAtAnswer: number[] = [];
      for (let i = 0; i < 10; i++) {
        const created = await store.create(`${prefix}k${i}`, text(`${i}`));
        queuedAtAnswer.push(watch.queued ?? 0);
        await store.update(created.key, text(`u${i}`), created.revision);
        queuedAtAnswer.push(watch.queued ?? 0);
        await store.delete(created.key);
        queuedAtAnswer.push(watch.queued ?? 0);
      }
      await store.create(endKey(prefix), text('end'));
      expect(queuedAtAnswer).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      const start = (await store.currentRevision()) - 31;
      expect(await eventsUntilEnd(watch, prefix)).toEqual(await history(prefix, start));
    } finally {
      await store.close();
    }
  });

  it("gives the watchers of two stores etcd's history exactly while both and another client write", async () => {
    const a = new EtcdObjectStore({ endpoints: [etcd.endpoint] });
    const b = new EtcdObjectStore({ endpoints: [etcd.endpoint] });
    const prefix = '/registry/live/two/';
    try {
      const start = await a.currentRevision();
      const narrowPrefix = `${prefix}s1-`;
      const watches = [a.watch({ prefix, revision: start }), b.watch({ prefix, revision: start }), a.watch({ prefix: narrowPrefix, revision: start })];
      const seen = [eventsUntilEnd(watches[0], prefix), eventsUntilEnd(watches[1], prefix), eventsUntilEnd(watches[2], narrowPrefix, `${narrowPrefix}~`)];
      await writeMany([a, b], prefix, 120);
      await b.create(`${narrowPrefix}~`, text('narrow end'));
      await a.create(endKey(prefix), text('end'));
      const expected = await history(prefix, start);
      expect(expected.length).toBeGreaterThan(400);
      expect(await seen[0]).toEqual(expected);
      expect(await seen[1]).toEqual(expected);
      expect(await seen[2]).toEqual(expected.filter((line) => line.split(' ')[2].startsWith(narrowPrefix)));
    } finally {
      await a.close();
      await b.close();
    }
  }, 60_000);

  it('replays a watch from before the feed, then hands it over to the feed, while writes go on', async () => {
    const store = new EtcdObjectStore({ endpoints: [etcd.endpoint] });
    const prefix = '/registry/live/replay/';
    try {
      const start = await store.currentRevision();
      await writeMany([store], prefix, 40);
      // The feed runs from here on; the next watch starts 100-odd revisions before it.
      const feedStarted = store.watch({ prefix: '/registry/live/elsewhere/', revision: await store.currentRevision() });
      await store.create(`${prefix}after-feed`, text('x'));
      const replaying = store.watch({ prefix, revision: start });
      const seen = eventsUntilEnd(replaying, prefix);
      await writeMany([store], `${prefix}more-`, 60);
      await store.create(endKey(prefix), text('end'));
      expect(await seen).toEqual(await history(prefix, start));
      feedStarted.close();
    } finally {
      await store.close();
    }
  }, 60_000);

  it("continues a watch on a restarted store from the last revision it saw, while another store writes", async () => {
    const writer = new EtcdObjectStore({ endpoints: [etcd.endpoint] });
    let first = new EtcdObjectStore({ endpoints: [etcd.endpoint] });
    const prefix = '/registry/live/restart/';
    try {
      const start = await first.currentRevision();
      const seen: string[] = [];
      let last = start;
      const writing = writeMany([writer, first], prefix, 60, 4).catch(() => undefined);
      const watch = first.watch({ prefix, revision: start });
      for await (const event of watch) {
        seen.push(described(event));
        last = event.revision;
        if (seen.length === 40) break;
      }
      // The "restart": the store closes with writes of its own still going, a new one opens.
      await first.close();
      first = new EtcdObjectStore({ endpoints: [etcd.endpoint] });
      await writing;
      // A revision may carry two events: resume after the last whole one seen.
      while (seen.length > 0 && Number(seen[seen.length - 1].split(' ')[0]) === last) seen.pop();
      const resumed = first.watch({ prefix, revision: last - 1 });
      const rest = eventsUntilEnd(resumed, prefix);
      await writeMany([writer, first], `${prefix}later-`, 30);
      await writer.create(endKey(prefix), text('end'));
      expect([...seen, ...(await rest)]).toEqual(await history(prefix, start));
    } finally {
      await writer.close();
      await first.close();
    }
  }, 60_000);

  it('fails the watches of a lost feed as Unreachable, and serves new watches from a new feed', async () => {
    const own = await startEtcd();
    const store = new EtcdObjectStore({ endpoints: [own.endpoint] });
    const prefix = '/registry/live/lost/';
    try {
      const watch = store.watch({ prefix, revision: await store.currentRevision() });
      await store.create(`${prefix}a`, text('a'));
      const failed = (async () => {
        try {
          for await (const _ of watch) {
            // events until the loss
          }
        } catch (err) {
          return err;
        }
        return new Error('the watch ended without an error');
      })();
      await own.restart(async () => {
        expect(await failed).toMatchObject({ code: StorageErrorCode.Unreachable });
      });
      expect(await failed).toBeInstanceOf(StorageError);
      const revision = await store.currentRevision();
      const again = store.watch({ prefix, revision });
      const seen = eventsUntilEnd(again, prefix);
      await store.create(`${prefix}b`, text('b'));
      await store.create(endKey(prefix), text('end'));
      expect(await seen).toEqual([`${revision + 1} ADDED ${prefix}b b ${revision + 1}`, `${revision + 2} ADDED ${endKey(prefix)} end ${revision + 2}`]);
    } finally {
      await store.close();
      await own.stop();
    }
  }, 60_000);
});
