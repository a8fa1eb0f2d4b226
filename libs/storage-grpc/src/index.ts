export { objectStoreHandlers, ObjectStoreHandlers, ObjectStoreServiceOptions, ExchangeCall, WatchCall, UnaryHandler } from './server';
export { objectStorePackage, objectStorePackageDefinition, objectStoreServiceName } from './package-definition';
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
  StorageServerTls,
  storageServerCredentials,
  clientIdentityInterceptor,
  TlsFiles,
} from './tls';
export { GrpcObjectStore, GrpcObjectStoreOptions, defaultCallTimeoutMs, defaultMaxPendingCalls } from './client';
export { StorageLinkMetrics } from './metrics';
export { clientChannelOptions, serverChannelOptions, maxMessageBytes } from './channel-options';
export { toStatus, toStorageError } from './status';
