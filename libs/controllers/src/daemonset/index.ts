// Generic names (Pod, PodSpec, ...) stay inside the folder so that they do not clash with
// other controllers' types at the library root.
export type { ControllerRevision, DaemonSet, DaemonSetStatus, IntOrString, Node, Pod as DaemonPod, Taint, Toleration } from './types';
export { ControllerRevisionHashLabel, DeprecatedTemplateGeneration, PodTemplateGenerationLabel } from './types';
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
