// The Node objects the simulator registers: Ready, with capacity, as a kubelet reports them.
import { KubeObject, LabelArchStable, LabelHostname, LabelOSStable, TaintNodeNotReady } from '@plinth/api';

export interface SimulatedNodeOptions {
  cpu?: string;
  memory?: string;
  pods?: string;
  labels?: Record<string, string>;
  taints?: { key: string; value?: string; effect: string }[];
}

export function simulatedNode(name: string, now: string, options: SimulatedNodeOptions = {}): KubeObject {
  const capacity = { cpu: options.cpu ?? '4', memory: options.memory ?? '8Gi', pods: options.pods ?? '110', 'ephemeral-storage': '100Gi' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        [LabelHostname]: name,
        [LabelOSStable]: 'linux',
        [LabelArchStable]: 'amd64',
        'node.platform.io/simulated': 'true',
        ...(options.labels ?? {}),
      },
    },
    spec: options.taints?.length ? { taints: options.taints } : {},
    status: {
      capacity,
      allocatable: capacity,
      conditions: [
        { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'node simulator is posting ready status', lastHeartbeatTime: now, lastTransitionTime: now },
        { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available', lastHeartbeatTime: now, lastTransitionTime: now },
        { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure', lastHeartbeatTime: now, lastTransitionTime: now },
        { type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available', lastHeartbeatTime: now, lastTransitionTime: now },
      ],
      addresses: [
        { type: 'InternalIP', address: `10.0.0.${1 + (hashName(name) % 250)}` },
        { type: 'Hostname', address: name },
      ],
      nodeInfo: {
        machineID: name,
        systemUUID: name,
        bootID: name,
        kernelVersion: '6.1.0-plinth',
        osImage: 'Plinth simulated node',
        containerRuntimeVersion: 'simulated://1.0',
        kubeletVersion: 'v1.28.0-plinth',
        kubeProxyVersion: 'v1.28.0-plinth',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    },
  };
}

// withoutNotReadyTaint is what the node lifecycle controller does to a Ready node: it lifts the
// not-ready NoSchedule taint every new Node gets. It returns the node without it, or null when
// there is none to lift.
export function withoutNotReadyTaint(node: KubeObject): KubeObject | null {
  const taints = (node.spec as { taints?: { key?: string; effect?: string }[] } | undefined)?.taints ?? [];
  const kept = taints.filter((t) => !(t.key === TaintNodeNotReady && t.effect === 'NoSchedule'));
  if (kept.length === taints.length) return null;
  return { ...node, spec: { ...(node.spec as object), taints: kept.length > 0 ? kept : undefined } };
}

function hashName(name: string): number {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h;
}
