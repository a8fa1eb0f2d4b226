import { controllerEnabled, FlagError, parseServerFlags } from './flags';

describe('server flags', () => {
  it('reads --name value and --name=value forms, and refuses unknown flags', () => {
    const flags = parseServerFlags(['--port', '7443', '--data-dir=/tmp/x', '--feature-gates', 'WatchList=true', '--anonymous-auth', '--controllers=job,-daemonset']);
    expect(flags).toMatchObject({ securePort: 7443, dataDir: '/tmp/x', featureGates: 'WatchList=true', anonymousAuth: true, controllers: ['job', '-daemonset'] });
    expect(() => parseServerFlags(['--bogus'])).toThrow(FlagError);
    expect(() => parseServerFlags(['--port', 'x'])).toThrow('invalid argument "x" for "--port" flag');
  });

  it('selects controllers as the Controllers list does: first match wins', () => {
    expect(controllerEnabled('job', ['*'])).toBe(true);
    expect(controllerEnabled('job', ['-job', '*'])).toBe(false);
    expect(controllerEnabled('job', ['*', '-job'])).toBe(true);
    expect(controllerEnabled('daemonset', ['job'])).toBe(false);
    expect(controllerEnabled('job', [])).toBe(false);
  });

  it('reads --metrics-bind-address as host:port', () => {
    expect(parseServerFlags([]).metricsBindAddress).toBe('');
    expect(parseServerFlags(['--metrics-bind-address', '0.0.0.0:10252']).metricsBindAddress).toBe('0.0.0.0:10252');
    expect(parseServerFlags(['--metrics-bind-address=[::1]:10252']).metricsBindAddress).toBe('[::1]:10252');
    expect(() => parseServerFlags(['--metrics-bind-address', '10252'])).toThrow('invalid argument "10252" for "--metrics-bind-address" flag: must be host:port');
  });
});
