// The parts of batch/v1 Job and core/v1 Pod that the Job controller reads and writes.
// Controllers go through the client, never the registry, so the shapes are restated here as
// plain JSON types (JSON fields may be absent or null: both mean unset).
import { KubeObject, ObjectMeta } from '@plinth/api';
import { LabelSelector } from '@plinth/machinery';

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
  selector?: LabelSelector | null;
  template?: PodTemplateSpec | null;
  completionMode?: string | null;
  suspend?: boolean | null;
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
  completedIndexes?: string;
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

// jobFeatureGateDefaults are the gates the controller reads, with their 1.28 defaults as
// Plinth serves them (JobPodFailurePolicy is off by default here, see the spec).
export const jobFeatureGateDefaults: Readonly<Record<string, boolean>> = {
  JobReadyPods: true,
  JobPodFailurePolicy: false,
  PodDisruptionConditions: true,
};

export function gateEnabled(gates: ReadonlyMap<string, boolean> | undefined, name: string): boolean {
  return gates?.get(name) ?? jobFeatureGateDefaults[name] ?? false;
}
