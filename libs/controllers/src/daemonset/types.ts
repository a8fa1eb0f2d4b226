// The parts of apps/v1 DaemonSet, ControllerRevision and core/v1 Pod and Node that the
// DaemonSet controller reads. Controllers go through the client, never the registry, so the
// shapes are restated here as plain JSON types.
import { KubeObject, ObjectMeta } from '@plinth/api';
import { LabelSelector } from '@plinth/machinery';

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

export interface ControllerRevision extends KubeObject {
  data?: unknown;
  revision?: number;
}

// ControllerRevisionHashLabel is apps.DefaultDaemonSetUniqueLabelKey: the revision hash on
// revisions and on the pods created from them.
export const ControllerRevisionHashLabel = 'controller-revision-hash';
// PodTemplateGenerationLabel is extensions.DaemonSetTemplateGenerationKey.
export const PodTemplateGenerationLabel = 'pod-template-generation';
// DeprecatedTemplateGeneration is the annotation apps/v1 keeps spec.templateGeneration in.
export const DeprecatedTemplateGeneration = 'deprecated.daemonset.template.generation';
