import { FlagError } from '@plinth/config';
import { defaultServerFlags, parseServerFlags } from './flags';

describe('server flags', () => {
  it('reads --name value and --name=value forms, and refuses unknown flags', () => {
    const flags = parseServerFlags(['--port', '7443', '--data-dir=/tmp/x', '--feature-gates', 'WatchList=true', '--anonymous-auth']);
    expect(flags).toMatchObject({ securePort: 7443, dataDir: '/tmp/x', featureGates: 'WatchList=true', anonymousAuth: true });
    expect(() => parseServerFlags(['--bogus'])).toThrow(FlagError);
    expect(() => parseServerFlags(['--port', 'x'])).toThrow('invalid argument "x" for "--port" flag');
  });

  it('reads the gateway\'s storage link TLS and NATS TLS and credentials flags', () => {
    expect(parseServerFlags([])).toMatchObject({ storageCAFile: '', storageCertFile: '', storageKeyFile: '', storageInsecure: false, natsCAFile: '', natsUser: '', natsPasswordFile: '' });
    const flags = parseServerFlags([
      '--storage-ca-file=/l/ca.crt', '--storage-cert-file', '/l/gw.crt', '--storage-key-file=/l/gw.key',
      '--nats-ca-file=/l/ca.crt', '--nats-user', 'plinth-gateway', '--nats-password-file=/l/pw',
    ]);
    expect(flags).toMatchObject({ storageCAFile: '/l/ca.crt', storageCertFile: '/l/gw.crt', storageKeyFile: '/l/gw.key', natsCAFile: '/l/ca.crt', natsUser: 'plinth-gateway', natsPasswordFile: '/l/pw' });
    expect(parseServerFlags(['--storage-insecure']).storageInsecure).toBe(true);
    expect(parseServerFlags(['--nats-insecure']).natsInsecure).toBe(true);
    expect(() => parseServerFlags(['--storage-insecure=yes'])).toThrow('invalid argument "yes" for "--storage-insecure" flag: must be true or false');
  });

  it('serves anonymous requests by default, as kube-apiserver does, unless --anonymous-auth=false', () => {
    expect(parseServerFlags([]).anonymousAuth).toBe(true);
    expect(parseServerFlags(['--anonymous-auth=false']).anonymousAuth).toBe(false);
    expect(parseServerFlags(['--k8s-aliases=false']).k8sAliases).toBe(false);
    expect(parseServerFlags([]).k8sAliases).toBe(true);
  });

  it('reads --delete-collection-workers as the deletes one deletecollection runs at once', () => {
    expect(parseServerFlags([]).deleteCollectionWorkers).toBe(16);
    expect(parseServerFlags(['--delete-collection-workers=1']).deleteCollectionWorkers).toBe(1);
    expect(() => parseServerFlags(['--delete-collection-workers', 'many'])).toThrow('invalid argument "many" for "--delete-collection-workers" flag');
  });

  it('reads the storage link\'s pending-call cap and keepalive, without changing the defaults', () => {
    expect(parseServerFlags([]).storageLink).toEqual({ maxPendingCalls: 10_000, keepaliveTimeMs: 30_000, keepaliveTimeoutMs: 10_000 });
    const flags = parseServerFlags(['--storage-max-pending-calls=100', '--storage-keepalive-time', '45s', '--storage-keepalive-timeout=3s']);
    expect(flags.storageLink).toEqual({ maxPendingCalls: 100, keepaliveTimeMs: 45_000, keepaliveTimeoutMs: 3_000 });
    expect(defaultServerFlags.storageLink.maxPendingCalls).toBe(10_000);
    expect(() => parseServerFlags(['--storage-max-pending-calls=0'])).toThrow('invalid argument "0" for "--storage-max-pending-calls" flag: must be positive');
    expect(() => parseServerFlags(['--storage-keepalive-timeout=soon'])).toThrow('invalid argument "soon" for "--storage-keepalive-timeout" flag');
  });

  it('reads --default-watch-cache-size as the cap of the events each watch cache keeps', () => {
    expect(parseServerFlags([]).watchCacheSize).toBe(102_400);
    expect(parseServerFlags(['--default-watch-cache-size=100']).watchCacheSize).toBe(100);
    expect(() => parseServerFlags(['--default-watch-cache-size', '-1'])).toThrow('invalid argument "-1" for "--default-watch-cache-size" flag');
  });

  it('leaves the controller manager\'s flags to it', () => {
    expect(() => parseServerFlags(['--controllers=job'])).toThrow('unknown flag: --controllers');
    expect(() => parseServerFlags(['--leader-elect'])).toThrow('unknown flag: --leader-elect');
  });

  it('reads --etcd-count-metric-poll-period, a minute by default, 0 to count never', () => {
    expect(parseServerFlags([]).etcdCountMetricPollPeriodMs).toBe(60000);
    expect(parseServerFlags(['--etcd-count-metric-poll-period=30s']).etcdCountMetricPollPeriodMs).toBe(30000);
    expect(parseServerFlags(['--etcd-count-metric-poll-period', '0']).etcdCountMetricPollPeriodMs).toBe(0);
    expect(() => parseServerFlags(['--etcd-count-metric-poll-period', '-1m'])).toThrow('must not be negative');
  });

  it('reads kube-apiserver\'s overload and shutdown flags with its defaults', () => {
    expect(parseServerFlags([])).toMatchObject({ maxRequestsInflight: 400, maxMutatingRequestsInflight: 200, requestTimeoutMs: 60000, shutdownDelayMs: 0, shutdownSendRetryAfter: false, shutdownWatchTerminationGracePeriodMs: 0 });
    const flags = parseServerFlags(['--max-requests-inflight=0', '--max-mutating-requests-inflight', '8', '--request-timeout', '1m30s', '--shutdown-delay-duration=5s', '--shutdown-send-retry-after', '--shutdown-watch-termination-grace-period', '30s']);
    expect(flags).toMatchObject({ maxRequestsInflight: 0, maxMutatingRequestsInflight: 8, requestTimeoutMs: 90000, shutdownDelayMs: 5000, shutdownSendRetryAfter: true, shutdownWatchTerminationGracePeriodMs: 30000 });
    expect(() => parseServerFlags(['--request-timeout', '0s'])).toThrow('invalid argument "0s" for "--request-timeout" flag: must be positive');
    expect(() => parseServerFlags(['--shutdown-delay-duration', '-1s'])).toThrow('must not be negative');
    expect(() => parseServerFlags(['--max-requests-inflight', '-1'])).toThrow('must be a non-negative integer');
  });
});
