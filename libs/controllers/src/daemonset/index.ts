// The DaemonSet controller's decisions; the shapes they read (DaemonSet, ControllerRevision,
// Pod, Node) are @plinth/api's.
export { syncDaemonSet } from './daemonset-sync';
export type { DaemonSetSyncInput, DaemonSetSyncPlan } from './daemonset-sync';
export type { BackoffEntry } from './failed-pod-backoff';
export { failedPodsBackoffKey, initialFailedPodBackoffMs, maxFailedPodBackoffMs } from './failed-pod-backoff';
export { nodeShouldRunDaemonPod } from './node-eligibility';
export type { NodePlacement } from './node-eligibility';
export { nodesToDaemonPods, ownedPods, targetNodeName } from './node-pods';
export { isPodAvailable, isPodReady } from './pod-availability';
export { daemonTolerations, newDaemonPod } from './pod-template';
export { computeHash } from './revision-hash';
export { revisionData, revisionMatches } from './revisions';
export { surgeCount, unavailableCount } from './rolling-update';
export { statusChanged } from './status';
