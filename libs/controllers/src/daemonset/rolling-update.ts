// rollingUpdate replaces old daemon pods within maxUnavailable and maxSurge, after update.go
// (v1.28, DaemonSetUpdateSurge on). It runs only when manage had nothing to do, as the
// controller's expectations make it. Without surge it deletes old pods on as many nodes as
// maxUnavailable allows, counting nodes already unavailable, and lets manage create the new
// ones; with surge it creates new pods beside available old ones on up to maxSurge nodes, beside
// unavailable old ones at once, and deletes an old pod once the new one on its node is available.
import { scaledValue } from './int-or-percent';
import { nodeShouldRunDaemonPod } from './node-eligibility';
import { findUpdatedPodsOnNode } from './node-pods';
import { isPodAvailable } from './pod-availability';
import { DaemonSet, Node, Pod } from '@plinth/api';

// surgeCount is util.SurgeCount: maxSurge of numberToSchedule, rounded up; 0 unless RollingUpdate.
export function surgeCount(ds: DaemonSet, numberToSchedule: number): number {
  const strategy = ds.spec?.updateStrategy;
  if ((strategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') return 0;
  const maxSurge = strategy?.rollingUpdate?.maxSurge;
  return maxSurge === undefined || maxSurge === null ? 0 : scaledValue(maxSurge, numberToSchedule, true);
}

// unavailableCount is util.UnavailableCount: maxUnavailable of numberToSchedule, rounded up.
export function unavailableCount(ds: DaemonSet, numberToSchedule: number): number {
  const strategy = ds.spec?.updateStrategy;
  if ((strategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') return 0;
  const maxUnavailable = strategy?.rollingUpdate?.maxUnavailable;
  return maxUnavailable === undefined || maxUnavailable === null ? 0 : scaledValue(maxUnavailable, numberToSchedule, true);
}

export interface UpdateInput {
  ds: DaemonSet;
  nodes: readonly Node[];
  nodeToDaemonPods: ReadonlyMap<string, readonly Pod[]>;
  hash: string;
  now: number;
}

export interface RollingUpdatePlan {
  maxSurge: number;
  maxUnavailable: number;
  desiredNumberScheduled: number;
  nodesNeedingDaemonPods: string[];
  podsToDelete: string[];
}

// updatedDesiredNodeCounts counts the nodes that should run the pod and resolves the limits;
// when both come out 0 for a non-empty set it falls back to maxUnavailable 1.
export function updatedDesiredNodeCounts(input: UpdateInput): { maxSurge: number; maxUnavailable: number; desired: number; nodePods: Map<string, readonly Pod[]> } {
  const nodePods = new Map(input.nodeToDaemonPods);
  let desired = 0;
  for (const node of input.nodes) {
    if (!nodeShouldRunDaemonPod(node, input.ds).shouldRun) continue;
    desired++;
    if (!nodePods.has(node.metadata.name ?? '')) nodePods.set(node.metadata.name ?? '', []);
  }
  let maxUnavailable = unavailableCount(input.ds, desired);
  const maxSurge = surgeCount(input.ds, desired);
  if (desired > 0 && maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;
  const sorted = new Map([...nodePods.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { maxSurge, maxUnavailable, desired, nodePods: sorted };
}

export function rollingUpdate(input: UpdateInput): RollingUpdatePlan {
  const counts = updatedDesiredNodeCounts(input);
  const base = { maxSurge: counts.maxSurge, maxUnavailable: counts.maxUnavailable, desiredNumberScheduled: counts.desired };
  return counts.maxSurge === 0 ? { ...base, ...withoutSurge(input, counts.nodePods, counts.maxUnavailable) } : { ...base, ...withSurge(input, counts.nodePods, counts.maxSurge, counts.desired) };
}

type Decision = { nodesNeedingDaemonPods: string[]; podsToDelete: string[] };

function withoutSurge(input: UpdateInput, nodePods: Map<string, readonly Pod[]>, maxUnavailable: number): Decision {
  const minReady = input.ds.spec?.minReadySeconds ?? 0;
  let numUnavailable = 0;
  const allowedReplacements: string[] = [];
  const candidates: string[] = [];
  for (const pods of nodePods.values()) {
    const { newPod, oldPod, ok } = findUpdatedPodsOnNode(input.ds, pods, input.hash);
    if (!ok || (!oldPod && !newPod) || (oldPod && newPod)) {
      numUnavailable++;
    } else if (newPod) {
      if (!isPodAvailable(newPod, minReady, input.now)) numUnavailable++;
    } else if (oldPod && !isPodAvailable(oldPod, minReady, input.now)) {
      allowedReplacements.push(oldPod.metadata.name ?? '');
    } else if (oldPod && numUnavailable < maxUnavailable) {
      candidates.push(oldPod.metadata.name ?? '');
    }
  }
  const remaining = Math.min(Math.max(maxUnavailable - numUnavailable, 0), candidates.length);
  return { nodesNeedingDaemonPods: [], podsToDelete: [...allowedReplacements, ...candidates.slice(0, remaining)] };
}

function withSurge(input: UpdateInput, nodePods: Map<string, readonly Pod[]>, maxSurge: number, desired: number): Decision {
  const { ds, now } = input;
  const minReady = ds.spec?.minReadySeconds ?? 0;
  const nodesByName = new Map(input.nodes.map((n) => [n.metadata.name ?? '', n]));
  // A node gone from the list cannot run the pod.
  const shouldRun = (name: string): boolean => {
    const node = nodesByName.get(name);
    return node !== undefined && nodeShouldRunDaemonPod(node, ds).shouldRun;
  };
  const oldPodsToDelete: string[] = [];
  const shouldNotRunPodsToDelete: string[] = [];
  const candidateNewNodes: string[] = [];
  const allowedNewNodes: string[] = [];
  let numSurge = 0;
  let numAvailable = 0;
  for (const [nodeName, pods] of nodePods) {
    const { newPod, oldPod, ok } = findUpdatedPodsOnNode(ds, pods, input.hash);
    if (!ok) {
      numSurge++;
      continue;
    }
    const counted = oldPod ?? newPod;
    if (counted && isPodAvailable(counted, minReady, now)) numAvailable++;
    if (!oldPod) continue;
    if (!newPod) {
      if (!isPodAvailable(oldPod, minReady, now)) {
        if (!shouldRun(nodeName)) oldPodsToDelete.push(oldPod.metadata.name ?? '');
        else allowedNewNodes.push(nodeName);
      } else if (!shouldRun(nodeName)) {
        shouldNotRunPodsToDelete.push(oldPod.metadata.name ?? '');
      } else if (numSurge < maxSurge) {
        candidateNewNodes.push(nodeName);
      }
      continue;
    }
    if (!isPodAvailable(newPod, minReady, now)) numSurge++;
    else oldPodsToDelete.push(oldPod.metadata.name ?? '');
  }
  // With surge the owner expects full availability: a pod on a node that should no longer run
  // it goes only once enough pods elsewhere are available.
  const deletable = Math.min(Math.max(numAvailable - desired, 0), shouldNotRunPodsToDelete.length);
  oldPodsToDelete.push(...shouldNotRunPodsToDelete.slice(0, deletable));
  const remainingSurge = Math.min(Math.max(maxSurge - numSurge, 0), candidateNewNodes.length);
  return { nodesNeedingDaemonPods: [...allowedNewNodes, ...candidateNewNodes.slice(0, remainingSurge)], podsToDelete: oldPodsToDelete };
}
