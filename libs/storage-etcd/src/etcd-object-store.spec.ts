import { once } from 'node:events';
import { Server, Socket, createServer } from 'node:net';
import { StorageError, StorageErrorCode, Watch } from '@plinth/storage';
import { runObjectStoreConformance } from '@plinth/storage/conformance';
import { EtcdServer, freePort, startEtcd } from '@plinth/testing';
import { newEtcdClient } from './client';
import { EtcdObjectStore } from './etcd-object-store';
import { watchEtcd } from './watch';

// One etcd serves every test of this file; it is stopped by the conformance teardown, or at the
// end of the file when the conformance tests were filtered out.
let etcd: Promise<EtcdServer> | undefined;

function sharedEtcd(): Promise<EtcdServer> {
  etcd ??= startEtcd();
  return etcd;
}

async function stopEtcd(): Promise<void> {
  const running = etcd;
  etcd = undefined;
  if (running) await (await running).stop();
}

afterAll(stopEtcd);

async function expectUnreachable(promise: Promise<unknown>): Promise<void> {
  const err = await promise.then(
    () => new Error('expected Unreachable, but the operation succeeded'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StorageError);
  expect((err as StorageError).code).toBe(StorageErrorCode.Unreachable);
}

async function expectTimeout(promise: Promise<unknown>): Promise<void> {
  const err = await promise.then(
    () => new Error('expected Timeout, but the operation succeeded'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StorageError);
  expect({ code: (err as StorageError).code, message: (err as StorageError).message }).toEqual({ code: StorageErrorCode.Timeout, message: expect.stringMatching(/^storage timeout: etcd did not answer in time: /) });
}

async function nextError(watch: Watch): Promise<unknown> {
  try {
    for await (const _ of watch) {
      // only the error matters
    }
  } catch (err) {
    return err;
  }
  return new Error('watch ended without an error');
}

describe('EtcdObjectStore', () => {
  describe('with etcd unreachable', () => {
    it('fails requests with Unreachable when nothing listens on the endpoint', async () => {
      const store = new EtcdObjectStore({ endpoints: [`http://127.0.0.1:${await freePort()}`], requestTimeoutMs: 2000 });
      try {
        await expectUnreachable(store.get('/registry/a'));
        await expectUnreachable(store.list({ prefix: '/registry/' }));
        await expectUnreachable(store.create('/registry/a', new Uint8Array([1])));
        await expectUnreachable(store.update('/registry/a', new Uint8Array([1]), 5));
        await expectUnreachable(store.delete('/registry/a'));
        await expectUnreachable(store.currentRevision());
      } finally {
        await store.close();
      }
    });

    it('fails a request with Timeout at its deadline when the endpoint never answers', async () => {
      // silent accepts connections and never speaks HTTP/2, like a hung server.
      const sockets = new Set<Socket>();
      const silent: Server = createServer((socket) => {
        sockets.add(socket);
        socket.on('error', () => undefined);
      });
      const port = await freePort();
      await new Promise<void>((resolve) => silent.listen(port, '127.0.0.1', resolve));
      const store = new EtcdObjectStore({ endpoints: [`http://127.0.0.1:${port}`], requestTimeoutMs: 500 });
      try {
        await expectTimeout(store.get('/registry/a'));
        await expectTimeout(store.currentRevision());
      } finally {
        await store.close();
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => silent.close(resolve));
      }
    });

    // kube-apiserver bounds each etcd call by its request's context, and answers one that ran
    // out 504 Timeout: the store's own deadline is the same Timeout, never Unreachable (503).
    it('fails every request with Timeout at its deadline while etcd is hung (SIGSTOP), and serves again once continued', async () => {
      const own = await startEtcd();
      const store = new EtcdObjectStore({ endpoints: [own.endpoint], requestTimeoutMs: 1000 });
      try {
        const created = await store.create('/registry/hung/a', new Uint8Array([1]));
        own.signal('SIGSTOP');
        await expectTimeout(store.get('/registry/hung/a'));
        await expectTimeout(store.list({ prefix: '/registry/hung/' }));
        await expectTimeout(store.create('/registry/hung/b', new Uint8Array([2])));
        await expectTimeout(store.update('/registry/hung/a', new Uint8Array([3]), created.revision));
        await expectTimeout(store.delete('/registry/hung/a'));
        await expectTimeout(store.currentRevision());
        own.signal('SIGCONT');
        // The writes that timed out may still land (etcd reads them once it runs): only a read.
        expect(await store.currentRevision()).toBeGreaterThanOrEqual(created.revision);
      } finally {
        own.signal('SIGCONT');
        await store.close();
        await own.stop();
      }
    }, 30_000);

    it('fails a watch with Unreachable instead of waiting for etcd', async () => {
      const store = new EtcdObjectStore({ endpoints: [`http://127.0.0.1:${await freePort()}`], requestTimeoutMs: 2000 });
      try {
        const err = await nextError(store.watch({ prefix: '/registry/', revision: 1 }));
        expect(err).toBeInstanceOf(StorageError);
        expect((err as StorageError).code).toBe(StorageErrorCode.Unreachable);
      } finally {
        await store.close();
      }
    }, 15000);
  });

  describe('with etcd running', () => {
    let store: EtcdObjectStore;

    beforeAll(async () => {
      store = new EtcdObjectStore({ endpoints: [(await sharedEtcd()).endpoint] });
    });

    afterAll(async () => {
      await store?.close();
    });

    it('rejects a revision newer than the store with FutureRevision', async () => {
      const current = await store.currentRevision();
      await expect(store.get('/registry/etcd/a', { revision: current + 1000 })).rejects.toMatchObject({
        code: StorageErrorCode.FutureRevision,
        message: `etcdserver: mvcc: required revision is a future revision (${current + 1000})`,
      });
    });

    it("leaves the process's stack trace limit as it was around its etcd calls (started without grpc-js's caller stack), failed ones too", async () => {
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 17;
      try {
        const created = await store.create('/registry/etcd/stack-limit', new Uint8Array([1]));
        expect(Error.stackTraceLimit).toBe(17);
        await expect(store.get('/registry/etcd/stack-limit', { revision: created.revision + 1000 })).rejects.toMatchObject({ code: StorageErrorCode.FutureRevision });
        expect(Error.stackTraceLimit).toBe(17);
        expect(new Error('here').stack?.split('\n').length).toBeGreaterThan(1);
      } finally {
        Error.stackTraceLimit = limit;
      }
    });

    it('rejects a watch without exactly one of key and prefix', async () => {
      const err = await nextError(store.watch({ key: '/registry/etcd/a', prefix: '/registry/etcd/' }));
      expect(err).toBeInstanceOf(StorageError);
      expect((err as StorageError).code).toBe(StorageErrorCode.InvalidArgument);
    });

    it('does not let update create a missing key with revision 0', async () => {
      await expect(store.update('/registry/etcd/never', new Uint8Array([1]), 0)).rejects.toMatchObject({
        code: StorageErrorCode.KeyNotFound,
      });
      await expect(store.get('/registry/etcd/never')).rejects.toMatchObject({ code: StorageErrorCode.KeyNotFound });
    });

    it('ends open watches when the store closes', async () => {
      const own = new EtcdObjectStore({ endpoints: [(await sharedEtcd()).endpoint] });
      const watch = own.watch({ prefix: '/registry/etcd/', revision: await own.currentRevision() });
      const pending = watch[Symbol.asyncIterator]().next();
      await own.close();
      await expect(pending).resolves.toEqual({ value: undefined, done: true });
    });

    it('keeps a watch that starts while etcd3 tears down its watch stream', async () => {
      // etcd3 ends its shared watch stream when the cancellation of its last watcher comes
      // back, and a watcher attached in that window first sees the stream end.
      const client = newEtcdClient({ endpoints: [(await sharedEtcd()).endpoint] });
      const open = new Set<Watch>();
      const key = '/registry/etcd/teardown/a';
      try {
        const revision = await store.currentRevision();
        const last = client.watch().prefix('/registry/etcd/teardown/').watcher();
        await once(last, 'connected');
        const started = new Promise<Watch>((resolve) => {
          last.once('end', () => queueMicrotask(() => resolve(watchEtcd(client, { key, revision }, open))));
        });
        await last.cancel();
        const watch = await started;
        const next = watch[Symbol.asyncIterator]().next();
        const created = await store.create(key, new Uint8Array([1]));
        await expect(next).resolves.toMatchObject({ done: false, value: { type: 'ADDED', revision: created.revision } });
      } finally {
        for (const watch of open) watch.close();
        client.close();
      }
    });
  });
});

runObjectStoreConformance(
  'etcd',
  {
    create: async () => new EtcdObjectStore({ endpoints: [(await sharedEtcd()).endpoint] }),
    teardown: stopEtcd,
  },
  { progressNotify: true },
);
