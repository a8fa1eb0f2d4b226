export { ApiClient, ClientCredentials, WatchEvent, WatchStream, PatchType, RequestInstrumentation, resourcePath, setRequestInstrumentation } from './api-client';
export { Informer, InformerHandlers, objectKey } from './informer';
export { SyncInstrumentation, WorkQueue, WorkQueueOptions, runWorkers, setSyncInstrumentation, setWorkQueueMetricsProvider } from './work-queue';
export { LeaderElector, LeaderElectionOptions } from './leader-election';
export { resyncPeriod } from './resync';
