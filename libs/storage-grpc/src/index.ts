export { createObjectStoreServiceImpl, ObjectStoreServiceOptions } from './server';
export { startStorageServer, StorageServer, StorageServerOptions } from './storage-server';
export { GrpcObjectStore, GrpcObjectStoreOptions } from './client';
export { clientChannelOptions, serverChannelOptions, maxMessageBytes } from './channel-options';
export { toStatus, toStorageError } from './status';
