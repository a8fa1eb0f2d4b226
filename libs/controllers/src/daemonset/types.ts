// The parts of apps/v1 DaemonSet, ControllerRevision and core/v1 Pod and Node that the
// DaemonSet controller reads, as plain JSON types; ControllerRevision and the label names are
// @plinth/api's.
import { KubeObject, ObjectMeta } from '@plinth/api';
import { LabelSelector } from '@plinth/machinery';

export type { ControllerRevision } from '@plinth/api';
export { ControllerRevisionHashLabel, DeprecatedTemplateGeneration, PodTemplateGenerationLabel } from '@plinth/api';

export type IntOrString = number | string;

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export interface Taint {
  key: string;
  value?: string;
  effect: string;
}

export interface NodeSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface Affinity {
  nodeAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] };
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

export interface PodSpec {
  nodeName?: string;
  nodeSelector?: Record<string, string>;
  affinity?: Affinity;
  tolerations?: Toleration[];
  hostNetwork?: boolean;
  [field: string]: unknown;
}

export interface PodTemplateSpec {
  metadata?: ObjectMeta;
  spec?: PodSpec;
}

export interface PodCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
}

export interface Pod extends KubeObject {
  spec?: PodSpec;
  status?: { phase?: string; conditions?: PodCondition[]; [field: string]: unknown };
}

export interface Node extends KubeObject {
  spec?: { taints?: Taint[]; unschedulable?: boolean; [field: string]: unknown };
}

export interface DaemonSetStatus {
  currentNumberScheduled: number;
  numberMisscheduled: number;
  desiredNumberScheduled: number;
  numberReady: number;
  observedGeneration?: number;
  updatedNumberScheduled?: number;
  numberAvailable?: number;
  numberUnavailable?: number;
  collisionCount?: number;
  conditions?: unknown[];
}

export interface DaemonSet extends KubeObject {
  spec: {
    selector?: LabelSelector;
    template: PodTemplateSpec;
    updateStrategy?: { type?: string; rollingUpdate?: { maxUnavailable?: IntOrString; maxSurge?: IntOrString } };
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
  };
  status?: DaemonSetStatus;
}
