// syncDaemonSet is the DaemonSet controller's decision for one DaemonSet, after syncDaemonSet
// (daemon_controller.go v1.28), as a pure function: the history is constructed, then (once
// expectations are satisfied) manage places and removes pods, the rolling update runs when
// manage had nothing to do, old history is trimmed, and the status is recomputed. The caller
// carries the plan out and records the expectations.
import { labelSelectorAsSelector } from '@plinth/machinery';
import { BackoffEntry } from './failed-pod-backoff';
import { manage } from './manage';
import { nodesToDaemonPods, ownedPods } from './node-pods';
import { msUntilAvailable } from './pod-availability';
import { newDaemonPod } from './pod-template';
import { constructHistory, revisionsToTrim } from './revisions';
import { rollingUpdate } from './rolling-update';
import { daemonSetStatus, statusChanged } from './status';
import { ControllerRevision, DaemonSet, DaemonSetStatus, Node, Pod } from '@plinth/api';

export interface DaemonSetSyncInput {
  daemonSet: DaemonSet;
  nodes: readonly Node[];
  // pods are the namespace's pods; only those the DaemonSet controls and selects are used.
  pods: readonly Pod[];
  // revisions are the namespace's ControllerRevisions; only owned ones form the history.
  revisions: readonly ControllerRevision[];
  now: number;
  failedPodsBackoff?: ReadonlyMap<string, BackoffEntry>;
  // expectationsSatisfied is false while earlier creations or deletions are not yet observed:
  // then only the status is recomputed, without raising observedGeneration.
  expectationsSatisfied?: boolean;
}

export interface DaemonSetSyncPlan {
  // hash is the current revision's hash, carried by updated pods.
  hash: string;
  revisionsToCreate: ControllerRevision[];
  revisionsToUpdate: ControllerRevision[];
  revisionsToDelete: string[];
  // podsToRelabel move pods of a deleted duplicate revision onto the current hash.
  podsToRelabel: { name: string; hash: string }[];
  podsToCreate: { nodeName: string; pod: Pod }[];
  podsToDelete: string[];
  // failedPods are the failed pods deleted, for a FailedDaemonPod warning event.
  failedPods: { pod: string; node: string }[];
  // failedPodsBackoff holds the back-off entries to store.
  failedPodsBackoff: Map<string, BackoffEntry>;
  // status is undefined when nothing is to be written (the DaemonSet is being deleted or
  // selects everything); statusChanged says whether it differs from the stored one.
  status?: DaemonSetStatus;
  statusChanged: boolean;
  requeueAfterMs?: number;
}

function emptyPlan(hash = ''): DaemonSetSyncPlan {
  return {
    hash,
    revisionsToCreate: [],
    revisionsToUpdate: [],
    revisionsToDelete: [],
    podsToRelabel: [],
    podsToCreate: [],
    podsToDelete: [],
    failedPods: [],
    failedPodsBackoff: new Map(),
    statusChanged: false,
  };
}

export function syncDaemonSet(input: DaemonSetSyncInput): DaemonSetSyncPlan {
  const ds = input.daemonSet;
  if (ds.metadata.deletionTimestamp) return emptyPlan();
  // A selector that selects everything would fight every other controller (SelectingAll).
  if (labelSelectorAsSelector(ds.spec?.selector).empty()) return emptyPlan();
  const pods = ownedPods(ds, input.pods);
  const history = constructHistory(ds, input.revisions, pods);
  const plan = emptyPlan(history.hash);
  if (history.create) plan.revisionsToCreate.push(history.create);
  plan.revisionsToUpdate.push(...history.update);
  plan.revisionsToDelete.push(...history.delete);
  plan.podsToRelabel.push(...history.relabel);

  const nodeToDaemonPods = nodesToDaemonPods(pods);
  const base = { ds, nodes: input.nodes, nodeToDaemonPods, hash: history.hash, now: input.now };
  const satisfied = input.expectationsSatisfied ?? true;
  let requeue: number | undefined;
  if (satisfied) {
    const managed = manage({ ...base, failedPodsBackoff: input.failedPodsBackoff ?? new Map() });
    let nodesNeedingDaemonPods = managed.nodesNeedingDaemonPods;
    let podsToDelete = managed.podsToDelete;
    requeue = managed.requeueAfterMs;
    plan.failedPods = managed.failedPods;
    plan.failedPodsBackoff = managed.failedPodsBackoff;
    if (nodesNeedingDaemonPods.length + podsToDelete.length === 0 && (ds.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate') {
      ({ nodesNeedingDaemonPods, podsToDelete } = rollingUpdate(base));
    }
    plan.podsToCreate = nodesNeedingDaemonPods.map((nodeName) => ({ nodeName, pod: newDaemonPod(ds, nodeName, history.hash) }));
    plan.podsToDelete = podsToDelete;
    plan.revisionsToDelete.push(...revisionsToTrim(ds, history.old, [...nodeToDaemonPods.values()].flat()));
  }

  plan.status = daemonSetStatus({ ...base, updateObservedGeneration: satisfied, collisionCount: history.collisionCount });
  plan.statusChanged = statusChanged(ds.status, plan.status);
  plan.requeueAfterMs = minDefined(requeue, availabilityWait(ds, pods, input.now));
  return plan;
}

// availabilityWait is how long until the next Ready pod passes minReadySeconds, when the
// controller must look again without any event to wake it.
function availabilityWait(ds: DaemonSet, pods: readonly Pod[], now: number): number | undefined {
  let wait: number | undefined;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    wait = minDefined(wait, msUntilAvailable(pod, ds.spec?.minReadySeconds ?? 0, now));
  }
  return wait;
}

function minDefined(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}
