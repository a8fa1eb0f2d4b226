import { FlagError, parseAuthzConfig } from './authz-config';

const noTls = { caFile: '', certFile: '', keyFile: '', insecure: false };
const noNatsAuth = { caFile: '', user: '', passwordFile: '', insecure: false };
const defaultLink = { maxPendingCalls: 10_000, keepaliveTimeMs: 30_000, keepaliveTimeoutMs: 10_000 };

describe('parseAuthzConfig', () => {
  it('uses the defaults when nothing is set', () => {
    expect(parseAuthzConfig([], {})).toEqual({ storageAddress: '127.0.0.1:7443', storage: noTls, storageLink: defaultLink, nats: { url: 'nats://127.0.0.1:4222', ...noNatsAuth }, metricsBindAddress: '' });
  });

  it('takes the environment, and flags over it in both forms', () => {
    const env = { PLINTH_STORAGE_ADDRESS: 'storage:7443', PLINTH_NATS_URL: 'nats://nats:4222' };
    expect(parseAuthzConfig([], env)).toMatchObject({ storageAddress: 'storage:7443', nats: { url: 'nats://nats:4222' } });
    expect(parseAuthzConfig(['--storage-address=10.0.0.1:1', '--nats-url', 'nats://10.0.0.2:4222'], env)).toMatchObject({
      storageAddress: '10.0.0.1:1',
      nats: { url: 'nats://10.0.0.2:4222' },
    });
  });

  it('takes the storage link\'s TLS files or --storage-insecure, and NATS TLS and credentials', () => {
    const env = {
      PLINTH_STORAGE_CA_FILE: '/s/ca.crt',
      PLINTH_STORAGE_CERT_FILE: '/s/tls.crt',
      PLINTH_STORAGE_KEY_FILE: '/s/tls.key',
      PLINTH_NATS_CA_FILE: '/n/ca.crt',
      PLINTH_NATS_USER: 'authz',
      PLINTH_NATS_PASSWORD_FILE: '/n/password',
    };
    expect(parseAuthzConfig([], env)).toEqual({
      storageAddress: '127.0.0.1:7443',
      storage: { caFile: '/s/ca.crt', certFile: '/s/tls.crt', keyFile: '/s/tls.key', insecure: false },
      storageLink: defaultLink,
      nats: { url: 'nats://127.0.0.1:4222', caFile: '/n/ca.crt', user: 'authz', passwordFile: '/n/password', insecure: false },
      metricsBindAddress: '',
    });
    expect(parseAuthzConfig(['--metrics-bind-address=0.0.0.0:9090'], {}).metricsBindAddress).toBe('0.0.0.0:9090');
    expect(parseAuthzConfig([], { PLINTH_METRICS_BIND_ADDRESS: '127.0.0.1:9090' }).metricsBindAddress).toBe('127.0.0.1:9090');
    expect(parseAuthzConfig(['--storage-insecure'], {}).storage.insecure).toBe(true);
    expect(parseAuthzConfig(['--nats-insecure'], {}).nats.insecure).toBe(true);
    expect(parseAuthzConfig(['--storage-insecure=false'], { PLINTH_STORAGE_INSECURE: 'true' }).storage.insecure).toBe(false);
  });

  it('takes the storage link\'s pending-call cap and keepalive, from flags or the environment', () => {
    expect(parseAuthzConfig(['--storage-max-pending-calls=500', '--storage-keepalive-time', '1m'], { PLINTH_STORAGE_KEEPALIVE_TIMEOUT: '2s' }).storageLink).toEqual({
      maxPendingCalls: 500,
      keepaliveTimeMs: 60_000,
      keepaliveTimeoutMs: 2_000,
    });
  });

  it.each([
    [['--storage-max-pending-calls=0'], 'invalid argument "0" for "--storage-max-pending-calls" flag: must be positive'],
    [['--storage-max-pending-calls=many'], 'invalid argument "many" for "--storage-max-pending-calls" flag: must be a non-negative integer'],
    [['--storage-keepalive-time=0s'], 'invalid argument "0s" for "--storage-keepalive-time" flag: must be positive'],
    [['--etcd-servers=x'], 'unknown flag: --etcd-servers'],
    [['--nats-url'], 'flag needs an argument: --nats-url'],
    [['--nats-url='], 'flag --nats-url needs a non-empty value'],
    [['nats://x'], 'unexpected argument: nats://x'],
    [['--storage-insecure=maybe'], 'invalid value "maybe" for --storage-insecure: must be true or false'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseAuthzConfig(argv, {})).toThrow(new FlagError(message));
  });
});
