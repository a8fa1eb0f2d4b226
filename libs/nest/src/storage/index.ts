// @plinth/nest/storage: the storage microservice (its gRPC transport, controller and module) and
// startStorageServer, which runs them in a test's process. Apart from the common hosts of
// @plinth/nest, so that the storage service loads none of the API server's libraries.
export { ObjectStoreController, OBJECT_STORE_HANDLERS, StorageStatusFilter } from './object-store.controller';
export { ObjectStoreServiceModule } from './object-store-service.module';
export { StorageGrpcTransport, StorageServerOptions, defaultShutdownGraceMs } from './storage-grpc.transport';
export { startStorageServer, StorageServer } from './storage-server';
