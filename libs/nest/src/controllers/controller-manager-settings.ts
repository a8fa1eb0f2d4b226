// controllerManagerSettings turns the controller manager's flags into the ControllerManager's
// settings (the feature gates parsed as the API server parses them).
import { ControllerManagerFlags, parseFeatureGates } from '@plinth/config';
import { ControllerManagerSettings } from '@plinth/controller-manager';

export function controllerManagerSettings(flags: ControllerManagerFlags): ControllerManagerSettings {
  return {
    controllers: flags.controllers,
    controllerWorkers: flags.controllerWorkers,
    minResyncPeriodMs: flags.minResyncPeriodMs,
    namespaceSyncPeriodMs: flags.namespaceSyncPeriodMs,
    leaderElection: flags.leaderElection,
    simulatedNodes: flags.simulatedNodes,
    featureGates: parseFeatureGates(flags.featureGates),
  };
}
