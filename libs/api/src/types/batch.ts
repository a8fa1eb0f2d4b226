// The shapes of batch/v1 Job, as plain JSON types shared by the registry (strategy, validation)
// and the Job controller. JSON fields may be absent or null (a Go nil pointer): both mean unset.
import { LabelSelector } from '@plinth/machinery';
import { KubeObject } from '../object';
import { PodTemplateSpec } from './core';

export interface PodFailurePolicyRule {
  action?: string;
  onExitCodes?: { containerName?: string | null; operator?: string; values?: number[] | null } | null;
  onPodConditions?: { type?: string; status?: string }[] | null;
}

export interface PodFailurePolicy {
  rules?: PodFailurePolicyRule[] | null;
}

export interface JobSpec {
  parallelism?: number | null;
  completions?: number | null;
  activeDeadlineSeconds?: number | null;
  podFailurePolicy?: PodFailurePolicy | null;
  backoffLimit?: number | null;
  backoffLimitPerIndex?: number | null;
  maxFailedIndexes?: number | null;
  selector?: LabelSelector | null;
  manualSelector?: boolean | null;
  template?: PodTemplateSpec | null;
  ttlSecondsAfterFinished?: number | null;
  completionMode?: string | null;
  suspend?: boolean | null;
  podReplacementPolicy?: string | null;
  [field: string]: unknown;
}

export interface JobCondition {
  type: string;
  status: string;
  lastProbeTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface UncountedTerminatedPods {
  succeeded?: string[] | null;
  failed?: string[] | null;
}

export interface JobStatus {
  conditions?: JobCondition[] | null;
  startTime?: string | null;
  completionTime?: string | null;
  active?: number;
  succeeded?: number;
  failed?: number;
  terminating?: number | null;
  completedIndexes?: string;
  failedIndexes?: string | null;
  uncountedTerminatedPods?: UncountedTerminatedPods | null;
  ready?: number | null;
  [field: string]: unknown;
}

export interface Job extends KubeObject {
  spec?: JobSpec;
  status?: JobStatus;
}

// Names of batch/v1 (renamed *.platform.io); the legacy labels are still written in 1.28.
export const JobNameLabel = 'batch.platform.io/job-name';
export const ControllerUidLabel = 'batch.platform.io/controller-uid';
export const LegacyJobNameLabel = 'job-name';
export const LegacyControllerUidLabel = 'controller-uid';
export const JobCompletionIndexAnnotation = 'batch.platform.io/job-completion-index';
export const JobTrackingFinalizer = 'batch.platform.io/job-tracking';

export const NonIndexedCompletion = 'NonIndexed';
export const IndexedCompletion = 'Indexed';
