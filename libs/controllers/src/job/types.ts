// The parts of batch/v1 Job and core/v1 Pod that the Job controller reads and writes: the
// shapes of @plinth/api, and the feature gates the controller reads.
export type {
  Container,
  ContainerStatus,
  Job,
  JobCondition,
  JobSpec,
  JobStatus,
  Pod,
  PodCondition,
  PodFailurePolicy,
  PodFailurePolicyRule,
  PodSpec,
  PodStatus,
  PodTemplateSpec,
  UncountedTerminatedPods,
} from '@plinth/api';
export {
  ControllerUidLabel,
  IndexedCompletion,
  JobCompletionIndexAnnotation,
  JobNameLabel,
  JobTrackingFinalizer,
  LegacyControllerUidLabel,
  LegacyJobNameLabel,
  NonIndexedCompletion,
} from '@plinth/api';

// jobFeatureGateDefaults are the gates the controller reads, with their 1.28 defaults as
// Plinth serves them (JobPodFailurePolicy is off by default here, see the spec).
export const jobFeatureGateDefaults: Readonly<Record<string, boolean>> = {
  JobReadyPods: true,
  JobPodFailurePolicy: false,
  PodDisruptionConditions: true,
  PodIndexLabel: true,
};

export function gateEnabled(gates: ReadonlyMap<string, boolean> | undefined, name: string): boolean {
  return gates?.get(name) ?? jobFeatureGateDefaults[name] ?? false;
}
