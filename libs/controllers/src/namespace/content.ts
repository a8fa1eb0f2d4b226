// The namespace controller's decisions about a terminating namespace's content, as
// pkg/controller/namespace/deletion/namespaced_resources_deleter.go (v1.28): how long what is
// left may take, what one resource's leftover content says, and when to look again.
import { KubeObject } from '@plinth/api';

// finalizerEstimateSeconds is how long objects held by finalizers are expected to take.
export const finalizerEstimateSeconds = 15;

// ResourceOutcome is what deleting one resource's content in the namespace left behind.
export interface ResourceOutcome {
  // estimate is how many seconds the remaining content is expected to take.
  estimate: number;
  remaining: number;
  finalizers: Map<string, number>;
  error?: string;
}

export interface ContentResource {
  group: string;
  version: string;
  resource: string;
}

// podsTerminationEstimate is estimateGracefulTerminationForPods: the longest
// terminationGracePeriodSeconds of the pods still running, less the time since the
// namespace's deletion began (deletedAt NaN: none passed).
export function podsTerminationEstimate(pods: readonly KubeObject[], deletedAt: number, now: number): number {
  let grace = 0;
  for (const pod of pods) {
    const phase = (pod.status as { phase?: string } | undefined)?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') continue;
    grace = Math.max(grace, (pod.spec as { terminationGracePeriodSeconds?: number } | undefined)?.terminationGracePeriodSeconds ?? 0);
  }
  const elapsed = Number.isNaN(deletedAt) ? 0 : (now - deletedAt) / 1000;
  return Math.max(0, Math.floor(grace - elapsed));
}

// leftoverOutcome judges the items a resource still lists in the namespace after its deletion:
// pods still terminating and objects held by finalizers are expected, anything else is an error.
export function leftoverOutcome(resource: ContentResource, namespace: string, items: readonly KubeObject[], podsEstimate: number): ResourceOutcome {
  const finalizers = new Map<string, number>();
  for (const item of items) for (const f of item.metadata.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
  if (podsEstimate > 0) return { estimate: podsEstimate, remaining: items.length, finalizers };
  if (finalizers.size > 0) return { estimate: finalizerEstimateSeconds, remaining: items.length, finalizers };
  if (items.length === 0) return { estimate: podsEstimate, remaining: 0, finalizers: new Map() };
  const gvr = `{${resource.group} ${resource.version} ${resource.resource}}`;
  return { estimate: podsEstimate, remaining: items.length, finalizers: new Map(), error: `unexpected items still remain in namespace: ${namespace} for gvr: ${gvr}` };
}

// recheckAfterMs is when a namespace whose content is estimated to take estimateSeconds more is
// looked at again: after about half the estimate.
export function recheckAfterMs(estimateSeconds: number): number {
  return (Math.floor(estimateSeconds / 2) + 1) * 1000;
}

// finalizedFinalizers are spec.finalizers once the namespace controller's own is removed.
export function finalizedFinalizers(finalizers: readonly string[], own: string): string[] {
  return [...new Set(finalizers.filter((f) => f !== own))].sort();
}
