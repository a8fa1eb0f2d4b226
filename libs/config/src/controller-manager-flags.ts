// The controller manager's command-line flags, kube-controller-manager's where it has one
// (--controllers, --leader-elect*, --metrics-bind-address, --feature-gates) and Plinth's
// --simulated-nodes. apps/controllers reads them alone; the all-in-one beside the API server's.
import { LeaderElectionSettings } from './controller-manager-settings';
import { FlagError, FlagSet, flagSet, FlagSetter, flagValues } from './flag-set';

export interface ControllerManagerFlags {
  // simulatedNodes is how many nodes the node simulator registers (0: none).
  simulatedNodes: number;
  // controllers selects the controllers to run, as the configuration's Controllers list:
  // `*` all default-enabled ones, `foo` enables, `-foo` disables; the first item naming a
  // controller wins.
  controllers: string[];
  // controllerWorkers sets each controller's workers (Concurrent*Syncs of the configuration
  // document); a controller not named keeps its default.
  controllerWorkers: Record<string, number>;
  // metricsBindAddress (host:port) is where a controller-manager process serves /metrics over
  // plain HTTP; empty: not served.
  metricsBindAddress: string;
  // minResyncPeriodMs is the configuration document's MinResyncPeriod: informers resync every
  // random(MinResyncPeriod, 2×MinResyncPeriod).
  minResyncPeriodMs: number;
  // namespaceSyncPeriodMs is NamespaceController.NamespaceSyncPeriod.
  namespaceSyncPeriodMs: number;
  // leaderElection is Generic.LeaderElection (--leader-elect-* flags).
  leaderElection: LeaderElectionSettings;
  // featureGates is the --feature-gates text (the all-in-one shares it with the API server).
  featureGates: string;
}

export const defaultControllerManagerFlags: ControllerManagerFlags = {
  simulatedNodes: 3,
  controllers: ['*'],
  controllerWorkers: {},
  metricsBindAddress: '',
  minResyncPeriodMs: 12 * 3600 * 1000,
  namespaceSyncPeriodMs: 5 * 60 * 1000,
  leaderElection: { leaderElect: true, leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000, resourceName: 'kube-controller-manager', resourceNamespace: 'kube-system' },
  featureGates: '',
};

const { bool, duration, int, list } = flagValues;

const setters: Record<string, FlagSetter<ControllerManagerFlags>> = {
  'simulated-nodes': (f, v) => (f.simulatedNodes = int('simulated-nodes', v)),
  controllers: (f, v) => (f.controllers = list(v)),
  'feature-gates': (f, v) => (f.featureGates = f.featureGates ? `${f.featureGates},${v}` : v),
  'leader-elect': (f, v) => (f.leaderElection = { ...f.leaderElection, leaderElect: bool('leader-elect', v) }),
  'leader-elect-lease-duration': (f, v) => (f.leaderElection = { ...f.leaderElection, leaseDurationMs: duration('leader-elect-lease-duration', v) }),
  'leader-elect-renew-deadline': (f, v) => (f.leaderElection = { ...f.leaderElection, renewDeadlineMs: duration('leader-elect-renew-deadline', v) }),
  'leader-elect-retry-period': (f, v) => (f.leaderElection = { ...f.leaderElection, retryPeriodMs: duration('leader-elect-retry-period', v) }),
  'leader-elect-resource-name': (f, v) => (f.leaderElection = { ...f.leaderElection, resourceName: v }),
  'leader-elect-resource-namespace': (f, v) => (f.leaderElection = { ...f.leaderElection, resourceNamespace: v }),
  'leader-elect-resource-lock': (_f, v) => {
    if (v !== 'leases') throw new FlagError(`invalid argument "${v}" for "--leader-elect-resource-lock" flag: only leases is supported`);
  },
  'metrics-bind-address': (f, v) => {
    if (!/^(\[[0-9a-fA-F:.]+\]|[^:]*):\d+$/.test(v)) throw new FlagError(`invalid argument "${v}" for "--metrics-bind-address" flag: must be host:port`);
    f.metricsBindAddress = v;
  },
};

// controllerManagerFlagSet binds the flags to a copy of defaults, which it returns filled once
// parseFlags ran.
export function controllerManagerFlagSet(defaults: ControllerManagerFlags = defaultControllerManagerFlags): { flags: ControllerManagerFlags; set: FlagSet } {
  const flags: ControllerManagerFlags = { ...defaults, controllers: [...defaults.controllers], leaderElection: { ...defaults.leaderElection } };
  return { flags, set: flagSet(flags, setters, ['leader-elect']) };
}
