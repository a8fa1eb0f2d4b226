// The shapes of batch/v1 Job that the strategy reads. JSON fields may be absent or null (a Go
// nil pointer); both mean unset.
import { KubeObject } from '@plinth/api';
import { LabelSelector } from '@plinth/machinery';

export interface PodTemplate {
  metadata?: { labels?: Record<string, string> | null; annotations?: Record<string, string> | null; [k: string]: unknown } | null;
  spec?: {
    restartPolicy?: string;
    containers?: { name?: string; image?: string }[] | null;
    initContainers?: { name?: string }[] | null;
    nodeSelector?: Record<string, string> | null;
    tolerations?: unknown[] | null;
    schedulingGates?: unknown[] | null;
    affinity?: { nodeAffinity?: unknown; [k: string]: unknown } | null;
    [k: string]: unknown;
  } | null;
}

export interface PodFailurePolicyRule {
  action?: string;
  onExitCodes?: { containerName?: string | null; operator?: string; values?: number[] | null } | null;
  onPodConditions?: { type?: string; status?: string }[] | null;
}

export interface JobSpec {
  parallelism?: number | null;
  completions?: number | null;
  activeDeadlineSeconds?: number | null;
  podFailurePolicy?: { rules?: PodFailurePolicyRule[] | null } | null;
  backoffLimit?: number | null;
  backoffLimitPerIndex?: number | null;
  maxFailedIndexes?: number | null;
  selector?: LabelSelector | null;
  manualSelector?: boolean | null;
  template?: PodTemplate | null;
  ttlSecondsAfterFinished?: number | null;
  completionMode?: string | null;
  suspend?: boolean | null;
  podReplacementPolicy?: string | null;
}

export interface JobStatus {
  conditions?: { type?: string; status?: string }[] | null;
  startTime?: string | null;
  completionTime?: string | null;
  active?: number;
  succeeded?: number;
  failed?: number;
  terminating?: number | null;
  completedIndexes?: string;
  failedIndexes?: string | null;
  uncountedTerminatedPods?: { succeeded?: string[] | null; failed?: string[] | null } | null;
  ready?: number | null;
}

export interface Job extends KubeObject {
  spec?: JobSpec;
  status?: JobStatus;
}

// Labels the Job strategy puts on the pod template, after k8s.io/api/batch/v1 (1.27+ adds the
// prefixed pair next to the legacy one).
export const JobNameLabel = 'batch.platform.io/job-name';
export const ControllerUidLabel = 'batch.platform.io/controller-uid';
export const LegacyJobNameLabel = 'job-name';
export const LegacyControllerUidLabel = 'controller-uid';

export const NonIndexedCompletion = 'NonIndexed';
export const IndexedCompletion = 'Indexed';

export function isSet<T>(value: T | null | undefined): value is T {
  return value !== null && value !== undefined;
}

// jobSpec returns the spec of a job, creating the empty one Go's zero value stands for.
export function jobSpec(job: Job): JobSpec {
  if (!job.spec || typeof job.spec !== 'object') job.spec = {};
  return job.spec;
}
