// The storage service as it runs in production: its own process over a real etcd, reached
// through GrpcObjectStore, and stopped with SIGTERM.
import { join } from 'node:path';
import { GrpcObjectStore } from '@plinth/storage-grpc';
import { EtcdServer, RunningProcess, startEtcd, startProcess } from '@plinth/testing';

const root = join(__dirname, '../../..');
const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

// listening waits for the service's "listening on" line and returns the address in it.
function listening(service: RunningProcess, timeoutMs = 30000): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the storage service did not start:\n${service.output()}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /storage service listening on (\S+:\d+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      service.child.stdout?.off('data', onData);
      resolve(match[1]);
    };
    service.child.stdout?.on('data', onData);
    service.child.once('exit', (code) => reject(new Error(`the storage service exited with ${code}:\n${service.output()}`)));
  });
}

describe('storage service', () => {
  let etcd: EtcdServer;
  let service: RunningProcess;

  beforeAll(async () => {
    etcd = await startEtcd();
  });

  afterAll(async () => {
    await service?.stop();
    await etcd?.stop();
  });

  it('serves an etcd-backed store over gRPC and exits 0 on SIGTERM', async () => {
    service = startProcess(process.execPath, ['-r', join(root, 'tools/register.js'), join(root, 'apps/storage/src/main.ts')], {
      ...process.env,
      NO_COLOR: '1',
      PLINTH_ETCD_ENDPOINTS: etcd.endpoint,
      PLINTH_STORAGE_ADDRESS: '127.0.0.1:0',
    });
    const address = await listening(service);

    const store = new GrpcObjectStore({ address });
    try {
      const prefix = `/registry/e2e/${Date.now()}/`;
      const start = await store.currentRevision();
      const watch = store.watch({ prefix, revision: start });
      const created = await store.create(`${prefix}a`, bytes({ n: 1 }));
      expect(new TextDecoder().decode((await store.get(`${prefix}a`)).value)).toBe('{"n":1}');
      const { value: event } = await watch[Symbol.asyncIterator]().next();
      expect(event).toMatchObject({ type: 'ADDED', revision: created.revision, kv: { key: `${prefix}a` } });

      // An open watch must not hold the shutdown up: it ends with Unreachable.
      const ended = watch[Symbol.asyncIterator]().next().catch((err: unknown) => err);
      const exited = new Promise<number | null>((resolve) => service.child.once('exit', (code) => resolve(code)));
      service.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(await ended).toMatchObject({ code: 'Unreachable' });
    } finally {
      await store.close();
    }
  }, 60000);
});
