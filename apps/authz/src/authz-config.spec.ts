import { FlagError, parseAuthzConfig } from './authz-config';

describe('parseAuthzConfig', () => {
  it('uses the defaults when nothing is set', () => {
    expect(parseAuthzConfig([], {})).toEqual({ storageAddress: '127.0.0.1:7443', natsUrl: 'nats://127.0.0.1:4222' });
  });

  it('takes the environment, and flags over it in both forms', () => {
    const env = { PLINTH_STORAGE_ADDRESS: 'storage:7443', PLINTH_NATS_URL: 'nats://nats:4222' };
    expect(parseAuthzConfig([], env)).toEqual({ storageAddress: 'storage:7443', natsUrl: 'nats://nats:4222' });
    expect(parseAuthzConfig(['--storage-address=10.0.0.1:1', '--nats-url', 'nats://10.0.0.2:4222'], env)).toEqual({
      storageAddress: '10.0.0.1:1',
      natsUrl: 'nats://10.0.0.2:4222',
    });
  });

  it.each([
    [['--etcd-servers=x'], 'unknown flag: --etcd-servers'],
    [['--nats-url'], 'flag needs an argument: --nats-url'],
    [['--nats-url='], 'flag --nats-url needs a non-empty value'],
    [['nats://x'], 'unexpected argument: nats://x'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseAuthzConfig(argv, {})).toThrow(new FlagError(message));
  });
});
