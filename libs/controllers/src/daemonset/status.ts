// daemonSetStatus is updateDaemonSetStatus (daemon_controller.go v1.28): per node that should
// run the pod, whether it has one, and whether the oldest is ready, available and updated; pods
// on nodes that should not run it are misscheduled.
import { nodeShouldRunDaemonPod } from './node-eligibility';
import { comparePods, isPodUpdated } from './node-pods';
import { isPodAvailable, isPodReady } from './pod-availability';
import { DaemonSet, DaemonSetStatus, Node, Pod } from '@plinth/api';

export interface StatusInput {
  ds: DaemonSet;
  nodes: readonly Node[];
  nodeToDaemonPods: ReadonlyMap<string, readonly Pod[]>;
  hash: string;
  now: number;
  // updateObservedGeneration is false while expectations are pending.
  updateObservedGeneration: boolean;
  collisionCount?: number;
}

export function daemonSetStatus(input: StatusInput): DaemonSetStatus {
  const { ds, now } = input;
  const minReady = ds.spec?.minReadySeconds ?? 0;
  let desired = 0;
  let current = 0;
  let misscheduled = 0;
  let ready = 0;
  let available = 0;
  let updated = 0;
  for (const node of input.nodes) {
    const pods = input.nodeToDaemonPods.get(node.metadata.name ?? '') ?? [];
    if (!nodeShouldRunDaemonPod(node, ds).shouldRun) {
      if (pods.length > 0) misscheduled++;
      continue;
    }
    desired++;
    if (pods.length === 0) continue;
    current++;
    const pod = [...pods].sort(comparePods)[0];
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(pod, minReady, now)) available++;
    }
    if (isPodUpdated(pod, input.hash, ds)) updated++;
  }
  const status: DaemonSetStatus = {
    ...(ds.status ?? {}),
    desiredNumberScheduled: desired,
    currentNumberScheduled: current,
    numberMisscheduled: misscheduled,
    numberReady: ready,
  };
  // These three are int32 fields with omitempty in Go: Kubernetes never shows one that is zero.
  setOptionalCounter(status, 'updatedNumberScheduled', updated);
  setOptionalCounter(status, 'numberAvailable', available);
  setOptionalCounter(status, 'numberUnavailable', desired - available);
  if (input.updateObservedGeneration) status.observedGeneration = ds.metadata.generation;
  if (input.collisionCount !== undefined) status.collisionCount = input.collisionCount;
  return status;
}

function setOptionalCounter(status: DaemonSetStatus, name: 'updatedNumberScheduled' | 'numberAvailable' | 'numberUnavailable', value: number): void {
  if (value !== 0) status[name] = value;
  else delete status[name];
}

const counters: (keyof DaemonSetStatus)[] = [
  'desiredNumberScheduled',
  'currentNumberScheduled',
  'numberMisscheduled',
  'numberReady',
  'updatedNumberScheduled',
  'numberAvailable',
  'numberUnavailable',
  'observedGeneration',
  'collisionCount',
];

// statusChanged tells whether the status must be written (storeDaemonSetStatus skips equal ones).
export function statusChanged(before: DaemonSetStatus | undefined, after: DaemonSetStatus): boolean {
  return counters.some((key) => (before?.[key] ?? 0) !== (after[key] ?? 0));
}
