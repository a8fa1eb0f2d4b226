// manage decides, node by node, where daemon pods are missing and which pods must go, after
// manage and podsShouldBeOnNode (daemon_controller.go v1.28): create on a node that should run
// the pod and has none; on a node where pods may continue, delete failed (after back-off) and
// succeeded pods and excess pods (without surge: all but the oldest; with surge: keep the
// oldest new and the oldest old pod while the new one is not yet available); delete every pod
// on a node that may not run it, and unscheduled pods aimed at a node that no longer exists.
import { backoffRemainingMs, BackoffEntry, failedPodsBackoffKey, nextBackoff } from './failed-pod-backoff';
import { surgeCount } from './rolling-update';
import { nodeShouldRunDaemonPod } from './node-eligibility';
import { comparePods } from './node-pods';
import { isPodAvailable, isPodReady } from './pod-availability';
import { ControllerRevisionHashLabel, DaemonSet, Node, Pod } from '@plinth/api';

export interface ManageInput {
  ds: DaemonSet;
  nodes: readonly Node[];
  nodeToDaemonPods: ReadonlyMap<string, readonly Pod[]>;
  hash: string;
  now: number;
  failedPodsBackoff: ReadonlyMap<string, BackoffEntry>;
}

export interface ManagePlan {
  nodesNeedingDaemonPods: string[];
  podsToDelete: string[];
  // failedPodsBackoff holds the back-off entries advanced by deleting failed pods.
  failedPodsBackoff: Map<string, BackoffEntry>;
  // failedPods name the failed pods deleted, for the FailedDaemonPod warning event.
  failedPods: { pod: string; node: string }[];
  // requeueAfterMs is set while a failed pod waits out its back-off.
  requeueAfterMs?: number;
}

export function manage(input: ManageInput): ManagePlan {
  const plan: ManagePlan = { nodesNeedingDaemonPods: [], podsToDelete: [], failedPodsBackoff: new Map(), failedPods: [] };
  const allowsSurge = surgeCount(input.ds, 1) > 0;
  for (const node of input.nodes) podsShouldBeOnNode(input, node, allowsSurge, plan);
  const known = new Set(input.nodes.map((n) => n.metadata.name));
  for (const [nodeName, pods] of input.nodeToDaemonPods) {
    if (known.has(nodeName)) continue;
    for (const pod of pods) if (!pod.spec?.nodeName) plan.podsToDelete.push(pod.metadata.name ?? '');
  }
  return plan;
}

function podsShouldBeOnNode(input: ManageInput, node: Node, allowsSurge: boolean, plan: ManagePlan): void {
  const { ds, now } = input;
  const nodeName = node.metadata.name ?? '';
  const { shouldRun, shouldContinueRunning } = nodeShouldRunDaemonPod(node, ds);
  const daemonPods = input.nodeToDaemonPods.get(nodeName);
  if (shouldRun && !daemonPods) {
    plan.nodesNeedingDaemonPods.push(nodeName);
    return;
  }
  if (!daemonPods) return;
  if (!shouldContinueRunning) {
    for (const pod of daemonPods) if (!pod.metadata.deletionTimestamp) plan.podsToDelete.push(pod.metadata.name ?? '');
    return;
  }
  const running: Pod[] = [];
  for (const pod of daemonPods) {
    if (pod.metadata.deletionTimestamp) continue;
    if (pod.status?.phase === 'Failed') {
      const key = failedPodsBackoffKey(ds, nodeName);
      const entry = plan.failedPodsBackoff.get(key) ?? input.failedPodsBackoff.get(key);
      const remaining = backoffRemainingMs(entry, now);
      if (remaining > 0) {
        plan.requeueAfterMs = Math.min(plan.requeueAfterMs ?? Infinity, remaining);
        continue;
      }
      plan.failedPodsBackoff.set(key, nextBackoff(entry, now));
      plan.failedPods.push({ pod: pod.metadata.name ?? '', node: nodeName });
      plan.podsToDelete.push(pod.metadata.name ?? '');
    } else if (pod.status?.phase === 'Succeeded') {
      plan.podsToDelete.push(pod.metadata.name ?? '');
    } else {
      running.push(pod);
    }
  }
  if (running.length <= 1) return;
  running.sort(comparePods);
  if (!allowsSurge) {
    for (const pod of running.slice(1)) plan.podsToDelete.push(pod.metadata.name ?? '');
    return;
  }
  let oldestNew: Pod | undefined;
  let oldestOld: Pod | undefined;
  for (const pod of running) {
    const isNew = pod.metadata.labels?.[ControllerRevisionHashLabel] === input.hash;
    if (isNew && !oldestNew) oldestNew = pod;
    else if (!isNew && !oldestOld) oldestOld = pod;
    else plan.podsToDelete.push(pod.metadata.name ?? '');
  }
  if (oldestNew && oldestOld && (!isPodReady(oldestOld) || isPodAvailable(oldestNew, ds.spec?.minReadySeconds ?? 0, now))) {
    plan.podsToDelete.push(oldestOld.metadata.name ?? '');
  }
}
