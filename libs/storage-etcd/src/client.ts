// newEtcdClient builds the etcd3 client the store runs on: one gRPC channel per endpoint, a
// deadline on every unary call, and none of etcd3's default retries or circuit breaker.
import { Etcd3, IOptions } from 'etcd3';

export interface EtcdObjectStoreOptions {
  // endpoints are etcd client URLs, e.g. http://127.0.0.1:2379.
  endpoints: string[];
  // requestTimeoutMs is the deadline of each request (not of watches). A request etcd does not
  // answer in time fails with Timeout (504 at the API, as kube-apiserver answers an etcd call
  // its request's context ended); one that cannot reach etcd at all, with Unreachable. Default
  // 10 s.
  requestTimeoutMs?: number;
  // tls is for https:// endpoints: the CA that signed etcd's serving certificate and, for
  // etcd's --client-cert-auth, the client certificate and key (PEM).
  tls?: EtcdTls;
}

export interface EtcdTls {
  ca: Buffer;
  cert?: Buffer;
  key?: Buffer;
}

const defaultRequestTimeoutMs = 10_000;

type FaultHandling = NonNullable<IOptions['faultHandling']>;
type FaultPolicy = ReturnType<NonNullable<FaultHandling['host']>>;
type Backoff = NonNullable<FaultHandling['watchBackoff']>;

// passThrough replaces etcd3's default policies (three retries of any recoverable error, and a
// breaker that refuses every call for 5 s after three failures). Retrying a txn whose first
// attempt was applied would turn a successful create into KeyExists, so the store decides
// itself what to retry. etcd3 only calls execute().
//
// etcd3 starts the gRPC call synchronously inside execute, where grpc-js's unary call records
// its caller's stack (a new Error, to append to the error the call may fail with): that stack
// is etcd3's connection pool after an await, never the store's caller, and capturing it was 5%
// of the storage service's CPU a create. The call starts without it (stackTraceLimit 0 for that
// synchronous start only); a failed call's error keeps its message, code and details.
const noSignal = new AbortController().signal;
const passThrough = {
  execute: async <T>(fn: (context: { signal: AbortSignal }) => PromiseLike<T> | T): Promise<T> => withoutCallerStack(() => fn({ signal: noSignal })),
} as unknown as FaultPolicy;

function withoutCallerStack<T>(start: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return start();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

// reattachBackoff is how long etcd3 waits before it opens its watch stream again. The store's
// watches end when the stream fails, so etcd3 only reattaches a watch that arrived while it
// was closing the stream, and there is nothing to back off from.
const reattachBackoff: Backoff = { duration: 50, next: () => reattachBackoff };

export function newEtcdClient(options: EtcdObjectStoreOptions): Etcd3 {
  if (options.endpoints.length === 0) throw new Error('EtcdObjectStore needs at least one endpoint');
  const timeout = options.requestTimeoutMs ?? defaultRequestTimeoutMs;
  return new Etcd3({
    hosts: options.endpoints,
    credentials: options.tls && { rootCertificate: options.tls.ca, certChain: options.tls.cert, privateKey: options.tls.key },
    grpcOptions: {
      // Lists of a large prefix exceed gRPC's default 4 MiB; etcd's own client allows 2 GiB.
      'grpc.max_receive_message_length': 2 ** 31 - 1,
      // Keepalive finds a dead connection under a quiet watch; etcd accepts pings every 5 s.
      'grpc.keepalive_time_ms': 30_000,
      'grpc.keepalive_timeout_ms': 10_000,
      // The store decides what to retry (see passThrough), and channelz is not served: both
      // would only add per-call bookkeeping to every request.
      'grpc.enable_retries': 0,
      'grpc.enable_channelz': 0,
    },
    defaultCallOptions: (context) => (context.isStream ? {} : { deadline: Date.now() + timeout }),
    faultHandling: { host: () => passThrough, global: passThrough, watchBackoff: reattachBackoff },
  });
}
