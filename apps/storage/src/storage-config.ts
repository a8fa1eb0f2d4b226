// The storage service's configuration: flags, falling back to the environment (the chart's
// form), then defaults.
//   --storage-address        PLINTH_STORAGE_ADDRESS        host:port to serve gRPC on (127.0.0.1:7443; port 0 picks one)
//   --tls-cert-file          PLINTH_TLS_CERT_FILE          the service's serving certificate (PEM)
//   --tls-private-key-file   PLINTH_TLS_PRIVATE_KEY_FILE   its key
//   --client-ca-file         PLINTH_CLIENT_CA_FILE         the CA a client certificate must be signed by
//   --allowed-clients        PLINTH_ALLOWED_CLIENTS        client identities served: CN=name, O=organization or a name (a CN);
//                                                          default CN=plinth-gateway,CN=plinth-authz,CN=plinth-controller-manager
//   --storage-insecure       PLINTH_STORAGE_INSECURE       serve plaintext to anyone (local development only)
//   --etcd-servers           PLINTH_ETCD_SERVERS           comma-separated etcd client URLs: store in etcd (or PLINTH_ETCD_ENDPOINTS)
//   --etcd-cafile            PLINTH_ETCD_CAFILE            the CA of etcd's serving certificate (https:// servers)
//   --etcd-certfile          PLINTH_ETCD_CERTFILE          the client certificate etcd's --client-cert-auth checks
//   --etcd-keyfile           PLINTH_ETCD_KEYFILE           its key
//   --data-dir               PLINTH_DATA_DIR               without etcd, the embedded store's data directory (in memory if unset)
//   --metrics-bind-address   PLINTH_METRICS_BIND_ADDRESS   host:port to serve /metrics and /healthz on, plain HTTP (none if unset)
import { readFileSync } from 'node:fs';
import { listValue, ProcessFlag, ProcessFlagError, readProcessFlags } from '@plinth/config';
import { EmbeddedObjectStore, ObjectStore } from '@plinth/storage';
import { EtcdObjectStore, EtcdObjectStoreOptions, EtcdRequestMetrics } from '@plinth/storage-etcd';
import { defaultRegistry } from '@plinth/metrics';
import { ClientIdentityError, defaultAllowedClients, formatClientIdentity, parseClientIdentities, StorageServerTls } from '@plinth/storage-grpc';

export { ProcessFlagError as FlagError };

export const defaultStorageAddress = '127.0.0.1:7443';

// EtcdTlsFiles are the PEM files of the etcd link (kube-apiserver's --etcd-* flags).
export interface EtcdTlsFiles {
  caFile: string;
  certFile?: string;
  keyFile?: string;
}

export type StorageBackendConfig = { kind: 'etcd'; endpoints: string[]; tls?: EtcdTlsFiles } | { kind: 'embedded'; dataDir?: string };

export interface StorageConfig {
  address: string;
  backend: StorageBackendConfig;
  // tls is how the service serves: mutual TLS, or (undefined) plaintext behind
  // --storage-insecure.
  tls: StorageServerTls | undefined;
  // metricsBindAddress is where Prometheus scrapes the service ('' serves no metrics).
  metricsBindAddress: string;
}

const table = {
  address: { flag: 'storage-address', env: 'PLINTH_STORAGE_ADDRESS' },
  certFile: { flag: 'tls-cert-file', env: 'PLINTH_TLS_CERT_FILE' },
  keyFile: { flag: 'tls-private-key-file', env: 'PLINTH_TLS_PRIVATE_KEY_FILE' },
  caFile: { flag: 'client-ca-file', env: 'PLINTH_CLIENT_CA_FILE' },
  allowedClients: { flag: 'allowed-clients', env: 'PLINTH_ALLOWED_CLIENTS' },
  insecure: { flag: 'storage-insecure', env: 'PLINTH_STORAGE_INSECURE', boolean: true },
  etcdServers: { flag: 'etcd-servers', env: 'PLINTH_ETCD_SERVERS' },
  // PLINTH_ETCD_ENDPOINTS is the name the environment had before --etcd-servers.
  etcdEndpoints: { env: 'PLINTH_ETCD_ENDPOINTS' },
  etcdCaFile: { flag: 'etcd-cafile', env: 'PLINTH_ETCD_CAFILE' },
  etcdCertFile: { flag: 'etcd-certfile', env: 'PLINTH_ETCD_CERTFILE' },
  etcdKeyFile: { flag: 'etcd-keyfile', env: 'PLINTH_ETCD_KEYFILE' },
  dataDir: { flag: 'data-dir', env: 'PLINTH_DATA_DIR' },
  metricsBindAddress: { flag: 'metrics-bind-address', env: 'PLINTH_METRICS_BIND_ADDRESS' },
} satisfies Record<string, ProcessFlag>;

// parseStorageConfig reads the flags and environment; a service that would serve plaintext
// without --storage-insecure, or TLS files given by halves, is an error.
export function parseStorageConfig(argv: string[], env: NodeJS.ProcessEnv): StorageConfig {
  const values = readProcessFlags(table, argv, env);
  const endpoints = listValue(values.etcdServers ?? values.etcdEndpoints);
  return {
    address: values.address ?? defaultStorageAddress,
    backend: endpoints.length > 0 ? { kind: 'etcd', endpoints, tls: etcdTls(values) } : { kind: 'embedded', dataDir: values.dataDir },
    tls: values.insecure === 'true' ? undefined : servingTls(values),
    metricsBindAddress: values.metricsBindAddress ?? '',
  };
}

function servingTls(values: Partial<Record<keyof typeof table, string>>): StorageServerTls {
  const { certFile, keyFile, caFile } = values;
  if (!certFile || !keyFile || !caFile) {
    throw new ProcessFlagError(
      'the storage service serves only mutual TLS: set --tls-cert-file, --tls-private-key-file and --client-ca-file (or --storage-insecure, for local development only)',
    );
  }
  let allowedClients = defaultAllowedClients;
  try {
    if (values.allowedClients !== undefined) allowedClients = parseClientIdentities(listValue(values.allowedClients));
  } catch (err) {
    if (err instanceof ClientIdentityError) throw new ProcessFlagError(`--allowed-clients: ${err.message}`);
    throw err;
  }
  if (allowedClients.length === 0) throw new ProcessFlagError('--allowed-clients: at least one client identity is needed');
  return { certFile, keyFile, caFile, allowedClients };
}

function etcdTls(values: Partial<Record<keyof typeof table, string>>): EtcdTlsFiles | undefined {
  const { etcdCaFile, etcdCertFile, etcdKeyFile } = values;
  if (Boolean(etcdCertFile) !== Boolean(etcdKeyFile)) throw new ProcessFlagError('--etcd-certfile and --etcd-keyfile go together');
  if (!etcdCaFile) {
    if (etcdCertFile) throw new ProcessFlagError('--etcd-certfile needs --etcd-cafile, the CA of etcd\'s serving certificate');
    return undefined;
  }
  return { caFile: etcdCaFile, certFile: etcdCertFile, keyFile: etcdKeyFile };
}

export function openStorageBackend(config: StorageBackendConfig): ObjectStore {
  if (config.kind === 'embedded') return new EmbeddedObjectStore({ dataDir: config.dataDir });
  return new EtcdObjectStore({ ...etcdClientOptions(config), metrics: new EtcdRequestMetrics(defaultRegistry()) });
}

// etcdClientOptions reads the etcd link's files into the options of an etcd client.
export function etcdClientOptions(config: StorageBackendConfig & { kind: 'etcd' }): EtcdObjectStoreOptions {
  const read = (file: string | undefined) => (file ? readFileSync(file) : undefined);
  const tls = config.tls && { ca: readFileSync(config.tls.caFile), cert: read(config.tls.certFile), key: read(config.tls.keyFile) };
  return { endpoints: config.endpoints, tls };
}

// describeStorageBackend names the backend for the start-up log.
export function describeStorageBackend(config: StorageBackendConfig): string {
  if (config.kind === 'etcd') return `etcd at ${config.endpoints.join(', ')}${config.tls?.certFile ? ' (client certificate)' : ''}`;
  return config.dataDir ? `embedded store in ${config.dataDir}` : 'embedded store in memory (nothing is persisted)';
}

// describeServing names how the service serves, for the start-up log.
export function describeServing(tls: StorageServerTls | undefined): string {
  if (!tls) return 'plaintext to any client (--storage-insecure)';
  return `mutual TLS to ${tls.allowedClients.map(formatClientIdentity).join(', ')}`;
}
