// Job conditions with the reasons and messages of Kubernetes (v1.28), and the helpers the sync
// uses to set them without disturbing conditions it does not own.
import { rfc3339 } from '@plinth/machinery';
import { Job, JobCondition } from './types';

export const JobComplete = 'Complete';
export const JobFailed = 'Failed';
export const JobSuspended = 'Suspended';
// JobFailureTarget records a FailJob decision before the pods' finalizers are removed.
export const JobFailureTarget = 'FailureTarget';

// JobReasons is the one table of condition reasons and their messages.
export const JobReasons = {
  BackoffLimitExceeded: { reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' },
  DeadlineExceeded: { reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' },
  JobSuspended: { reason: 'JobSuspended', message: 'Job suspended' },
  JobResumed: { reason: 'JobResumed', message: 'Job resumed' },
} as const;
export const PodFailurePolicyReason = 'PodFailurePolicy';

export function newCondition(type: string, status: string, reason: string, message: string, now: number): JobCondition {
  const time = rfc3339(now);
  const condition: JobCondition = { type, status, lastProbeTime: time, lastTransitionTime: time };
  if (reason) condition.reason = reason;
  if (message) condition.message = message;
  return condition;
}

export function findCondition(conditions: readonly JobCondition[] | null | undefined, type: string): JobCondition | undefined {
  return conditions?.find((c) => c.type === type);
}

// isJobFinished is true once Complete or Failed is True.
export function isJobFinished(job: Job): boolean {
  return (job.status?.conditions ?? []).some((c) => (c.type === JobComplete || c.type === JobFailed) && c.status === 'True');
}

// ensureConditionStatus is ensureJobConditionStatus: it replaces a condition of the type whose
// status, reason or message differ, and adds one only when the status is not False. It
// returns the new list and whether it changed.
export function ensureConditionStatus(
  conditions: readonly JobCondition[],
  type: string,
  status: string,
  reason: string,
  message: string,
  now: number,
): { conditions: JobCondition[]; changed: boolean } {
  const at = conditions.findIndex((c) => c.type === type);
  if (at >= 0) {
    const current = conditions[at];
    if (current.status === status && (current.reason ?? '') === reason && (current.message ?? '') === message) {
      return { conditions: [...conditions], changed: false };
    }
    const next = [...conditions];
    next[at] = newCondition(type, status, reason, message, now);
    return { conditions: next, changed: true };
  }
  if (status === 'False') return { conditions: [...conditions], changed: false };
  return { conditions: [...conditions, newCondition(type, status, reason, message, now)], changed: true };
}
