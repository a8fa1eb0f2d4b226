// ServerFlags are the command-line flags of the API server processes (npm start, the gateway),
// spelled as kube-apiserver spells them where one exists.
import { defaultStorageLinkFlags, FlagSet, flagSet, FlagSetter, flagValues, parseFlags, StorageLinkFlags, storageLinkFlagSetters } from '@plinth/config';

export interface ServerFlags {
  bindAddress: string;
  securePort: number;
  dataDir: string;
  runtimeConfig: string;
  featureGates: string;
  // k8sAliases serves *.k8s.io groups as aliases of their *.platform.io twins.
  k8sAliases: boolean;
  minRequestTimeoutSeconds: number;
  // historyWindowSeconds is how long storage keeps history for watches and continue tokens.
  historyWindowSeconds: number;
  etcdServers: string[];
  storageAddress: string;
  // The storage link's mutual TLS (the gateway's CA, certificate and key), or storageInsecure
  // for plaintext in local development.
  storageCAFile: string;
  storageCertFile: string;
  storageKeyFile: string;
  storageInsecure: boolean;
  // storageLink bounds the link to the storage service: its pending calls and keepalive
  // (--storage-max-pending-calls, --storage-keepalive-time, --storage-keepalive-timeout).
  storageLink: StorageLinkFlags;
  natsUrl: string;
  // natsCAFile turns on TLS to NATS (the CA of its serving certificate); natsUser and
  // natsPasswordFile are the gateway's NATS credentials.
  natsCAFile: string;
  natsUser: string;
  natsPasswordFile: string;
  // natsInsecure allows plaintext NATS (no natsCAFile) in local development.
  natsInsecure: boolean;
  // watchCache serves gets and lists from per-resource watch caches (kube-apiserver's
  // --watch-cache).
  watchCache: boolean;
  // watchCacheSize caps how many recent events each watch cache keeps for watches starting in
  // the past; an older start goes to storage. The window is sized as kube-apiserver 1.28 sizes
  // it (the events of the last 75 s, from 100 up to this cap: kube-apiserver's upper bound by
  // default), where --default-watch-cache-size is deprecated and only 0 changes anything.
  watchCacheSize: number;
  // deleteCollectionWorkers is how many deletes one deletecollection runs at once
  // (kube-apiserver's --delete-collection-workers, whose default is 1; 0 runs one, as there).
  deleteCollectionWorkers: number;
  // etcdCountMetricPollPeriodMs is how often apiserver_storage_objects is counted in storage
  // (kube-apiserver's --etcd-count-metric-poll-period); 0: never.
  etcdCountMetricPollPeriodMs: number;
  // Authentication (kube-apiserver's flags of the same names).
  tokenAuthFile: string;
  clientCAFile: string;
  serviceAccountKeyFiles: string[];
  serviceAccountSigningKeyFile: string;
  serviceAccountIssuers: string[];
  apiAudiences: string[];
  requestHeaderClientCAFile: string;
  requestHeaderAllowedNames: string[];
  requestHeaderUsernameHeaders: string[];
  requestHeaderGroupHeaders: string[];
  requestHeaderExtraHeadersPrefix: string[];
  anonymousAuth: boolean;
  // maxRequestsInflight and maxMutatingRequestsInflight bound the read-only and the mutating
  // requests served at once (long-running ones not counted); 0: no bound.
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  // requestTimeoutMs ends a request that is not long-running with 504 Timeout; it also bounds
  // how long a shutdown waits for the requests in flight (kube-apiserver's ShutdownTimeout).
  requestTimeoutMs: number;
  // shutdownDelayMs is how long a server told to stop keeps serving with /readyz failing, so
  // that load balancers stop sending it traffic first.
  shutdownDelayMs: number;
  // shutdownSendRetryAfter keeps the listener open after the delay until the requests in
  // flight are answered, refusing new ones with 429 and `Retry-After: 5`.
  shutdownSendRetryAfter: boolean;
  // shutdownWatchTerminationGracePeriodMs, when above 0, ends open watches as soon as the
  // listener stops and waits that long at most for them to close, paced; 0 (kube-apiserver's
  // default): watches end once the other requests have drained.
  shutdownWatchTerminationGracePeriodMs: number;
}

export const defaultServerFlags: ServerFlags = {
  bindAddress: '127.0.0.1',
  securePort: 6443,
  dataDir: '.plinth',
  runtimeConfig: '',
  featureGates: '',
  k8sAliases: true,
  minRequestTimeoutSeconds: 1800,
  historyWindowSeconds: 300,
  etcdServers: [],
  storageAddress: '',
  storageCAFile: '',
  storageCertFile: '',
  storageKeyFile: '',
  storageInsecure: false,
  storageLink: defaultStorageLinkFlags,
  natsUrl: '',
  natsCAFile: '',
  natsUser: '',
  natsPasswordFile: '',
  natsInsecure: false,
  watchCache: true,
  watchCacheSize: 102_400,
  deleteCollectionWorkers: 16,
  etcdCountMetricPollPeriodMs: 60_000,
  tokenAuthFile: '',
  clientCAFile: '',
  serviceAccountKeyFiles: [],
  serviceAccountSigningKeyFile: '',
  serviceAccountIssuers: [],
  apiAudiences: [],
  requestHeaderClientCAFile: '',
  requestHeaderAllowedNames: [],
  requestHeaderUsernameHeaders: [],
  requestHeaderGroupHeaders: [],
  requestHeaderExtraHeadersPrefix: [],
  anonymousAuth: true,
  maxRequestsInflight: 400,
  maxMutatingRequestsInflight: 200,
  requestTimeoutMs: 60_000,
  shutdownDelayMs: 0,
  shutdownSendRetryAfter: false,
  shutdownWatchTerminationGracePeriodMs: 0,
};

const { bool, int, list, nonNegativeDuration, positiveDuration } = flagValues;

const setters: Record<string, FlagSetter<ServerFlags>> = {
  'bind-address': (f, v) => (f.bindAddress = v),
  'secure-port': (f, v) => (f.securePort = int('secure-port', v)),
  port: (f, v) => (f.securePort = int('port', v)),
  'data-dir': (f, v) => (f.dataDir = v),
  'runtime-config': (f, v) => (f.runtimeConfig = f.runtimeConfig ? `${f.runtimeConfig},${v}` : v),
  'feature-gates': (f, v) => (f.featureGates = f.featureGates ? `${f.featureGates},${v}` : v),
  'k8s-aliases': (f, v) => (f.k8sAliases = bool('k8s-aliases', v)),
  'min-request-timeout': (f, v) => (f.minRequestTimeoutSeconds = int('min-request-timeout', v)),
  'history-window': (f, v) => (f.historyWindowSeconds = int('history-window', v)),
  'etcd-servers': (f, v) => (f.etcdServers = v.split(',').filter(Boolean)),
  'storage-address': (f, v) => (f.storageAddress = v),
  'storage-ca-file': (f, v) => (f.storageCAFile = v),
  'storage-cert-file': (f, v) => (f.storageCertFile = v),
  'storage-key-file': (f, v) => (f.storageKeyFile = v),
  'storage-insecure': (f, v) => (f.storageInsecure = bool('storage-insecure', v)),
  ...Object.fromEntries(Object.entries(storageLinkFlagSetters).map(([name, set]): [string, FlagSetter<ServerFlags>] => [name, (f, v) => set(f.storageLink, v)])),
  'nats-url': (f, v) => (f.natsUrl = v),
  'nats-ca-file': (f, v) => (f.natsCAFile = v),
  'nats-user': (f, v) => (f.natsUser = v),
  'nats-password-file': (f, v) => (f.natsPasswordFile = v),
  'nats-insecure': (f, v) => (f.natsInsecure = bool('nats-insecure', v)),
  'watch-cache': (f, v) => (f.watchCache = bool('watch-cache', v)),
  'default-watch-cache-size': (f, v) => (f.watchCacheSize = int('default-watch-cache-size', v)),
  'delete-collection-workers': (f, v) => (f.deleteCollectionWorkers = int('delete-collection-workers', v)),
  'etcd-count-metric-poll-period': (f, v) => (f.etcdCountMetricPollPeriodMs = nonNegativeDuration('etcd-count-metric-poll-period', v)),
  'token-auth-file': (f, v) => (f.tokenAuthFile = v),
  'client-ca-file': (f, v) => (f.clientCAFile = v),
  'service-account-key-file': (f, v) => (f.serviceAccountKeyFiles = [...f.serviceAccountKeyFiles, v]),
  'service-account-signing-key-file': (f, v) => (f.serviceAccountSigningKeyFile = v),
  'service-account-issuer': (f, v) => (f.serviceAccountIssuers = [...f.serviceAccountIssuers, v]),
  'api-audiences': (f, v) => (f.apiAudiences = list(v)),
  'requestheader-client-ca-file': (f, v) => (f.requestHeaderClientCAFile = v),
  'requestheader-allowed-names': (f, v) => (f.requestHeaderAllowedNames = list(v)),
  'requestheader-username-headers': (f, v) => (f.requestHeaderUsernameHeaders = list(v)),
  'requestheader-group-headers': (f, v) => (f.requestHeaderGroupHeaders = list(v)),
  'requestheader-extra-headers-prefix': (f, v) => (f.requestHeaderExtraHeadersPrefix = list(v)),
  'anonymous-auth': (f, v) => (f.anonymousAuth = bool('anonymous-auth', v)),
  'max-requests-inflight': (f, v) => (f.maxRequestsInflight = int('max-requests-inflight', v)),
  'max-mutating-requests-inflight': (f, v) => (f.maxMutatingRequestsInflight = int('max-mutating-requests-inflight', v)),
  'request-timeout': (f, v) => (f.requestTimeoutMs = positiveDuration('request-timeout', v)),
  'shutdown-delay-duration': (f, v) => (f.shutdownDelayMs = nonNegativeDuration('shutdown-delay-duration', v)),
  'shutdown-send-retry-after': (f, v) => (f.shutdownSendRetryAfter = bool('shutdown-send-retry-after', v)),
  'shutdown-watch-termination-grace-period': (f, v) => (f.shutdownWatchTerminationGracePeriodMs = nonNegativeDuration('shutdown-watch-termination-grace-period', v)),
};

const booleanFlags = ['k8s-aliases', 'watch-cache', 'anonymous-auth', 'storage-insecure', 'nats-insecure', 'shutdown-send-retry-after'];

// serverFlagSet binds the flags to a copy of defaults, which it returns filled once parseFlags
// ran (the all-in-one reads the controller manager's flags beside them).
export function serverFlagSet(defaults: ServerFlags = defaultServerFlags): { flags: ServerFlags; set: FlagSet } {
  const flags: ServerFlags = { ...defaults, etcdServers: [...defaults.etcdServers], storageLink: { ...defaults.storageLink } };
  return { flags, set: flagSet(flags, setters, booleanFlags) };
}

// parseServerFlags reads --name=value and --name value forms; unknown flags are an error.
export function parseServerFlags(argv: string[], defaults: ServerFlags = defaultServerFlags): ServerFlags {
  const { flags, set } = serverFlagSet(defaults);
  parseFlags(argv, set);
  return flags;
}
