// Grouping a DaemonSet's pods by node (getNodesToDaemonPods, util.GetTargetNodeName), their
// order (podByCreationTimestampAndPhase) and whether a pod is of the current revision
// (util.IsPodUpdated, findUpdatedPodsOnNode), after daemon_controller.go and update.go v1.28.
import { labelSelectorMatches } from '@plinth/machinery';
import { templateGeneration } from './pod-template';
import { ControllerRevisionHashLabel, DaemonSet, Pod, PodTemplateGenerationLabel } from '@plinth/api';

// ownedPods keeps the pods the DaemonSet controls that its selector still matches. Adoption of
// orphans and release of non-matching pods are not done here.
export function ownedPods(ds: DaemonSet, pods: readonly Pod[]): Pod[] {
  const uid = ds.metadata.uid;
  return pods.filter(
    (pod) =>
      (pod.metadata.ownerReferences ?? []).some((ref) => ref.controller === true && ref.uid === uid) &&
      labelSelectorMatches(ds.spec?.selector, pod.metadata.labels),
  );
}

// targetNodeName is spec.nodeName, or for a pod not yet bound the node its metadata.name
// affinity names.
export function targetNodeName(pod: Pod): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  const terms = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  for (const term of terms) {
    for (const field of term.matchFields ?? []) {
      if (field.key === 'metadata.name' && field.operator === 'In' && field.values?.length === 1) return field.values[0];
    }
  }
  return undefined;
}

function isTerminal(pod: Pod): boolean {
  return pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded';
}

// nodesToDaemonPods groups pods by target node; terminal pods already being deleted are left
// out, as are pods whose node cannot be told.
export function nodesToDaemonPods(pods: readonly Pod[]): Map<string, Pod[]> {
  const result = new Map<string, Pod[]>();
  for (const pod of pods) {
    if (isTerminal(pod) && pod.metadata.deletionTimestamp) continue;
    const node = targetNodeName(pod);
    if (node === undefined) continue;
    const list = result.get(node);
    if (list) list.push(pod);
    else result.set(node, [pod]);
  }
  return result;
}

// comparePods orders scheduled pods first, then by creationTimestamp, then by name.
export function comparePods(a: Pod, b: Pod): number {
  const scheduledA = Boolean(a.spec?.nodeName);
  const scheduledB = Boolean(b.spec?.nodeName);
  if (scheduledA !== scheduledB) return scheduledA ? -1 : 1;
  const ta = Date.parse(a.metadata.creationTimestamp ?? '') || 0;
  const tb = Date.parse(b.metadata.creationTimestamp ?? '') || 0;
  if (ta !== tb) return ta - tb;
  const na = a.metadata.name ?? '';
  const nb = b.metadata.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}

// isPodUpdated: the pod carries the current revision hash, or the current template generation.
export function isPodUpdated(pod: Pod, hash: string, ds: DaemonSet): boolean {
  const labels = pod.metadata.labels ?? {};
  const generation = templateGeneration(ds);
  const templateMatches = generation !== undefined && labels[PodTemplateGenerationLabel] === String(generation);
  const hashMatches = hash.length > 0 && labels[ControllerRevisionHashLabel] === hash;
  return hashMatches || templateMatches;
}

export interface UpdatedPodsOnNode {
  newPod?: Pod;
  oldPod?: Pod;
  // ok is false when the node has more than one new or more than one old live pod.
  ok: boolean;
}

// findUpdatedPodsOnNode splits a node's live pods into the one of the current revision and the
// one of an older revision.
export function findUpdatedPodsOnNode(ds: DaemonSet, pods: readonly Pod[], hash: string): UpdatedPodsOnNode {
  let newPod: Pod | undefined;
  let oldPod: Pod | undefined;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    if (isPodUpdated(pod, hash, ds)) {
      if (newPod) return { ok: false };
      newPod = pod;
    } else {
      if (oldPod) return { ok: false };
      oldPod = pod;
    }
  }
  return { newPod, oldPod, ok: true };
}
