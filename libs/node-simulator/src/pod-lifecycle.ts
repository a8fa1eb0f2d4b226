// nextPodStatus is what the simulated kubelet reports for a pod bound to its node at time
// `now`: Running from the first look, Ready after the ready delay, then (unless
// restartPolicy is Always) terminated with the exit code after the run time: Succeeded for 0,
// Failed otherwise, or a container restart for restartPolicy OnFailure. It returns null when
// the stored status is already right, and when to look again.
import { rfc3339 } from '@plinth/machinery';
import { KubeObject } from '@plinth/api';
import { defaultRunSeconds, simAnnotations } from './annotations';

export interface PodProgress {
  status: Record<string, unknown> | null;
  // recheckAfterMs is when the pod's status changes next, if it will.
  recheckAfterMs: number | null;
}

interface ContainerSpec {
  name: string;
  image?: string;
}

interface PodStatus {
  phase?: string;
  startTime?: string;
  conditions?: { type: string; status: string }[];
  containerStatuses?: { restartCount?: number; state?: { running?: { startedAt?: string } } }[];
}

function number(value: string | undefined, fallback: number): number {
  const parsed = value === undefined ? NaN : Number(value);
  return Number.isFinite(parsed) ? parsed : fallback;
}

export function nextPodStatus(pod: KubeObject, nodeIP: string, now: number): PodProgress {
  const spec = (pod.spec ?? {}) as { restartPolicy?: string; containers?: ContainerSpec[] };
  const status = (pod.status ?? {}) as PodStatus;
  if (status.phase === 'Succeeded' || status.phase === 'Failed') return { status: null, recheckAfterMs: null };
  const annotations = pod.metadata.annotations ?? {};
  const restartPolicy = spec.restartPolicy ?? 'Always';
  const runMs = restartPolicy === 'Always' ? Infinity : number(annotations[simAnnotations.runSeconds], defaultRunSeconds) * 1000;
  const readyMs = number(annotations[simAnnotations.readySeconds], 0) * 1000;
  const exitCode = Math.trunc(number(annotations[simAnnotations.exitCode], 0));
  const restarts = status.containerStatuses?.[0]?.restartCount ?? 0;
  const runningSince = Date.parse(status.containerStatuses?.[0]?.state?.running?.startedAt ?? status.startTime ?? '') || now;
  const startTime = status.startTime ?? rfc3339(now);
  const containers = spec.containers ?? [];
  const elapsed = now - runningSince;

  if (elapsed >= runMs) {
    if (exitCode !== 0 && restartPolicy === 'OnFailure') {
      return { status: running(pod, startTime, nodeIP, now, now, restarts + 1, false, containers), recheckAfterMs: Math.min(runMs, readyMs || runMs) };
    }
    const terminated = terminatedStatus(pod, startTime, nodeIP, now, runningSince, exitCode, restarts, containers, annotations[simAnnotations.condition]);
    return { status: terminated, recheckAfterMs: null };
  }
  const ready = elapsed >= readyMs;
  const desired = running(pod, startTime, nodeIP, now, runningSince, restarts, ready, containers);
  const nextChange = Math.min(ready ? Infinity : readyMs - elapsed, runMs - elapsed);
  const unchanged = status.phase === 'Running' && isReady(status) === ready && (status.containerStatuses?.[0]?.restartCount ?? 0) === restarts;
  return { status: unchanged ? null : desired, recheckAfterMs: Number.isFinite(nextChange) ? Math.max(1, nextChange) : null };
}

function isReady(status: PodStatus): boolean {
  return (status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

// conditions are the kubelet's pod conditions: a running pod's readiness names the containers
// that are not ready; a pod that succeeded reports PodCompleted instead.
function conditions(now: number, ready: boolean, containers: ContainerSpec[], phase: 'Running' | 'Succeeded' | 'Failed' = 'Running'): Record<string, unknown>[] {
  const at = rfc3339(now);
  const completed = phase === 'Succeeded' ? { reason: 'PodCompleted' } : {};
  const notReady = phase === 'Succeeded' ? completed : { reason: 'ContainersNotReady', message: `containers with unready status: [${containers.map((c) => c.name).join(' ')}]` };
  return [
    { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: at, ...completed },
    { type: 'Ready', status: ready ? 'True' : 'False', lastProbeTime: null, lastTransitionTime: at, ...(ready ? {} : notReady) },
    { type: 'ContainersReady', status: ready ? 'True' : 'False', lastProbeTime: null, lastTransitionTime: at, ...(ready ? {} : notReady) },
    { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: at },
  ];
}

function podIP(pod: KubeObject): string {
  let h = 0;
  for (const ch of pod.metadata.uid ?? pod.metadata.name ?? '') h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return `10.244.${(h >>> 8) % 250}.${1 + (h % 250)}`;
}

function running(pod: KubeObject, startTime: string, nodeIP: string, now: number, since: number, restarts: number, ready: boolean, containers: ContainerSpec[]): Record<string, unknown> {
  return {
    phase: 'Running',
    conditions: conditions(now, ready, containers),
    hostIP: nodeIP,
    podIP: podIP(pod),
    podIPs: [{ ip: podIP(pod) }],
    startTime,
    containerStatuses: containers.map((c) => ({
      name: c.name,
      state: { running: { startedAt: rfc3339(since) } },
      // lastState is a struct held by value: the kubelet always reports it, {} before a restart.
      lastState: {},
      ready,
      restartCount: restarts,
      image: c.image ?? '',
      imageID: `simulated://${c.image ?? ''}`,
      containerID: `simulated://${pod.metadata.uid ?? ''}/${c.name}`,
      started: true,
    })),
    qosClass: (pod.status as { qosClass?: string } | undefined)?.qosClass ?? 'BestEffort',
  };
}

function terminatedStatus(
  pod: KubeObject,
  startTime: string,
  nodeIP: string,
  now: number,
  since: number,
  exitCode: number,
  restarts: number,
  containers: ContainerSpec[],
  condition: string | undefined,
): Record<string, unknown> {
  const base = running(pod, startTime, nodeIP, now, since, restarts, false, containers);
  const phase = exitCode === 0 ? 'Succeeded' : 'Failed';
  const conds = conditions(now, false, containers, phase) as { type: string }[];
  if (condition) conds.push({ type: condition, status: 'True', lastProbeTime: null, lastTransitionTime: rfc3339(now), reason: 'Simulated', message: 'condition reported by the node simulator' } as never);
  return {
    ...base,
    phase,
    conditions: conds,
    containerStatuses: containers.map((c, i) => ({
      name: c.name,
      state: {
        terminated: {
          exitCode: i === 0 ? exitCode : 0,
          reason: i === 0 && exitCode !== 0 ? 'Error' : 'Completed',
          startedAt: rfc3339(since),
          finishedAt: rfc3339(now),
          containerID: `simulated://${pod.metadata.uid ?? ''}/${c.name}`,
        },
      },
      lastState: {},
      ready: false,
      restartCount: restarts,
      image: c.image ?? '',
      imageID: `simulated://${c.image ?? ''}`,
      containerID: `simulated://${pod.metadata.uid ?? ''}/${c.name}`,
      started: false,
    })),
  };
}
