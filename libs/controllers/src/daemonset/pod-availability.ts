// isPodReady and isPodAvailable are podutil.IsPodReady and IsPodAvailable: available means
// Ready for strictly more than minReadySeconds at now.
import { Pod } from '@plinth/api';

function readyCondition(pod: Pod) {
  return (pod.status?.conditions ?? []).find((c) => c.type === 'Ready');
}

export function isPodReady(pod: Pod): boolean {
  return readyCondition(pod)?.status === 'True';
}

export function isPodAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  const ready = readyCondition(pod);
  if (ready?.status !== 'True') return false;
  if (minReadySeconds === 0) return true;
  const since = ready.lastTransitionTime ? Date.parse(ready.lastTransitionTime) : NaN;
  return !Number.isNaN(since) && since + minReadySeconds * 1000 < now;
}

// msUntilAvailable is how long a Ready pod still waits for minReadySeconds (undefined when
// it is not Ready or already available). A transition time ahead of the clock (skew, or a
// kubelet's own clock) waits no longer than minReadySeconds, after which the controller looks
// again, as kube-controller-manager requeues a DaemonSet after minReadySeconds.
export function msUntilAvailable(pod: Pod, minReadySeconds: number, now: number): number | undefined {
  const ready = readyCondition(pod);
  if (ready?.status !== 'True' || minReadySeconds === 0 || !ready.lastTransitionTime) return undefined;
  const wait = Date.parse(ready.lastTransitionTime) + minReadySeconds * 1000 - now;
  return wait >= 0 ? Math.min(wait + 1, minReadySeconds * 1000) : undefined;
}
