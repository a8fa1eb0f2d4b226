// The apps/v1 shapes shared by the DaemonSet registry and the DaemonSet controller:
// ControllerRevision and the names DaemonSets label and annotate with.
import { KubeObject } from '../object';

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
