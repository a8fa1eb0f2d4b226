// The shapes of core/v1 Pod and Node that more than one part reads (the registry, the Job and
// DaemonSet controllers, the node simulator), as plain JSON types, and well-known keys of core/v1
// objects (renamed from kubernetes.io/ as every Plinth key is). JSON fields may be absent or null
// (a Go nil pointer): both mean unset.
import { KubeObject, ObjectMeta } from '../object';

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number | null;
}

export interface Taint {
  key: string;
  value?: string;
  effect: string;
  timeAdded?: string | null;
}

export interface NodeSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[] | null;
  matchFields?: NodeSelectorRequirement[] | null;
}

export interface Affinity {
  nodeAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] | null } | null;
    [field: string]: unknown;
  } | null;
  [field: string]: unknown;
}

export interface Container {
  name: string;
  env?: { name: string; value?: string; valueFrom?: unknown }[];
  [field: string]: unknown;
}

export interface PodSpec {
  restartPolicy?: string;
  containers?: Container[];
  initContainers?: Container[];
  hostname?: string;
  subdomain?: string;
  nodeName?: string;
  nodeSelector?: Record<string, string> | null;
  hostNetwork?: boolean | null;
  tolerations?: Toleration[] | null;
  schedulingGates?: unknown[] | null;
  affinity?: Affinity | null;
  [field: string]: unknown;
}

export interface PodTemplateSpec {
  metadata?: ObjectMeta | null;
  spec?: PodSpec | null;
}

export interface ContainerStatus {
  name: string;
  restartCount?: number;
  state?: { terminated?: { exitCode: number; finishedAt?: string } | null; [state: string]: unknown };
  [field: string]: unknown;
}

export interface PodCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
}

export interface PodStatus {
  phase?: string;
  conditions?: PodCondition[];
  containerStatuses?: ContainerStatus[];
  initContainerStatuses?: ContainerStatus[];
  [field: string]: unknown;
}

export interface Pod extends KubeObject {
  spec?: PodSpec;
  status?: PodStatus;
}

export interface NodeSpec {
  taints?: Taint[] | null;
  unschedulable?: boolean;
  [field: string]: unknown;
}

export interface Node extends KubeObject {
  spec?: NodeSpec;
  status?: { [field: string]: unknown };
}

// TaintNodeNotReady is v1.TaintNodeNotReady: a Node that is not (yet) Ready carries it.
export const TaintNodeNotReady = 'node.platform.io/not-ready';
