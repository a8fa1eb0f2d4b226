// controllerManagerSettings reads the controller manager's settings from the process flags
// (the all-in-one's and apps/controllers' share one flag parser today).
import { parseFeatureGates, ServerFlags } from '@plinth/apiserver';
import { ControllerManagerSettings } from '@plinth/controller-manager';

export function controllerManagerSettings(flags: ServerFlags): ControllerManagerSettings {
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
