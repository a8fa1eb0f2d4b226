// A StorageError must arrive at the client as the error the store threw, and the status codes
// must make sense to any gRPC client; transport failures and watch endings map to Unreachable.
import { ServiceError, credentials, status } from '@grpc/grpc-js';
import { storagev1 } from '@plinth/proto';
import {
  Channel,
  EmbeddedObjectStore,
  GetOptions,
  KeyValue,
  ListOptions,
  ListResult,
  ObjectStore,
  StorageError,
  StorageErrorCode,
  Watch,
  WatchEvent,
  WatchOptions,
} from '@plinth/storage';
import { FakeClock, freePort, eventually } from '@plinth/testing';
import { GrpcObjectStore } from '@plinth/storage-grpc';
import { StorageServer, startStorageServer } from './storage-server';

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

async function failure(promise: Promise<unknown>): Promise<StorageError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof StorageError)) throw new Error(`expected a StorageError, got ${String(err)}`);
  return err;
}

function same(err: StorageError) {
  return { code: err.code, key: err.key, message: err.message, revision: err.revision, name: err.name };
}

// ScriptedStore is an embedded store whose watches can be replaced by a script, whose gets can
// be held, and which counts the watches opened and closed on it.
class ScriptedStore extends EmbeddedObjectStore {
  script: ((options: WatchOptions) => Channel<WatchEvent>) | undefined;
  hold: Promise<void> | undefined;
  bug: Error | undefined;
  openedWatches = 0;
  closedWatches = 0;
  gets = 0;

  override async get(key: string, options?: GetOptions): Promise<KeyValue> {
    if (this.bug) throw this.bug;
    this.gets++;
    await this.hold;
    return super.get(key, options);
  }

  override async list(options: ListOptions): Promise<ListResult> {
    await this.hold;
    return super.list(options);
  }

  override watch(options: WatchOptions): Watch {
    const inner: Watch = this.script?.(options) ?? super.watch(options);
    this.openedWatches++;
    let closed = false;
    return {
      [Symbol.asyncIterator]: () => inner[Symbol.asyncIterator](),
      close: () => {
        if (!closed) this.closedWatches++;
        closed = true;
        inner.close();
      },
    };
  }
}

describe('StorageError over gRPC', () => {
  let backend: ScriptedStore;
  let server: StorageServer;
  let store: GrpcObjectStore;

  beforeEach(async () => {
    backend = new ScriptedStore();
    server = await startStorageServer(backend, { address: '127.0.0.1:0' });
    store = new GrpcObjectStore({ address: server.address });
  });

  afterEach(async () => {
    await store.close();
    await server.shutdown();
    await backend.close();
  });

  it('rebuilds each error with its code, key, message and revision, over both transports', async () => {
    const unary = new GrpcObjectStore({ address: server.address, unaryCalls: true });
    try {
      const created = await store.create('/registry/ns/é/a', bytes({ n: 1 }));
      await store.update(created.key, bytes({ n: 2 }), created.revision);
      const operations: [StorageErrorCode, (s: ObjectStore) => Promise<unknown>][] = [
        [StorageErrorCode.KeyExists, (s) => s.create(created.key, bytes({}))],
        [StorageErrorCode.KeyNotFound, (s) => s.get('/registry/ns/missing')],
        [StorageErrorCode.KeyNotFound, (s) => s.delete('/registry/ns/missing')],
        [StorageErrorCode.Conflict, (s) => s.update(created.key, bytes({}), created.revision)],
        [StorageErrorCode.Conflict, (s) => s.delete(created.key, { uid: 'other' })],
        [StorageErrorCode.FutureRevision, (s) => s.get(created.key, { revision: 1_000_000 })],
        [StorageErrorCode.InvalidArgument, (s) => s.list({ prefix: '/registry/', continue: 'garbage' })],
      ];
      await store.compact(await store.currentRevision());
      operations.push([StorageErrorCode.Expired, (s) => s.get(created.key, { revision: created.revision })]);
      operations.push([StorageErrorCode.Expired, (s) => s.compact(created.revision)]);
      for (const [code, operation] of operations) {
        const local = await failure(operation(backend));
        expect(local.code).toBe(code);
        expect(same(await failure(operation(store)))).toEqual(same(local));
        expect(same(await failure(operation(unary)))).toEqual(same(local));
      }
      const conflict = await failure(store.update(created.key, bytes({}), created.revision));
      expect(conflict.revision).toBeGreaterThan(created.revision);
      expect(conflict.key).toBe('/registry/ns/é/a');
    } finally {
      await unary.close();
    }
  });

  it('reports an error of the service that is no StorageError as Unreachable, over both transports', async () => {
    const unary = new GrpcObjectStore({ address: server.address, unaryCalls: true });
    try {
      backend.bug = new TypeError('cannot read properties of undefined');
      for (const client of [store, unary]) {
        const err = await failure(client.get('/a'));
        expect(err.code).toBe(StorageErrorCode.Unreachable);
        expect(err.message).toBe('storage unreachable: INTERNAL: cannot read properties of undefined');
      }
    } finally {
      await unary.close();
    }
  });

  it('ends calls with status codes a plain gRPC client understands', async () => {
    const client = new storagev1.ObjectStoreClient(server.address, credentials.createInsecure());
    try {
      const code = (request: storagev1.GetRequest) =>
        new Promise<number>((resolve) => client.get(request, (err: ServiceError | null) => resolve(err?.code ?? status.OK)));
      expect(await code({ key: '/missing', revision: 0 })).toBe(status.NOT_FOUND);
      await store.create('/a', bytes(1));
      // A read past the store's revision is OUT_OF_RANGE, as etcd answers ErrFutureRev.
      expect(await code({ key: '/a', revision: 1000 })).toBe(status.OUT_OF_RANGE);
    } finally {
      client.close();
    }
  });

  it('reports a service that cannot be reached as Unreachable', async () => {
    const nowhere = new GrpcObjectStore({ address: `127.0.0.1:${await freePort()}` });
    try {
      const err = await failure(nowhere.get('/a'));
      expect(err.code).toBe(StorageErrorCode.Unreachable);
      expect(err.message).toMatch(/^storage unreachable: UNAVAILABLE/);
    } finally {
      await nowhere.close();
    }
  });

  it('refuses requests after close with Unreachable', async () => {
    const closed = new GrpcObjectStore({ address: server.address });
    await closed.close();
    expect((await failure(closed.get('/a'))).code).toBe(StorageErrorCode.Unreachable);
    expect((await failure(closed.list({ prefix: '/' }))).code).toBe(StorageErrorCode.Unreachable);
    expect((await failure(closed.watch({ prefix: '/' })[Symbol.asyncIterator]().next())).code).toBe(StorageErrorCode.Unreachable);
  });

  it('delivers the events before a watch failure, then the failure itself', async () => {
    const events: WatchEvent[] = Array.from({ length: 500 }, (_, i) => ({
      type: 'ADDED',
      revision: i + 1,
      kv: { key: `/w/${i}`, value: bytes({ i, pad: 'x'.repeat(2000) }), revision: i + 1, createRevision: i + 1 },
    }));
    backend.script = () => {
      const channel = new Channel<WatchEvent>();
      for (const event of events) channel.push(event);
      channel.fail(StorageError.expired('/w/', 1, 7));
      return channel;
    };
    const received: WatchEvent[] = [];
    let error: unknown;
    try {
      for await (const event of store.watch({ prefix: '/w/', revision: 1 })) received.push(event);
    } catch (err) {
      error = err;
    }
    expect(received.map((e) => e.revision)).toEqual(events.map((e) => e.revision));
    expect(received[499].kv?.value).toEqual(events[499].kv?.value);
    expect(error).toBeInstanceOf(StorageError);
    expect(same(error as StorageError)).toEqual(same(StorageError.expired('/w/', 1, 7)));
  });

  it('closes the store watch when the client closes its watch', async () => {
    const watch = store.watch({ prefix: '/c/' });
    const iterator = watch[Symbol.asyncIterator]();
    const first = iterator.next();
    await eventually(() => backend.openedWatches === 1);
    await store.create('/c/a', bytes(1));
    expect((await first).value?.kv?.key).toBe('/c/a');
    watch.close();
    await eventually(() => backend.closedWatches === 1);
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });

  it('ends open watches with Unreachable when the server shuts down, without waiting for the grace period', async () => {
    const watch = store.watch({ prefix: '/s/', revision: 0 });
    const ended = failure(watch[Symbol.asyncIterator]().next());
    await eventually(() => backend.openedWatches === 1);
    // A grace period of an hour: a shutdown that waited for it would outlast the test's timeout.
    await server.shutdown(3_600_000);
    const err = await ended;
    expect(err.code).toBe(StorageErrorCode.Unreachable);
    expect(err.message).toMatch(/shutting down/);
    expect(backend.closedWatches).toBe(1);
  });
});

describe('the Exchange stream', () => {
  let backend: ScriptedStore;
  let server: StorageServer;
  let store: GrpcObjectStore;

  beforeEach(async () => {
    backend = new ScriptedStore();
    server = await startStorageServer(backend, { address: '127.0.0.1:0' });
    store = new GrpcObjectStore({ address: server.address });
    await store.create('/a', bytes('a'));
  });

  afterEach(async () => {
    await store.close();
    await server.shutdown();
    await backend.close();
  });

  it('answers the pending requests before a shutdown ends it', async () => {
    let release = () => undefined as void;
    backend.hold = new Promise<void>((resolve) => (release = resolve));
    const gets = [store.get('/a'), store.get('/a')];
    await new Promise((r) => setTimeout(r, 50));
    // A grace period of an hour: a shutdown that waited for it, not for the pending requests,
    // would outlast the test's timeout.
    const stopped = server.shutdown(3_600_000);
    setTimeout(release, 100);
    for (const kv of await Promise.all(gets)) expect(kv.key).toBe('/a');
    await stopped;
    expect((await failure(store.get('/a'))).code).toBe(StorageErrorCode.Unreachable);
  });

  it('answers each request of a batch message, by id, to a plain gRPC client', async () => {
    const client = new storagev1.ObjectStoreClient(server.address, credentials.createInsecure());
    const call = client.exchange();
    try {
      const answers = new Map<number, storagev1.ExchangeResponse>();
      const done = new Promise<void>((resolve) => {
        call.on('data', (response: storagev1.ExchangeResponse) => {
          for (const answer of response.batch.length > 0 ? response.batch : [response]) answers.set(answer.id, answer);
          if (answers.size === 4) resolve();
        });
      });
      const request = (id: number, operation: Partial<storagev1.ExchangeRequest>): storagev1.ExchangeRequest => ({ id, traceContext: {}, batch: [], ...operation });
      call.write({
        id: 0,
        traceContext: {},
        batch: [
          request(1, { get: { key: '/a', revision: 0 } }),
          request(2, { get: { key: '/missing', revision: 0 } }),
          request(3, { create: { key: '/b', value: bytes('b'), omitValue: false } }),
          request(4, { create: { key: '/c', value: bytes('c'), omitValue: true } }),
        ],
      });
      await done;
      expect(answers.get(1)?.get?.kv?.key).toBe('/a');
      expect(answers.get(2)?.failure?.code).toBe('KeyNotFound');
      expect(answers.get(3)?.create?.kv).toEqual({ key: '/b', value: bytes('b'), revision: (await backend.get('/b')).revision, createRevision: (await backend.get('/b')).revision });
      // A caller that has the value asks for the answer without it.
      expect(answers.get(4)?.create?.kv).toEqual({ key: '/c', value: new Uint8Array(0), revision: (await backend.get('/c')).revision, createRevision: (await backend.get('/c')).revision });
      expect((await backend.get('/c')).value).toEqual(bytes('c'));
    } finally {
      call.end();
      client.close();
    }
  });

  it('answers many requests sent at once, each with its own result', async () => {
    const keys = Array.from({ length: 40 }, (_, i) => `/k${i}`);
    const created = await Promise.all(keys.map((key) => store.create(key, bytes(key))));
    expect(created.map((kv) => kv.key)).toEqual(keys);
    const results = await Promise.all([...keys.map((key) => store.get(key)), failure(store.get('/missing')), failure(store.create('/k0', bytes(0)))]);
    expect(results.slice(0, keys.length).map((kv) => new TextDecoder().decode((kv as KeyValue).value))).toEqual(keys.map((key) => JSON.stringify(key)));
    expect((results[keys.length] as StorageError).code).toBe(StorageErrorCode.KeyNotFound);
    expect((results[keys.length + 1] as StorageError).code).toBe(StorageErrorCode.KeyExists);
  });

  it('fails the pending requests with Unreachable when the connection breaks, and reconnects for the next', async () => {
    backend.hold = new Promise<void>(() => undefined);
    const pending = failure(store.get('/a'));
    await new Promise((r) => setTimeout(r, 50));
    await server.shutdown(100);
    const err = await pending;
    expect(err.code).toBe(StorageErrorCode.Unreachable);

    backend.hold = undefined;
    server = await startStorageServer(backend, { address: server.address });
    const kv = await eventually(() => store.get('/a'), { what: 'a read after the reconnection', intervalMs: 100 });
    expect(kv.key).toBe('/a');
  });

  it('fails a call not answered by its deadline alone, and answers the next on the same stream', async () => {
    const clock = new FakeClock();
    const timed = new GrpcObjectStore({ address: server.address, callTimeoutMs: 5_000, clock });
    let release = () => undefined as void;
    backend.hold = new Promise<void>((resolve) => (release = resolve));
    try {
      const held = failure(timed.get('/a'));
      await eventually(() => backend.gets === 1);
      clock.advance(4_999);
      const later = failure(timed.get('/a'));
      await eventually(() => backend.gets === 2);
      clock.advance(1);
      const err = await held;
      expect(err.code).toBe(StorageErrorCode.Timeout);
      expect(err.message).toBe('storage timeout: no answer within 5000 ms');
      clock.advance(5_000);
      expect((await later).message).toBe(err.message);
      backend.hold = undefined;
      release();
      expect((await timed.get('/a')).key).toBe('/a');
    } finally {
      release();
      await timed.close();
    }
  });

  it('fails a call beyond the bound of pending calls at once, and takes calls again once they are answered', async () => {
    const bounded = new GrpcObjectStore({ address: server.address, maxPendingCalls: 2 });
    let release = () => undefined as void;
    backend.hold = new Promise<void>((resolve) => (release = resolve));
    try {
      const gets = [bounded.get('/a'), bounded.get('/a')];
      const refused = await failure(bounded.get('/a'));
      expect(refused.code).toBe(StorageErrorCode.Unreachable);
      expect(refused.message).toBe("storage unreachable: 2 calls await the storage service's answers");
      release();
      for (const kv of await Promise.all(gets)) expect(kv.key).toBe('/a');
      expect((await bounded.get('/a')).key).toBe('/a');
    } finally {
      release();
      await bounded.close();
    }
  });

  it('ends a unary list at its deadline', async () => {
    const timed = new GrpcObjectStore({ address: server.address, callTimeoutMs: 200 });
    let release = () => undefined as void;
    backend.hold = new Promise<void>((resolve) => (release = resolve));
    try {
      const err = await failure(timed.list({ prefix: '/' }));
      expect(err.code).toBe(StorageErrorCode.Timeout);
      expect(err.message).toMatch(/^storage timeout: Deadline exceeded/);
    } finally {
      release();
      await timed.close();
    }
  });
});
