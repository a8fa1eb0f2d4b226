import { controllerManagerFlagSet, defaultControllerManagerFlags } from './controller-manager-flags';
import { FlagError, flagSet, parseFlags } from './flag-set';

function parse(argv: string[]) {
  const { flags, set } = controllerManagerFlagSet();
  parseFlags(argv, set);
  return flags;
}

describe('controller manager flags', () => {
  it('reads --controllers, --simulated-nodes and --feature-gates, refusing what is not its own', () => {
    expect(parse(['--controllers=job,-daemonset', '--simulated-nodes', '2', '--feature-gates', 'A=true', '--feature-gates=B=false'])).toMatchObject({
      controllers: ['job', '-daemonset'],
      simulatedNodes: 2,
      featureGates: 'A=true,B=false',
    });
    expect(() => parse(['--port', '6443'])).toThrow(new FlagError('unknown flag: --port'));
    expect(() => parse(['--simulated-nodes', 'x'])).toThrow('invalid argument "x" for "--simulated-nodes" flag: must be a non-negative integer');
  });

  it('reads --metrics-bind-address as host:port', () => {
    expect(parse([]).metricsBindAddress).toBe('');
    expect(parse(['--metrics-bind-address', '0.0.0.0:10252']).metricsBindAddress).toBe('0.0.0.0:10252');
    expect(parse(['--metrics-bind-address=[::1]:10252']).metricsBindAddress).toBe('[::1]:10252');
    expect(() => parse(['--metrics-bind-address', '10252'])).toThrow('invalid argument "10252" for "--metrics-bind-address" flag: must be host:port');
  });

  it('reads the --leader-elect flags of kube-controller-manager', () => {
    expect(parse([]).leaderElection).toEqual({ leaderElect: true, leaseDurationMs: 15000, renewDeadlineMs: 10000, retryPeriodMs: 2000, resourceName: 'kube-controller-manager', resourceNamespace: 'kube-system' });
    const flags = parse(['--leader-elect=false', '--leader-elect-lease-duration', '1m30s', '--leader-elect-renew-deadline=45s', '--leader-elect-retry-period', '500ms', '--leader-elect-resource-name', 'kcm', '--leader-elect-resource-namespace=ops', '--leader-elect-resource-lock', 'leases']);
    expect(flags.leaderElection).toEqual({ leaderElect: false, leaseDurationMs: 90000, renewDeadlineMs: 45000, retryPeriodMs: 500, resourceName: 'kcm', resourceNamespace: 'ops' });
    expect(parse(['--leader-elect']).leaderElection.leaderElect).toBe(true);
    expect(() => parse(['--leader-elect-lease-duration', '15'])).toThrow('invalid argument "15" for "--leader-elect-lease-duration" flag: time: missing unit in duration "15"');
    expect(() => parse(['--leader-elect-resource-lock', 'endpoints'])).toThrow('only leases is supported');
  });

  it('leaves the defaults it was given untouched', () => {
    parse(['--controllers=job', '--leader-elect=false']);
    expect(defaultControllerManagerFlags.controllers).toEqual(['*']);
    expect(defaultControllerManagerFlags.leaderElection.leaderElect).toBe(true);
  });
});

describe('parseFlags over several flag sets', () => {
  it('gives a flag to every set that declares it, and refuses one no set declares', () => {
    const a = { gates: '', port: 0 };
    const b = { gates: '', nodes: 0 };
    const setA = flagSet(a, { 'feature-gates': (f, v) => (f.gates = v), port: (f, v) => (f.port = Number(v)) });
    const setB = flagSet(b, { 'feature-gates': (f, v) => (f.gates = v), nodes: (f, v) => (f.nodes = Number(v)) });
    parseFlags(['--feature-gates', 'X=true', '--port=6443', '--nodes', '2'], setA, setB);
    expect(a).toEqual({ gates: 'X=true', port: 6443 });
    expect(b).toEqual({ gates: 'X=true', nodes: 2 });
    expect(() => parseFlags(['--bogus'], setA, setB)).toThrow('unknown flag: --bogus');
    expect(() => parseFlags(['stray'], setA)).toThrow('unexpected argument: stray');
    expect(() => parseFlags(['--port'], setA)).toThrow('flag needs an argument: --port');
  });
});
