// The shapes of batch/v1 Job, and of the core/v1 Pod parts a Job's pods are read by, as plain
// JSON types shared by the registry (strategy, validation) and the Job controller. JSON fields
// may be absent or null (a Go nil pointer): both mean unset.
import { LabelSelector } from '@plinth/machinery';
import { KubeObject, ObjectMeta } from '../object';

export interface PodFailurePolicyRule {
  action?: string;
  onExitCodes?: { containerName?: string | null; operator?: string; values?: number[] | null } | null;
  onPodConditions?: { type?: string; status?: string }[] | null;
}

export interface PodFailurePolicy {
  rules?: PodFailurePolicyRule[] | null;
}

export interface Container {
  name: string;
  env?: { name: string; value?: string; valueFrom?: unknown }[];
  [field: string]: unknown;
}

export interface PodSpec {
  restartPolicy?: string;
  containers?: Container[];
  initContainers?: Container[];
  hostname?: string;
  subdomain?: string;
  nodeSelector?: Record<string, string> | null;
  tolerations?: unknown[] | null;
  schedulingGates?: unknown[] | null;
  affinity?: { nodeAffinity?: unknown; [field: string]: unknown } | null;
  [field: string]: unknown;
}

export interface PodTemplateSpec {
  metadata?: ObjectMeta | null;
  spec?: PodSpec | null;
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

export interface ContainerStatus {
  name: string;
  restartCount?: number;
  state?: { terminated?: { exitCode: number; finishedAt?: string } | null; [state: string]: unknown };
  [field: string]: unknown;
}

export interface PodCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
}

export interface PodStatus {
  phase?: string;
  conditions?: PodCondition[];
  containerStatuses?: ContainerStatus[];
  initContainerStatuses?: ContainerStatus[];
  [field: string]: unknown;
}

export interface Pod extends KubeObject {
  spec?: PodSpec;
  status?: PodStatus;
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
