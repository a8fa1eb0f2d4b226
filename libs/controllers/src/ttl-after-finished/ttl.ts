// The TTL-after-finished controller's decisions, as Kubernetes' pkg/controller/ttlafterfinished:
// a finished Job with spec.ttlSecondsAfterFinished is deleted once that many seconds have
// passed since it finished (0: at once).
import { KubeObject } from '@plinth/api';

interface JobCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
}

// finishedAt is when a Job reached Complete or Failed, or null while it runs.
export function finishedAt(job: KubeObject): number | null {
  const conditions = ((job.status as { conditions?: JobCondition[] } | undefined)?.conditions ?? []).filter(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  );
  if (conditions.length === 0) return null;
  const times = conditions.map((c) => Date.parse(c.lastTransitionTime ?? '')).filter((t) => !Number.isNaN(t));
  return times.length ? Math.min(...times) : null;
}

// expiresAt is when a finished Job may be deleted, or null when it never expires (no TTL, not
// finished, or already being deleted).
export function expiresAt(job: KubeObject): number | null {
  const ttl = (job.spec as { ttlSecondsAfterFinished?: number } | undefined)?.ttlSecondsAfterFinished;
  if (ttl === undefined || ttl === null || job.metadata.deletionTimestamp) return null;
  const finished = finishedAt(job);
  return finished === null ? null : finished + ttl * 1000;
}

// TtlDecision says what to do with a Job at a moment: nothing, look again later, or delete it.
export type TtlDecision = { action: 'none' } | { action: 'wait'; afterMs: number } | { action: 'delete' };

// decideTtl is processJob's decision at now.
export function decideTtl(job: KubeObject, now: number): TtlDecision {
  const expires = expiresAt(job);
  if (expires === null) return { action: 'none' };
  const wait = expires - now;
  return wait > 0 ? { action: 'wait', afterMs: wait } : { action: 'delete' };
}
