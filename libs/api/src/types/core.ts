// The shapes of core/v1 Pod and Node that more than one part reads (the registry, the Job and
// DaemonSet controllers, the node simulator), as plain JSON types (JSON fields may be absent or
// null, a Go nil pointer: both mean unset), and the well-known keys of core/v1 objects.
// Kubernetes spells those with a kubernetes.io/ prefix (kubernetes.io/… or <name>.kubernetes.io/…);
// Plinth writes and matches them with platform.io/, as it renames every such key (README.md).
// Each constant names its Kubernetes twin.
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

// The taints of a Node's conditions and of a cordoned Node (v1.TaintNode*).
// TaintNodeNotReady is node.kubernetes.io/not-ready: a Node that is not (yet) Ready carries it.
export const TaintNodeNotReady = 'node.platform.io/not-ready';
// TaintNodeUnreachable is node.kubernetes.io/unreachable: the node controller lost the Node.
export const TaintNodeUnreachable = 'node.platform.io/unreachable';
// TaintNodeUnschedulable is node.kubernetes.io/unschedulable: the Node is cordoned.
export const TaintNodeUnschedulable = 'node.platform.io/unschedulable';
// TaintNodeMemoryPressure is node.kubernetes.io/memory-pressure.
export const TaintNodeMemoryPressure = 'node.platform.io/memory-pressure';
// TaintNodeDiskPressure is node.kubernetes.io/disk-pressure.
export const TaintNodeDiskPressure = 'node.platform.io/disk-pressure';
// TaintNodePIDPressure is node.kubernetes.io/pid-pressure.
export const TaintNodePIDPressure = 'node.platform.io/pid-pressure';
// TaintNodeNetworkUnavailable is node.kubernetes.io/network-unavailable.
export const TaintNodeNetworkUnavailable = 'node.platform.io/network-unavailable';

// The labels a kubelet sets on its Node (v1.LabelHostname, LabelOSStable, LabelArchStable).
export const LabelHostname = 'platform.io/hostname';
export const LabelOSStable = 'platform.io/os';
export const LabelArchStable = 'platform.io/arch';
// LabelNodeRolePrefix (node-role.kubernetes.io/<role>) and LabelNodeRole (kubernetes.io/role)
// name a Node's roles, as the ROLES column shows them.
export const LabelNodeRolePrefix = 'node-role.platform.io/';
export const LabelNodeRole = 'platform.io/role';

// LabelMetadataName is v1.LabelMetadataName (kubernetes.io/metadata.name): every Namespace
// carries its own name under it.
export const LabelMetadataName = 'platform.io/metadata.name';

// MirrorPodAnnotationKey (kubernetes.io/config.mirror) marks the pods a kubelet creates for its
// static pods.
export const MirrorPodAnnotationKey = 'platform.io/config.mirror';
// EnforceMountableSecretsAnnotation (kubernetes.io/enforce-mountable-secrets), "true" on a
// ServiceAccount, limits its pods' secrets to those it lists.
export const EnforceMountableSecretsAnnotation = 'platform.io/enforce-mountable-secrets';

// ResourceDefaultNamespacePrefix (kubernetes.io/) is the domain of native resource names;
// the one Kubernetes spells stays reserved too, so that no extended resource claims it.
export const ResourceDefaultNamespacePrefix = 'platform.io/';
export const KubernetesResourceNamespacePrefix = 'kubernetes.io/';
