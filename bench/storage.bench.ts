// The storage section: the gRPC storage service (a separate process, over etcd, plaintext)
// beside the etcd3 client doing the same work directly on the same etcd, in one run; then what
// mutual TLS costs on the storage link: the same service plaintext beside mutual TLS.
import { Etcd3, IRangeResponse } from 'etcd3';
import { GrpcObjectStore, storageClientCredentials } from '@plinth/storage-grpc';
import { KeyValue, ObjectStore, WatchEvent } from '@plinth/storage';
import { makeLinkPki, startEtcd, storageServingFlags } from '@plinth/testing';
import { startStorageService, writeHeapSnapshots } from './processes';
import { Figures, formatRow, header, runConcurrent, summarize } from './stats';

const inFlight = 16;
const value = Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'bench', uid: '0f1c7e1e-3a4b-4c5d-8e9f-001122334455', labels: { app: 'bench' } }, data: { key: 'v'.repeat(400) } }));

interface Side {
  create(i: number): Promise<unknown>;
  get(i: number): Promise<unknown>;
  listPages(prefix: string): Promise<number>;
  watchLatency(samples: number): Promise<Figures>;
}

function rawSide(etcd: Etcd3, prefix: string): Side {
  return {
    create: (i) => etcd.if(`${prefix}c/${i}`, 'Create', '==', 0).then(etcd.put(`${prefix}c/${i}`).value(value)).commit(),
    get: (i) => etcd.get(`${prefix}c/${i % 1000}`).buffer(),
    async listPages(listPrefix) {
      let count = 0;
      let start = Buffer.from(listPrefix);
      const end = Buffer.from(listPrefix.slice(0, -1) + String.fromCharCode(listPrefix.charCodeAt(listPrefix.length - 1) + 1));
      let revision: string | undefined;
      for (;;) {
        const res: IRangeResponse = await etcd.kv.range({ key: start, range_end: end, limit: 500, revision });
        revision = res.header.revision;
        count += res.kvs.length;
        if (!res.more) return count;
        start = Buffer.concat([res.kvs[res.kvs.length - 1].key, Buffer.from([0])]);
      }
    },
    async watchLatency(samples) {
      const watcher = await etcd.watch().prefix(`${prefix}w/`).create();
      const latencies: number[] = [];
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < samples; i++) {
        const seen = new Promise<void>((resolve) => watcher.once('put', () => resolve()));
        const start = process.hrtime.bigint();
        await etcd.put(`${prefix}w/${i}`).value(value);
        await seen;
        latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
      await watcher.cancel();
      return summarize(latencies, Number(process.hrtime.bigint() - t0) / 1e9);
    },
  };
}

function serviceSide(store: ObjectStore, prefix: string): Side {
  return {
    create: (i) => store.create(`${prefix}c/${i}`, value),
    get: (i) => store.get(`${prefix}c/${i % 1000}`),
    async listPages(listPrefix) {
      let count = 0;
      let token: string | undefined;
      do {
        const page = await store.list({ prefix: listPrefix, limit: 500, continue: token });
        count += page.items.length;
        token = page.continue;
      } while (token);
      return count;
    },
    async watchLatency(samples) {
      const watch = store.watch({ prefix: `${prefix}w/`, revision: await store.currentRevision() });
      const iterator = watch[Symbol.asyncIterator]();
      const latencies: number[] = [];
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < samples; i++) {
        const start = process.hrtime.bigint();
        const seen = iterator.next() as Promise<IteratorResult<WatchEvent>>;
        await store.create(`${prefix}w/${i}`, value);
        await seen;
        latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
      watch.close();
      return summarize(latencies, Number(process.hrtime.bigint() - t0) / 1e9);
    },
  };
}

export async function storageBench(counts: { writes: number; reads: number; lists: number; watches: number }): Promise<string[]> {
  const etcdServer = await startEtcd({ progressNotifyInterval: '5s' });
  const service = await startStorageService(etcdServer.endpoint);
  const etcd = new Etcd3({ hosts: [etcdServer.endpoint] });
  const store = new GrpcObjectStore({ address: service.address });
  const lines = [`storage: gRPC storage service (separate process, plaintext) vs etcd3 directly, ${inFlight} in flight`, header];
  try {
    const raw = rawSide(etcd, '/bench/raw/');
    const svc = serviceSide(store, '/bench/svc/');
    // Warm both paths (connections, JIT) before measuring.
    await runConcurrent(200, inFlight, (i) => raw.create(100000 + i));
    await runConcurrent(200, inFlight, (i) => svc.create(100000 + i));
    const rows: [string, Figures, Figures][] = [];
    rows.push(['create', await runConcurrent(counts.writes, inFlight, raw.create), await runConcurrent(counts.writes, inFlight, svc.create)]);
    rows.push(['get', await runConcurrent(counts.reads, inFlight, raw.get), await runConcurrent(counts.reads, inFlight, svc.get)]);
    for (let i = 0; i < 1000; i++) {
      await etcd.put(`/bench/list-raw/${String(i).padStart(4, '0')}`).value(value);
    }
    await runConcurrent(1000, inFlight, (i) => store.create(`/bench/list-svc/${String(i).padStart(4, '0')}`, value).then((kv: KeyValue) => kv));
    const rawList = await runConcurrent(counts.lists, 4, () => raw.listPages('/bench/list-raw/'));
    const svcList = await runConcurrent(counts.lists, 4, () => svc.listPages('/bench/list-svc/'));
    rows.push(['list 1,000 (pages of 500), 4 in flight', rawList, svcList]);
    rows.push(['create → watch event (sequential)', await raw.watchLatency(counts.watches), await svc.watchLatency(counts.watches)]);
    for (const [name, r, s] of rows) lines.push(formatRow(name, r, s));
    lines.push('', `storage link: plaintext (--storage-insecure) vs mutual TLS, ${inFlight} in flight`, header);
    for (const line of await tlsCost(etcdServer.endpoint, svc, counts)) lines.push(line);
  } finally {
    await store.close();
    etcd.close();
    await writeHeapSnapshots([['storage', service]]);
    await service.stop();
    await etcdServer.stop();
  }
  return lines;
}

// tlsCost measures create and get through a second storage service on the same etcd serving
// mutual TLS, beside the plaintext one.
async function tlsCost(etcdEndpoint: string, plaintext: Side, counts: { writes: number; reads: number }): Promise<string[]> {
  const pki = makeLinkPki();
  const service = await startStorageService(etcdEndpoint, storageServingFlags(pki));
  const port = service.address.slice(service.address.lastIndexOf(':') + 1);
  const store = new GrpcObjectStore({ address: `localhost:${port}`, credentials: storageClientCredentials(pki.gatewayClient) });
  try {
    const tls = serviceSide(store, '/bench/tls/');
    await runConcurrent(200, inFlight, (i) => tls.create(100000 + i));
    const plainCreate = await runConcurrent(counts.writes, inFlight, (i) => plaintext.create(200000 + i));
    const tlsCreate = await runConcurrent(counts.writes, inFlight, tls.create);
    const plainGet = await runConcurrent(counts.reads, inFlight, plaintext.get);
    const tlsGet = await runConcurrent(counts.reads, inFlight, tls.get);
    return [formatRow('create', plainCreate, tlsCreate), formatRow('get', plainGet, tlsGet)];
  } finally {
    await store.close();
    await service.stop();
    pki.remove();
  }
}
