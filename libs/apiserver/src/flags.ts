// ServerFlags are the command-line flags of the API server processes (npm start, the gateway),
// spelled as kube-apiserver spells them where one exists.
import { LeaderElectionSettings, parseDuration } from '@plinth/config';

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
  // simulatedNodes is how many nodes the node simulator registers in the all-in-one (0: none).
  simulatedNodes: number;
  // controllers selects the controllers to run, as the controller manager's Controllers list:
  // `*` all default-enabled ones, `foo` enables, `-foo` disables; the first item naming a
  // controller wins.
  controllers: string[];
  // controllerWorkers sets each controller's workers (Concurrent*Syncs of the configuration
  // document); a controller not named keeps its default.
  controllerWorkers: Record<string, number>;
  // metricsBindAddress (host:port) is where the controller manager serves /metrics over plain
  // HTTP; empty: not served. The API server serves /metrics on its secure port regardless.
  metricsBindAddress: string;
  // minResyncPeriodMs is the configuration document's MinResyncPeriod: informers resync every
  // random(MinResyncPeriod, 2×MinResyncPeriod).
  minResyncPeriodMs: number;
  // namespaceSyncPeriodMs is NamespaceController.NamespaceSyncPeriod.
  namespaceSyncPeriodMs: number;
  // leaderElection is the controller manager's Generic.LeaderElection (--leader-elect-* flags).
  leaderElection: LeaderElectionSettings;
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
}

export class FlagError extends Error {}

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
  natsUrl: '',
  natsCAFile: '',
  natsUser: '',
  natsPasswordFile: '',
  natsInsecure: false,
  watchCache: true,
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
  anonymousAuth: false,
  simulatedNodes: 3,
  controllers: ['*'],
  controllerWorkers: {},
  metricsBindAddress: '',
  minResyncPeriodMs: 12 * 3600 * 1000,
  namespaceSyncPeriodMs: 5 * 60 * 1000,
  leaderElection: { leaderElect: true, leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000, resourceName: 'kube-controller-manager', resourceNamespace: 'kube-system' },
  maxRequestsInflight: 400,
  maxMutatingRequestsInflight: 200,
  requestTimeoutMs: 60_000,
  shutdownDelayMs: 0,
  shutdownSendRetryAfter: false,
};

type Setter = (flags: ServerFlags, value: string) => void;

const int = (name: string, value: string): number => {
  if (!/^\d+$/.test(value)) throw new FlagError(`invalid argument "${value}" for "--${name}" flag: must be a non-negative integer`);
  return Number(value);
};

const duration = (name: string, value: string): number => {
  try {
    return parseDuration(value);
  } catch (err) {
    throw new FlagError(`invalid argument "${value}" for "--${name}" flag: ${(err as Error).message}`);
  }
};

const positiveDuration = (name: string, value: string): number => {
  const ms = duration(name, value);
  if (ms <= 0) throw new FlagError(`invalid argument "${value}" for "--${name}" flag: must be positive`);
  return ms;
};

const nonNegativeDuration = (name: string, value: string): number => {
  const ms = duration(name, value);
  if (ms < 0) throw new FlagError(`invalid argument "${value}" for "--${name}" flag: must not be negative`);
  return ms;
};

const bool = (name: string, value: string): boolean => {
  if (value === '' || value === 'true') return true;
  if (value === 'false') return false;
  throw new FlagError(`invalid argument "${value}" for "--${name}" flag: must be true or false`);
};

const setters: Record<string, Setter> = {
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
  'nats-url': (f, v) => (f.natsUrl = v),
  'nats-ca-file': (f, v) => (f.natsCAFile = v),
  'nats-user': (f, v) => (f.natsUser = v),
  'nats-password-file': (f, v) => (f.natsPasswordFile = v),
  'nats-insecure': (f, v) => (f.natsInsecure = bool('nats-insecure', v)),
  'watch-cache': (f, v) => (f.watchCache = bool('watch-cache', v)),
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
  'simulated-nodes': (f, v) => (f.simulatedNodes = int('simulated-nodes', v)),
  controllers: (f, v) => (f.controllers = list(v)),
  'leader-elect': (f, v) => (f.leaderElection = { ...f.leaderElection, leaderElect: bool('leader-elect', v) }),
  'leader-elect-lease-duration': (f, v) => (f.leaderElection = { ...f.leaderElection, leaseDurationMs: duration('leader-elect-lease-duration', v) }),
  'leader-elect-renew-deadline': (f, v) => (f.leaderElection = { ...f.leaderElection, renewDeadlineMs: duration('leader-elect-renew-deadline', v) }),
  'leader-elect-retry-period': (f, v) => (f.leaderElection = { ...f.leaderElection, retryPeriodMs: duration('leader-elect-retry-period', v) }),
  'leader-elect-resource-name': (f, v) => (f.leaderElection = { ...f.leaderElection, resourceName: v }),
  'leader-elect-resource-namespace': (f, v) => (f.leaderElection = { ...f.leaderElection, resourceNamespace: v }),
  'leader-elect-resource-lock': (_f, v) => {
    if (v !== 'leases') throw new FlagError(`invalid argument "${v}" for "--leader-elect-resource-lock" flag: only leases is supported`);
  },
  'max-requests-inflight': (f, v) => (f.maxRequestsInflight = int('max-requests-inflight', v)),
  'max-mutating-requests-inflight': (f, v) => (f.maxMutatingRequestsInflight = int('max-mutating-requests-inflight', v)),
  'request-timeout': (f, v) => (f.requestTimeoutMs = positiveDuration('request-timeout', v)),
  'shutdown-delay-duration': (f, v) => (f.shutdownDelayMs = nonNegativeDuration('shutdown-delay-duration', v)),
  'shutdown-send-retry-after': (f, v) => (f.shutdownSendRetryAfter = bool('shutdown-send-retry-after', v)),
  'metrics-bind-address': (f, v) => {
    if (!/^(\[[0-9a-fA-F:.]+\]|[^:]*):\d+$/.test(v)) throw new FlagError(`invalid argument "${v}" for "--metrics-bind-address" flag: must be host:port`);
    f.metricsBindAddress = v;
  },
};

const booleanFlags = new Set(['k8s-aliases', 'watch-cache', 'anonymous-auth', 'leader-elect', 'storage-insecure', 'nats-insecure', 'shutdown-send-retry-after']);

function list(value: string): string[] {
  return value.split(',').map((v) => v.trim()).filter(Boolean);
}

// parseServerFlags reads --name=value and --name value forms; unknown flags are an error.
export function parseServerFlags(argv: string[], defaults: ServerFlags = defaultServerFlags): ServerFlags {
  const flags: ServerFlags = { ...defaults, etcdServers: [...defaults.etcdServers] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new FlagError(`unexpected argument: ${arg}`);
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
    const setter = setters[name];
    if (!setter) throw new FlagError(`unknown flag: --${name}`);
    let value: string;
    if (eq >= 0) value = arg.slice(eq + 1);
    else if (booleanFlags.has(name)) value = '';
    else {
      if (i + 1 >= argv.length) throw new FlagError(`flag needs an argument: --${name}`);
      value = argv[++i];
    }
    setter(flags, value);
  }
  return flags;
}
