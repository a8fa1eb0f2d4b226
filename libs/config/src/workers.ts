import { PlatformControllerManagerConfiguration } from './types';

// controllerWorkers maps the controllers Plinth runs to their worker counts (Concurrent*Syncs).
export function controllerWorkers(config: PlatformControllerManagerConfiguration): Record<string, number> {
  return {
    job: config.JobController.ConcurrentJobSyncs,
    daemonset: config.DaemonSetController.ConcurrentDaemonSetSyncs,
    'ttl-after-finished': config.TTLAfterFinishedController.ConcurrentTTLSyncs,
    garbagecollector: config.GarbageCollectorController.ConcurrentGCSyncs,
    namespace: config.NamespaceController.ConcurrentNamespaceSyncs,
  };
}
