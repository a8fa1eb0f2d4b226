export { Controller, ControllerOptions, ControllerRunner, ControllerRunnerOptions, controllerOwnerKey, tolerating, WatchOptions } from './controller-runner';
export { Expectations } from './expectations';
export { NodeSimulator, NodeSimulatorOptions } from './node-simulator';
export { TtlAfterFinishedController, TtlAfterFinishedControllerOptions } from './ttl-after-finished';
export { GarbageCollector, GarbageCollectorOptions, graphObject } from './garbage-collector';
export { DaemonSetController, DaemonSetControllerOptions } from './daemonset-controller';
export { JobController, JobControllerOptions, statusSyncBatchMs } from './job-controller';
export { ServiceAccountClients, refreshDelay, serviceAccountNamespace, tokenExpirationSeconds } from './service-account-clients';
export { NamespaceController, NamespaceControllerOptions, namespaceDeletionGracePeriodMs, namespaceFinalizer } from './namespace-controller';
export { DiscoveredResource, Discovery, groupDiscoveryFailedMessage, serverPreferredResources } from './discovery';
export { defaultLeaderMigrationConfiguration, FilterResult, kubeControllerManagerComponent, LeaderMigrationConfig, migrationFilter } from './leader-migration';
export { ServiceAccountsController, ServiceAccountsControllerOptions } from './service-account-controller';
export {
  ControllerManager,
  ControllerManagerLog,
  ControllerManagerOptions,
  ControllerManagerSettings,
  ControllerName,
  controllerNames,
} from './controller-manager';
