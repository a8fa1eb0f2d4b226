import { FlagError, parseStorageConfig } from './storage-config';

const tlsEnv = { PLINTH_TLS_CERT_FILE: '/tls/tls.crt', PLINTH_TLS_PRIVATE_KEY_FILE: '/tls/tls.key', PLINTH_CLIENT_CA_FILE: '/tls/ca.crt' };
const defaultClients = [
  { field: 'CN', value: 'plinth-gateway' },
  { field: 'CN', value: 'plinth-authz' },
  { field: 'CN', value: 'plinth-controller-manager' },
];

describe('parseStorageConfig', () => {
  it('refuses to serve plaintext unless --storage-insecure says so', () => {
    expect(() => parseStorageConfig([], {})).toThrow(FlagError);
    expect(() => parseStorageConfig([], {})).toThrow(/serves only mutual TLS: set --tls-cert-file, --tls-private-key-file and --client-ca-file \(or --storage-insecure/);
    expect(() => parseStorageConfig(['--tls-cert-file=/a', '--tls-private-key-file=/b'], {})).toThrow(/serves only mutual TLS/);
    expect(parseStorageConfig(['--storage-insecure'], {})).toEqual({ address: '127.0.0.1:7443', backend: { kind: 'embedded', dataDir: undefined }, tls: undefined, metricsBindAddress: '' });
    expect(parseStorageConfig(['--storage-insecure', '--metrics-bind-address', '0.0.0.0:9090'], {}).metricsBindAddress).toBe('0.0.0.0:9090');
    expect(parseStorageConfig([], { PLINTH_STORAGE_INSECURE: 'true' }).tls).toBeUndefined();
    expect(() => parseStorageConfig([], { PLINTH_STORAGE_INSECURE: 'yes' })).toThrow('invalid value "yes" for PLINTH_STORAGE_INSECURE: must be true or false');
  });

  it('serves mutual TLS to the gateway, authz and the controller manager by default', () => {
    expect(parseStorageConfig([], tlsEnv).tls).toEqual({ certFile: '/tls/tls.crt', keyFile: '/tls/tls.key', caFile: '/tls/ca.crt', allowedClients: defaultClients });
    expect(parseStorageConfig(['--tls-cert-file', '/f/c', '--tls-private-key-file=/f/k', '--client-ca-file=/f/ca'], {}).tls).toMatchObject({ certFile: '/f/c', keyFile: '/f/k', caFile: '/f/ca' });
  });

  it('takes the allowed identities by CN or O, flags over the environment', () => {
    const env = { ...tlsEnv, PLINTH_ALLOWED_CLIENTS: 'O=plinth:storage-clients' };
    expect(parseStorageConfig([], env).tls?.allowedClients).toEqual([{ field: 'O', value: 'plinth:storage-clients' }]);
    expect(parseStorageConfig(['--allowed-clients', 'CN=a, b ,O=c'], env).tls?.allowedClients).toEqual([
      { field: 'CN', value: 'a' },
      { field: 'CN', value: 'b' },
      { field: 'O', value: 'c' },
    ]);
    expect(() => parseStorageConfig(['--allowed-clients=OU=x'], tlsEnv)).toThrow('--allowed-clients: invalid client identity "OU=x": want CN=name, O=organization or a name');
    expect(() => parseStorageConfig(['--allowed-clients=,'], tlsEnv)).toThrow('--allowed-clients: at least one client identity is needed');
  });

  it('uses etcd when servers are given, ignoring blanks around and between them', () => {
    const config = parseStorageConfig([], {
      ...tlsEnv,
      PLINTH_ETCD_ENDPOINTS: ' http://10.0.0.1:2379, http://10.0.0.2:2379,, ',
      PLINTH_DATA_DIR: '/var/lib/plinth',
      PLINTH_STORAGE_ADDRESS: '0.0.0.0:0',
    });
    expect(config.address).toBe('0.0.0.0:0');
    expect(config.backend).toEqual({ kind: 'etcd', endpoints: ['http://10.0.0.1:2379', 'http://10.0.0.2:2379'], tls: undefined });
    expect(parseStorageConfig(['--etcd-servers=https://e:2379'], { ...tlsEnv, PLINTH_ETCD_SERVERS: 'https://f:2379' }).backend).toMatchObject({ endpoints: ['https://e:2379'] });
  });

  it('takes kube-apiserver\'s etcd TLS flags and their environment', () => {
    const etcd = ['--etcd-servers=https://e:2379', '--etcd-cafile=/etcd/ca.crt', '--etcd-certfile=/etcd/c.crt', '--etcd-keyfile=/etcd/c.key'];
    expect(parseStorageConfig(etcd, tlsEnv).backend).toEqual({ kind: 'etcd', endpoints: ['https://e:2379'], tls: { caFile: '/etcd/ca.crt', certFile: '/etcd/c.crt', keyFile: '/etcd/c.key' } });
    const env = { ...tlsEnv, PLINTH_ETCD_SERVERS: 'https://e:2379', PLINTH_ETCD_CAFILE: '/ca' };
    expect(parseStorageConfig([], env).backend).toEqual({ kind: 'etcd', endpoints: ['https://e:2379'], tls: { caFile: '/ca', certFile: undefined, keyFile: undefined } });
    expect(() => parseStorageConfig(['--etcd-certfile=/c'], env)).toThrow('--etcd-certfile and --etcd-keyfile go together');
    expect(() => parseStorageConfig(['--etcd-certfile=/c', '--etcd-keyfile=/k'], { ...tlsEnv, PLINTH_ETCD_SERVERS: 'https://e:2379' })).toThrow(/--etcd-certfile needs --etcd-cafile/);
  });

  it('persists the embedded store in the data directory', () => {
    expect(parseStorageConfig(['--storage-insecure'], { PLINTH_ETCD_ENDPOINTS: '', PLINTH_DATA_DIR: '/data' }).backend).toEqual({ kind: 'embedded', dataDir: '/data' });
  });

  it.each([
    [['--nats-url=x'], 'unknown flag: --nats-url'],
    [['--etcd-servers'], 'flag needs an argument: --etcd-servers'],
    [['--tls-cert-file='], 'flag --tls-cert-file needs a non-empty value'],
    [['x'], 'unexpected argument: x'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseStorageConfig(argv, tlsEnv)).toThrow(new FlagError(message));
  });
});
