export { createObjectStoreServiceImpl, ObjectStoreServiceOptions } from './server';
export { startStorageServer, StorageServer, StorageServerOptions, StorageServerTls } from './storage-server';
export {
  ClientIdentity,
  ClientIdentityError,
  defaultAllowedClients,
  formatClientIdentity,
  identityAllowed,
  parseClientIdentities,
  storageClientCredentials,
  StorageLinkError,
  storageLinkCredentials,
  StorageLinkSettings,
  TlsFiles,
} from './tls';
export { GrpcObjectStore, GrpcObjectStoreOptions } from './client';
export { StorageLinkMetrics } from './metrics';
export { clientChannelOptions, serverChannelOptions, maxMessageBytes } from './channel-options';
export { toStatus, toStorageError } from './status';
