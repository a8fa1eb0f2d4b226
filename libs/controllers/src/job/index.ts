// Generic names (Pod, PodSpec, isActive, ...) stay inside the folder so that they do not clash
// with other controllers' names at the library root.
export type { Job, JobCondition, JobSpec, JobStatus, Pod as JobPod, PodFailurePolicy, UncountedTerminatedPods } from './types';
export {
  ControllerUidLabel,
  IndexedCompletion,
  JobCompletionIndexAnnotation,
  JobNameLabel,
  JobTrackingFinalizer,
  LegacyControllerUidLabel,
  LegacyJobNameLabel,
  NonIndexedCompletion,
  jobFeatureGateDefaults,
} from './types';
export { syncJob, MaxPodCreateDeletePerSync } from './job-sync';
export type { JobEvent, JobSyncInput, JobSyncPlan, PodDeletion } from './job-sync';
export type { BackoffRecord } from './backoff';
export { DefaultJobPodFailureBackOffMs, MaxJobPodFailureBackOffMs } from './backoff';
export { releasesOrphanFinalizer } from './orphan-pods';
export { isJobFinished, JobComplete, JobFailed, JobFailureTarget, JobReasons, JobSuspended } from './conditions';
export { formatCompletedIndexes, parseCompletedIndexes } from './indexed';
export { hasTrackingFinalizer as hasJobTrackingFinalizer } from './pod-status';
