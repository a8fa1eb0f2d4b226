export { ApiClient, ClientCredentials, WatchEvent, WatchStream, PatchType, resourcePath } from './api-client';
export { Informer, InformerHandlers, objectKey } from './informer';
export { WorkQueue, runWorkers } from './work-queue';
export { LeaderElector, LeaderElectionOptions } from './leader-election';
export { resyncPeriod } from './resync';
