// The apps/v1 shapes shared by the DaemonSet registry and the DaemonSet controller: DaemonSet,
// ControllerRevision and the names DaemonSets label and annotate with. JSON fields may be
// absent or null (a Go nil pointer): both mean unset.
import { LabelSelector } from '@plinth/machinery';
import { KubeObject } from '../object';
import { PodTemplateSpec } from './core';

// IntOrString is intstr.IntOrString: maxUnavailable and maxSurge are a count or a percentage.
export type IntOrString = number | string;

export interface RollingUpdateDaemonSet {
  maxUnavailable?: IntOrString | null;
  maxSurge?: IntOrString | null;
}

export interface DaemonSetUpdateStrategy {
  type?: string;
  rollingUpdate?: RollingUpdateDaemonSet | null;
}

export interface DaemonSetSpec {
  selector?: LabelSelector | null;
  template?: PodTemplateSpec | null;
  updateStrategy?: DaemonSetUpdateStrategy | null;
  minReadySeconds?: number | null;
  revisionHistoryLimit?: number | null;
}

export interface DaemonSetStatus {
  currentNumberScheduled?: number;
  numberMisscheduled?: number;
  desiredNumberScheduled?: number;
  numberReady?: number;
  observedGeneration?: number;
  updatedNumberScheduled?: number;
  numberAvailable?: number;
  numberUnavailable?: number;
  collisionCount?: number | null;
  conditions?: unknown[] | null;
}

export interface DaemonSet extends KubeObject {
  spec?: DaemonSetSpec;
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
// DeprecatedTemplateGeneration is the annotation apps/v1 keeps the internal
// spec.templateGeneration in.
export const DeprecatedTemplateGeneration = 'deprecated.daemonset.template.generation';
