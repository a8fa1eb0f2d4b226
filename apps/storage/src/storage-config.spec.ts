import { storageConfigFromEnv } from './storage-config';

describe('storageConfigFromEnv', () => {
  it('serves on the default address over an in-memory embedded store when nothing is set', () => {
    expect(storageConfigFromEnv({})).toEqual({ address: '127.0.0.1:7443', backend: { kind: 'embedded', dataDir: undefined } });
  });

  it('uses etcd when endpoints are given, ignoring blanks around and between them', () => {
    const config = storageConfigFromEnv({
      PLINTH_ETCD_ENDPOINTS: ' http://10.0.0.1:2379, http://10.0.0.2:2379,, ',
      PLINTH_DATA_DIR: '/var/lib/plinth',
      PLINTH_STORAGE_ADDRESS: '0.0.0.0:0',
    });
    expect(config).toEqual({
      address: '0.0.0.0:0',
      backend: { kind: 'etcd', endpoints: ['http://10.0.0.1:2379', 'http://10.0.0.2:2379'] },
    });
  });

  it('persists the embedded store in the data directory', () => {
    expect(storageConfigFromEnv({ PLINTH_ETCD_ENDPOINTS: '', PLINTH_DATA_DIR: '/data' }).backend).toEqual({ kind: 'embedded', dataDir: '/data' });
  });
});
