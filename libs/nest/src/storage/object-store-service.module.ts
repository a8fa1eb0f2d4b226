// ObjectStoreServiceModule serves an ObjectStore over StorageGrpcTransport: the store (exported,
// for the app that closes it), the handlers over it, and the controller routing to them.
import { DynamicModule, Module } from '@nestjs/common';
import { ObjectStore } from '@plinth/storage';
import { objectStoreHandlers } from '@plinth/storage-grpc';
import { OBJECT_STORE } from './object-store.token';
import { OBJECT_STORE_HANDLERS, ObjectStoreController } from './object-store.controller';
import { StorageGrpcTransport } from './storage-grpc.transport';

@Module({})
export class ObjectStoreServiceModule {
  // forStore serves the store openStore returns, over the transport the microservice runs on.
  static forStore(openStore: () => ObjectStore, transport: StorageGrpcTransport): DynamicModule {
    return {
      module: ObjectStoreServiceModule,
      controllers: [ObjectStoreController],
      providers: [
        { provide: OBJECT_STORE, useFactory: openStore },
        { provide: OBJECT_STORE_HANDLERS, useFactory: (store: ObjectStore) => objectStoreHandlers(store, { signal: transport.signal }), inject: [OBJECT_STORE] },
      ],
      exports: [OBJECT_STORE],
    };
  }
}
