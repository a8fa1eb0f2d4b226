// The pods Table of kubectl get, after printPod in pkg/printers/internalversion/printers.go
// (v1.28): READY counts ready containers (and started sidecars), STATUS is the pod's reason
// as the printer derives it from init and regular container states.
import { KubeObject } from '@plinth/api';
import { TableDefinition } from '../../resource';
import { age, column, humanDuration, nameColumn, ageColumn } from '../../table';
import { isObj, num, Obj, objects, str } from './validation-helpers';

// nodeUnreachablePodReason is the status reason the node lifecycle controller sets.
const nodeUnreachablePodReason = 'NodeLost';

function isRestartableInitContainer(c: Obj | undefined): boolean {
  return !!c && c.restartPolicy === 'Always';
}

function terminatedAt(status: Obj): number | undefined {
  const last = isObj(status.lastState) ? status.lastState : {};
  const terminated = isObj(last.terminated) ? last.terminated : undefined;
  if (!terminated || typeof terminated.finishedAt !== 'string') return terminated ? 0 : undefined;
  return Date.parse(terminated.finishedAt);
}

function stateOf(status: Obj): Obj {
  return isObj(status.state) ? status.state : {};
}

export interface PodSummary {
  ready: string;
  reason: string;
  restarts: string;
}

// summarizePod computes the READY, STATUS and RESTARTS cells.
export function summarizePod(pod: KubeObject, now: number): PodSummary {
  const spec = isObj(pod.spec) ? pod.spec : {};
  const status = isObj(pod.status) ? pod.status : {};
  const initContainers = objects(spec.initContainers);
  let restarts = 0;
  let restartableInitRestarts = 0;
  let totalContainers = objects(spec.containers).length;
  let readyContainers = 0;
  let lastRestart = 0;
  let lastRestartableInitRestart = 0;

  let reason = str(status.phase);
  if (str(status.reason) !== '') reason = str(status.reason);
  for (const condition of objects(status.conditions)) {
    if (condition.type === 'PodScheduled' && condition.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }

  const initByName = new Map<string, Obj>();
  for (const c of initContainers) {
    initByName.set(str(c.name), c);
    if (isRestartableInitContainer(c)) totalContainers++;
  }

  let initializing = false;
  const initStatuses = objects(status.initContainerStatuses);
  for (let i = 0; i < initStatuses.length; i++) {
    const container = initStatuses[i];
    restarts += num(container.restartCount);
    const finished = terminatedAt(container);
    if (finished !== undefined && finished > lastRestart) lastRestart = finished;
    const restartable = isRestartableInitContainer(initByName.get(str(container.name)));
    if (restartable) {
      restartableInitRestarts += num(container.restartCount);
      if (finished !== undefined && finished > lastRestartableInitRestart) lastRestartableInitRestart = finished;
    }
    const state = stateOf(container);
    const terminated = isObj(state.terminated) ? state.terminated : undefined;
    const waiting = isObj(state.waiting) ? state.waiting : undefined;
    if (terminated && num(terminated.exitCode) === 0) continue;
    if (restartable && container.started === true) {
      if (container.ready === true) readyContainers++;
      continue;
    }
    if (terminated) {
      if (str(terminated.reason).length === 0) {
        reason = num(terminated.signal) !== 0 ? `Init:Signal:${num(terminated.signal)}` : `Init:ExitCode:${num(terminated.exitCode)}`;
      } else {
        reason = `Init:${str(terminated.reason)}`;
      }
    } else if (waiting && str(waiting.reason).length > 0 && waiting.reason !== 'PodInitializing') {
      reason = `Init:${str(waiting.reason)}`;
    } else {
      reason = `Init:${i}/${initContainers.length}`;
    }
    initializing = true;
    break;
  }

  const initializedTrue = objects(status.conditions).some((c) => c.type === 'Initialized' && c.status === 'True');
  if (!initializing || initializedTrue) {
    restarts = restartableInitRestarts;
    lastRestart = lastRestartableInitRestart;
    let hasRunning = false;
    const statuses = objects(status.containerStatuses);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const container = statuses[i];
      restarts += num(container.restartCount);
      const finished = terminatedAt(container);
      if (finished !== undefined && finished > lastRestart) lastRestart = finished;
      const state = stateOf(container);
      const terminated = isObj(state.terminated) ? state.terminated : undefined;
      const waiting = isObj(state.waiting) ? state.waiting : undefined;
      if (waiting && str(waiting.reason) !== '') reason = str(waiting.reason);
      else if (terminated && str(terminated.reason) !== '') reason = str(terminated.reason);
      else if (terminated) {
        reason = num(terminated.signal) !== 0 ? `Signal:${num(terminated.signal)}` : `ExitCode:${num(terminated.exitCode)}`;
      } else if (container.ready === true && isObj(state.running)) {
        hasRunning = true;
        readyContainers++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      const ready = objects(status.conditions).some((c) => c.type === 'Ready' && c.status === 'True');
      reason = ready ? 'Running' : 'NotReady';
    }
  }

  if (pod.metadata.deletionTimestamp && status.reason === nodeUnreachablePodReason) reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp) reason = 'Terminating';

  let restartsCell = String(restarts);
  if (restarts !== 0 && lastRestart > 0) restartsCell = `${restarts} (${humanDuration(now - lastRestart)} ago)`;
  return { ready: `${readyContainers}/${totalContainers}`, reason, restarts: restartsCell };
}

function readinessGatesCell(spec: Obj, status: Obj): string {
  const gates = objects(spec.readinessGates);
  if (gates.length === 0) return '<none>';
  const conditions = objects(status.conditions);
  let trueConditions = 0;
  for (const gate of gates) {
    const condition = conditions.find((c) => c.type === gate.conditionType);
    if (condition && condition.status === 'True') trueConditions++;
  }
  return `${trueConditions}/${gates.length}`;
}

export const podTable: TableDefinition = {
  columns: [
    nameColumn,
    column('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
    column('Status', 'string', 'The aggregate status of the containers in this pod.'),
    column('Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
    ageColumn,
    column('IP', 'string', 'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.', 1),
    column(
      'Node',
      'string',
      'NodeName is a request to schedule this pod onto a specific node. If it is non-empty, the scheduler simply schedules this pod onto that node, assuming that it fits resource requirements.',
      1,
    ),
    column(
      'Nominated Node',
      'string',
      'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.',
      1,
    ),
    column(
      'Readiness Gates',
      'string',
      'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates',
      1,
    ),
  ],
  row(pod, now) {
    const spec = isObj(pod.spec) ? pod.spec : {};
    const status = isObj(pod.status) ? pod.status : {};
    const summary = summarizePod(pod, now);
    const podIPs = objects(status.podIPs);
    const podIP = podIPs.length > 0 ? str(podIPs[0].ip) : '';
    return [
      pod.metadata.name ?? '',
      summary.ready,
      summary.reason,
      summary.restarts,
      age(pod, now),
      podIP || '<none>',
      str(spec.nodeName) || '<none>',
      str(status.nominatedNodeName) || '<none>',
      readinessGatesCell(spec, status),
    ];
  },
};
