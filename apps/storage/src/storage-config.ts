// The storage service's configuration comes from its environment (the only app that serves a
// backend over gRPC, so it lives here rather than in libs/nest):
//   PLINTH_STORAGE_ADDRESS  host:port to serve gRPC on (default 127.0.0.1:7443; port 0 picks one)
//   PLINTH_ETCD_ENDPOINTS   comma-separated etcd client URLs: store in etcd
//   PLINTH_DATA_DIR         without etcd, the embedded store's data directory (in memory if unset)
import { EmbeddedObjectStore, ObjectStore } from '@plinth/storage';
import { EtcdObjectStore } from '@plinth/storage-etcd';

export const defaultStorageAddress = '127.0.0.1:7443';

export type StorageBackendConfig = { kind: 'etcd'; endpoints: string[] } | { kind: 'embedded'; dataDir?: string };

export interface StorageConfig {
  address: string;
  backend: StorageBackendConfig;
}

export function storageConfigFromEnv(env: NodeJS.ProcessEnv): StorageConfig {
  const endpoints = (env.PLINTH_ETCD_ENDPOINTS ?? '')
    .split(',')
    .map((endpoint) => endpoint.trim())
    .filter((endpoint) => endpoint !== '');
  return {
    address: env.PLINTH_STORAGE_ADDRESS || defaultStorageAddress,
    backend: endpoints.length > 0 ? { kind: 'etcd', endpoints } : { kind: 'embedded', dataDir: env.PLINTH_DATA_DIR || undefined },
  };
}

export function openStorageBackend(config: StorageBackendConfig): ObjectStore {
  return config.kind === 'etcd' ? new EtcdObjectStore({ endpoints: config.endpoints }) : new EmbeddedObjectStore({ dataDir: config.dataDir });
}

// describeStorageBackend names the backend for the start-up log.
export function describeStorageBackend(config: StorageBackendConfig): string {
  if (config.kind === 'etcd') return `etcd at ${config.endpoints.join(', ')}`;
  return config.dataDir ? `embedded store in ${config.dataDir}` : 'embedded store in memory (nothing is persisted)';
}
