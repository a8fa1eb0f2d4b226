export { NodeSimulator, NodeSimulatorOptions } from './node-simulator';
export { TtlAfterFinishedController, expiresAt, finishedAt } from './ttl-after-finished';
export { GarbageCollector } from './garbage-collector';
export { DaemonSetController } from './daemonset-controller';
export { JobController } from './job-controller';
export { ServiceAccountClients, refreshDelay, serviceAccountNamespace, tokenExpirationSeconds } from './service-account-clients';
export { NamespaceController, NamespaceControllerOptions, namespaceDeletionGracePeriodMs, namespaceFinalizer } from './namespace-controller';
export { DiscoveredResource, Discovery, groupDiscoveryFailedMessage, serverPreferredResources } from './discovery';
export { defaultLeaderMigrationConfiguration, FilterResult, kubeControllerManagerComponent, LeaderMigrationConfig, migrationFilter } from './leader-migration';
