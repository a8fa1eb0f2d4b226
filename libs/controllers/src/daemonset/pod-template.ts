// The pod a DaemonSet runs on a node, after util.CreatePodTemplate,
// AddOrUpdateDaemonPodTolerations and ReplaceDaemonSetPodNodeNameNodeAffinity (v1.28): the
// template plus the daemon tolerations, the revision labels and a required node affinity on
// metadata.name, so that the scheduler binds it to that one node.
import {
  Affinity,
  ControllerRevisionHashLabel,
  DaemonSet,
  DeprecatedTemplateGeneration,
  OwnerReference,
  Pod,
  PodSpec,
  PodTemplateSpec,
  PodTemplateGenerationLabel,
  TaintNodeDiskPressure,
  TaintNodeMemoryPressure,
  TaintNodeNetworkUnavailable,
  TaintNodeNotReady,
  TaintNodePIDPressure,
  TaintNodeUnreachable,
  TaintNodeUnschedulable,
  Toleration,
} from '@plinth/api';

const exists = (key: string, effect: string): Toleration => ({ key, operator: 'Exists', effect });

// daemonTolerations are added to every daemon pod so that it stays on nodes that are not
// ready or under pressure, and lands on unschedulable ones.
export const daemonTolerations: readonly Toleration[] = [
  exists(TaintNodeNotReady, 'NoExecute'),
  exists(TaintNodeUnreachable, 'NoExecute'),
  exists(TaintNodeDiskPressure, 'NoSchedule'),
  exists(TaintNodeMemoryPressure, 'NoSchedule'),
  exists(TaintNodePIDPressure, 'NoSchedule'),
  exists(TaintNodeUnschedulable, 'NoSchedule'),
];

// hostNetworkToleration is added only to pods on the host network.
export const hostNetworkToleration: Toleration = exists(TaintNodeNetworkUnavailable, 'NoSchedule');

// withDaemonTolerations is AddOrUpdateDaemonPodTolerations: each default replaces a toleration
// with the same key and effect, or is appended.
export function withDaemonTolerations(spec: PodSpec): Toleration[] {
  const defaults = spec.hostNetwork ? [...daemonTolerations, hostNetworkToleration] : daemonTolerations;
  const result = [...(spec.tolerations ?? [])];
  for (const toleration of defaults) {
    const at = result.findIndex((t) => t.key === toleration.key && t.effect === toleration.effect);
    if (at >= 0) result[at] = { ...toleration };
    else result.push({ ...toleration });
  }
  return result;
}

// templateGeneration is the DaemonSet's deprecated template generation, undefined when absent
// or malformed.
export function templateGeneration(ds: DaemonSet): number | undefined {
  const value = ds.metadata.annotations?.[DeprecatedTemplateGeneration];
  return value !== undefined && /^[+-]?[0-9]+$/.test(value) ? Number.parseInt(value, 10) : undefined;
}

// createPodTemplate is util.CreatePodTemplate.
export function createPodTemplate(ds: DaemonSet, hash: string): PodTemplateSpec {
  const template = structuredClone(ds.spec?.template ?? {});
  const spec: PodSpec = template.spec ?? {};
  spec.tolerations = withDaemonTolerations(spec);
  const labels = { ...(template.metadata?.labels ?? {}) };
  const generation = templateGeneration(ds);
  if (generation !== undefined) labels[PodTemplateGenerationLabel] = String(generation);
  if (hash) labels[ControllerRevisionHashLabel] = hash;
  return { metadata: { ...(template.metadata ?? {}), labels }, spec };
}

// nodeNameAffinity is ReplaceDaemonSetPodNodeNameNodeAffinity: the required node selector
// becomes the single term metadata.name In [nodeName]; the rest of the affinity is kept.
export function nodeNameAffinity(affinity: Affinity | null | undefined, nodeName: string): Affinity {
  const required = { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }] };
  const result: Affinity = structuredClone(affinity ?? {});
  result.nodeAffinity = { ...(result.nodeAffinity ?? {}), requiredDuringSchedulingIgnoredDuringExecution: required };
  return result;
}

export function controllerRef(ds: DaemonSet): OwnerReference {
  return { apiVersion: 'apps/v1', kind: 'DaemonSet', name: ds.metadata.name ?? '', uid: ds.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}

// newDaemonPod is the pod syncNodes creates for nodeName (with generateName `<ds>-`).
export function newDaemonPod(ds: DaemonSet, nodeName: string, hash: string): Pod {
  const template = createPodTemplate(ds, hash);
  const spec: PodSpec = { ...template.spec, affinity: nodeNameAffinity(template.spec?.affinity, nodeName) };
  const metadata = { ...template.metadata, generateName: `${ds.metadata.name}-`, namespace: ds.metadata.namespace, ownerReferences: [controllerRef(ds)] };
  delete metadata.name;
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec };
}
