// The authz service's configuration: flags, falling back to the environment, then defaults.
//   --storage-address     PLINTH_STORAGE_ADDRESS     the storage service's host:port (127.0.0.1:7443)
//   --storage-ca-file     PLINTH_STORAGE_CA_FILE     the CA of the storage service's certificate
//   --storage-cert-file   PLINTH_STORAGE_CERT_FILE   authz's client certificate for the storage service
//   --storage-key-file    PLINTH_STORAGE_KEY_FILE    its key
//   --storage-insecure    PLINTH_STORAGE_INSECURE    plaintext to the storage service (local development only)
//   --storage-max-pending-calls  PLINTH_STORAGE_MAX_PENDING_CALLS  calls awaiting answers before one more is refused (10000)
//   --storage-keepalive-time     PLINTH_STORAGE_KEEPALIVE_TIME     how often a quiet link to storage is pinged (30s)
//   --storage-keepalive-timeout  PLINTH_STORAGE_KEEPALIVE_TIMEOUT  how long a ping may go unanswered before the link is reset (10s)
//   --nats-url            PLINTH_NATS_URL            the NATS server(s), comma-separated (nats://127.0.0.1:4222)
//   --nats-ca-file        PLINTH_NATS_CA_FILE        TLS to NATS, trusting this CA
//   --nats-user           PLINTH_NATS_USER           authz's NATS user
//   --nats-password-file  PLINTH_NATS_PASSWORD_FILE  the file holding its password
//   --nats-insecure       PLINTH_NATS_INSECURE       plaintext to NATS (local development only)
//   --metrics-bind-address  PLINTH_METRICS_BIND_ADDRESS  host:port to serve /metrics and /healthz on, plain HTTP (none if unset)
import { defaultStorageLinkFlags, FlagError as InvalidFlagValue, ProcessFlagError, readProcessFlags, StorageLinkFlags, storageLinkFlagSetters } from '@plinth/config';
import { NatsLinkSettings } from '@plinth/authz-nats';
import { StorageLinkSettings } from '@plinth/storage-grpc';

export interface AuthzConfig {
  storageAddress: string;
  storage: StorageLinkSettings;
  storageLink: StorageLinkFlags;
  nats: NatsLinkSettings;
  // metricsBindAddress is where Prometheus scrapes the service ('' serves no metrics).
  metricsBindAddress: string;
}

export { ProcessFlagError as FlagError };

const table = {
  storageAddress: { flag: 'storage-address', env: 'PLINTH_STORAGE_ADDRESS' },
  storageCaFile: { flag: 'storage-ca-file', env: 'PLINTH_STORAGE_CA_FILE' },
  storageCertFile: { flag: 'storage-cert-file', env: 'PLINTH_STORAGE_CERT_FILE' },
  storageKeyFile: { flag: 'storage-key-file', env: 'PLINTH_STORAGE_KEY_FILE' },
  storageInsecure: { flag: 'storage-insecure', env: 'PLINTH_STORAGE_INSECURE', boolean: true },
  storageMaxPendingCalls: { flag: 'storage-max-pending-calls', env: 'PLINTH_STORAGE_MAX_PENDING_CALLS' },
  storageKeepaliveTime: { flag: 'storage-keepalive-time', env: 'PLINTH_STORAGE_KEEPALIVE_TIME' },
  storageKeepaliveTimeout: { flag: 'storage-keepalive-timeout', env: 'PLINTH_STORAGE_KEEPALIVE_TIMEOUT' },
  natsUrl: { flag: 'nats-url', env: 'PLINTH_NATS_URL' },
  natsCaFile: { flag: 'nats-ca-file', env: 'PLINTH_NATS_CA_FILE' },
  natsUser: { flag: 'nats-user', env: 'PLINTH_NATS_USER' },
  natsPasswordFile: { flag: 'nats-password-file', env: 'PLINTH_NATS_PASSWORD_FILE' },
  natsInsecure: { flag: 'nats-insecure', env: 'PLINTH_NATS_INSECURE', boolean: true },
  metricsBindAddress: { flag: 'metrics-bind-address', env: 'PLINTH_METRICS_BIND_ADDRESS' },
};

// parseAuthzConfig reads --name=value and --name value forms; unknown flags are an error.
export function parseAuthzConfig(argv: string[], env: NodeJS.ProcessEnv): AuthzConfig {
  const values = readProcessFlags(table, argv, env);
  return {
    storageAddress: values.storageAddress ?? '127.0.0.1:7443',
    storage: {
      caFile: values.storageCaFile ?? '',
      certFile: values.storageCertFile ?? '',
      keyFile: values.storageKeyFile ?? '',
      insecure: values.storageInsecure === 'true',
    },
    storageLink: storageLinkOf(values),
    nats: {
      url: values.natsUrl ?? 'nats://127.0.0.1:4222',
      caFile: values.natsCaFile ?? '',
      user: values.natsUser ?? '',
      passwordFile: values.natsPasswordFile ?? '',
      insecure: values.natsInsecure === 'true',
    },
    metricsBindAddress: values.metricsBindAddress ?? '',
  };
}

// storageLinkOf reads the storage link's limits with the gateway's parsers (and messages).
function storageLinkOf(values: Partial<Record<keyof typeof table, string>>): StorageLinkFlags {
  const link = { ...defaultStorageLinkFlags };
  const given: [string, string | undefined][] = [
    ['storage-max-pending-calls', values.storageMaxPendingCalls],
    ['storage-keepalive-time', values.storageKeepaliveTime],
    ['storage-keepalive-timeout', values.storageKeepaliveTimeout],
  ];
  try {
    for (const [flag, value] of given) if (value !== undefined) storageLinkFlagSetters[flag](link, value);
  } catch (err) {
    if (err instanceof InvalidFlagValue) throw new ProcessFlagError(err.message);
    throw err;
  }
  return link;
}
