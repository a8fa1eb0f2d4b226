// How the Job controller reads a pod: active, ready, failed, when it finished, and which
// active pods go first when some must be removed (controller.ActivePods, v1.28).
import { gateEnabled, Job, JobTrackingFinalizer, Pod } from './types';

export function isTerminal(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

// isActive is controller.IsPodActive: not terminal and not being deleted.
export function isActive(pod: Pod): boolean {
  return !isTerminal(pod) && !pod.metadata.deletionTimestamp;
}

export function isReady(pod: Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

export function hasTrackingFinalizer(pod: Pod): boolean {
  return pod.metadata.finalizers?.includes(JobTrackingFinalizer) ?? false;
}

// isPodFailed counts a pod being deleted before it succeeded as failed, so that orphaned pods
// that never reach phase Failed are still counted; with pod disruption conditions and a pod
// failure policy the kubelet marks such pods Failed, so only the phase counts.
export function isPodFailed(pod: Pod, job: Job, gates?: ReadonlyMap<string, boolean>): boolean {
  if (pod.status?.phase === 'Failed') return true;
  if (gateEnabled(gates, 'PodDisruptionConditions') && gateEnabled(gates, 'JobPodFailurePolicy') && job.spec?.podFailurePolicy) {
    return false;
  }
  return !!pod.metadata.deletionTimestamp && pod.status?.phase !== 'Succeeded';
}

// finishedTime is getFinishedTime: the Ready=False transition of a terminal pod, else the
// last container termination, else the deletion time, else now.
export function finishedTime(pod: Pod, now: number): number {
  const notReady = pod.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'False');
  if (isTerminal(pod) && notReady?.lastTransitionTime) return Date.parse(notReady.lastTransitionTime);
  const finishes = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])]
    .map((s) => s.state?.terminated?.finishedAt)
    .filter((t): t is string => !!t)
    .map((t) => Date.parse(t));
  if (finishes.length > 0) return Math.max(...finishes);
  if (pod.metadata.deletionTimestamp) return Date.parse(pod.metadata.deletionTimestamp);
  return now;
}

const phaseRank: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

function restarts(pod: Pod): number {
  return (pod.status?.containerStatuses ?? []).reduce((max, s) => Math.max(max, s.restartCount ?? 0), 0);
}

function readySince(pod: Pod): number {
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'True');
  return ready?.lastTransitionTime ? Date.parse(ready.lastTransitionTime) : 0;
}

function created(pod: Pod): number {
  return pod.metadata.creationTimestamp ? Date.parse(pod.metadata.creationTimestamp) : 0;
}

// byRemovalPreference sorts the pods to remove first to the front: unscheduled before
// scheduled, pending before running, not ready before ready, ready more recently first, more
// restarts first, newer first.
export function byRemovalPreference(a: Pod, b: Pod): number {
  const scheduled = (p: Pod) => (p.spec?.['nodeName'] ? 1 : 0);
  if (scheduled(a) !== scheduled(b)) return scheduled(a) - scheduled(b);
  const phase = (p: Pod) => phaseRank[p.status?.phase ?? 'Pending'] ?? 0;
  if (phase(a) !== phase(b)) return phase(a) - phase(b);
  const ready = (p: Pod) => (isReady(p) ? 1 : 0);
  if (ready(a) !== ready(b)) return ready(a) - ready(b);
  if (ready(a) && readySince(a) !== readySince(b)) return readySince(b) - readySince(a);
  if (restarts(a) !== restarts(b)) return restarts(b) - restarts(a);
  return created(b) - created(a);
}
