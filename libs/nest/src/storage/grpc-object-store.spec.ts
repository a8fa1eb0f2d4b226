// The gRPC adapter must be indistinguishable from the store behind it: the conformance suite
// runs through the storage service's Nest microservice and a GrpcObjectStore on loopback, over the Exchange stream and over
// unary calls. The run over etcd is in test/storage-grpc-over-etcd.spec.ts.
import { EmbeddedObjectStore, ObjectStore } from '@plinth/storage';
import { ObjectStoreFactory, runObjectStoreConformance } from '@plinth/storage/conformance';
import { GrpcObjectStore } from '@plinth/storage-grpc';
import { StorageServer, startStorageServer } from './storage-server';

function overGrpc(open: () => Promise<ObjectStore>, unaryCalls = false): ObjectStoreFactory {
  let backend: ObjectStore | undefined;
  let server: StorageServer | undefined;
  return {
    async create() {
      backend = await open();
      server = await startStorageServer(backend, { address: '127.0.0.1:0' });
      return new GrpcObjectStore({ address: server.address, unaryCalls });
    },
    async teardown() {
      await server?.shutdown();
      await backend?.close();
    },
  };
}

runObjectStoreConformance(
  'grpc over embedded',
  overGrpc(async () => new EmbeddedObjectStore({ progressNotifyIntervalMs: 500 })),
  { progressNotify: true },
);

runObjectStoreConformance(
  'grpc over embedded, unary calls',
  overGrpc(async () => new EmbeddedObjectStore({ progressNotifyIntervalMs: 500 }), true),
  { progressNotify: true },
);
