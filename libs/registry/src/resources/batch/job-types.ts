// The shapes of batch/v1 Job that the strategy reads are @plinth/api's; the strategy's helpers
// over them live here.
import { Job, JobSpec } from '@plinth/api';

export type { Job, JobSpec, JobStatus, PodFailurePolicyRule, PodTemplateSpec as PodTemplate } from '@plinth/api';
export { ControllerUidLabel, IndexedCompletion, JobNameLabel, LegacyControllerUidLabel, LegacyJobNameLabel, NonIndexedCompletion } from '@plinth/api';

export function isSet<T>(value: T | null | undefined): value is T {
  return value !== null && value !== undefined;
}

// jobSpec returns the spec of a job, creating the empty one Go's zero value stands for.
export function jobSpec(job: Job): JobSpec {
  if (!job.spec || typeof job.spec !== 'object') job.spec = {};
  return job.spec;
}
