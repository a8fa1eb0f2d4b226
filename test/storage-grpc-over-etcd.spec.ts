// The gRPC adapter over the etcd backend, through the storage service's Nest microservice and a real etcd. It
// lives here rather than beside the adapter because an adapter, specs included, may not import
// a backend (eslint.config.mjs); the embedded run is in libs/storage-grpc.
import { ObjectStore } from '@plinth/storage';
import { runObjectStoreConformance } from '@plinth/storage/conformance';
import { EtcdObjectStore } from '@plinth/storage-etcd';
import { startStorageServer, StorageServer } from '@plinth/nest/storage';
import { GrpcObjectStore } from '@plinth/storage-grpc';
import { EtcdServer, startEtcd } from '@plinth/testing';

let etcd: EtcdServer | undefined;
let backend: ObjectStore | undefined;
let server: StorageServer | undefined;

runObjectStoreConformance(
  'grpc over etcd',
  {
    async create() {
      etcd = await startEtcd();
      backend = new EtcdObjectStore({ endpoints: [etcd.endpoint] });
      server = await startStorageServer(backend, { address: '127.0.0.1:0' });
      return new GrpcObjectStore({ address: server.address });
    },
    async teardown() {
      await server?.shutdown();
      await backend?.close();
      await etcd?.stop();
    },
  },
  { progressNotify: true },
);
