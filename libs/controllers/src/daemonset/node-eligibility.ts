// nodeShouldRunDaemonPod is NodeShouldRunDaemonPod (daemon_controller.go, v1.28): whether a
// daemon pod should be placed on a node (shouldRun) and whether one already there may stay
// (shouldContinueRunning). A node fits when the template's nodeName, nodeSelector and required
// node affinity match it and the pod, with the daemon tolerations, tolerates its NoSchedule and
// NoExecute taints; an untolerated NoSchedule taint alone lets a running pod stay.
import { withDaemonTolerations } from './pod-template';
import { DaemonSet, Node, NodeSelectorRequirement, PodSpec, Taint, Toleration } from '@plinth/api';

export interface NodePlacement {
  shouldRun: boolean;
  shouldContinueRunning: boolean;
}

export function nodeShouldRunDaemonPod(node: Node, ds: DaemonSet): NodePlacement {
  const spec: PodSpec = ds.spec?.template?.spec ?? {};
  const name = node.metadata.name ?? '';
  if (spec.nodeName && spec.nodeName !== name) return { shouldRun: false, shouldContinueRunning: false };
  if (!matchesNodeAffinity(spec, node)) return { shouldRun: false, shouldContinueRunning: false };
  const tolerations = withDaemonTolerations(spec);
  const taints = node.spec?.taints ?? [];
  if (hasUntoleratedTaint(taints, tolerations, ['NoSchedule', 'NoExecute'])) {
    return { shouldRun: false, shouldContinueRunning: !hasUntoleratedTaint(taints, tolerations, ['NoExecute']) };
  }
  return { shouldRun: true, shouldContinueRunning: true };
}

// toleratesTaint is v1.Toleration.ToleratesTaint.
export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  switch (toleration.operator ?? '') {
    case '':
    case 'Equal':
      return (toleration.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

function hasUntoleratedTaint(taints: Taint[], tolerations: Toleration[], effects: string[]): boolean {
  return taints.some((taint) => effects.includes(taint.effect) && !tolerations.some((t) => toleratesTaint(t, taint)));
}

// matchesNodeAffinity is nodeaffinity.GetRequiredNodeAffinity(pod).Match(node): the
// nodeSelector, and any one of the required node selector terms.
export function matchesNodeAffinity(spec: PodSpec, node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  for (const [key, value] of Object.entries(spec.nodeSelector ?? {})) if (labels[key] !== value) return false;
  const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) return true;
  const fields = { 'metadata.name': node.metadata.name ?? '' };
  return (required.nodeSelectorTerms ?? []).some((term) => {
    const expressions = term.matchExpressions ?? [];
    const matchFields = term.matchFields ?? [];
    if (expressions.length + matchFields.length === 0) return false;
    return expressions.every((r) => matchesRequirement(r, labels)) && matchFields.every((r) => r.key === 'metadata.name' && matchesRequirement(r, fields));
  });
}

function matchesRequirement(r: NodeSelectorRequirement, labels: Record<string, string>): boolean {
  const value = Object.prototype.hasOwnProperty.call(labels, r.key) ? labels[r.key] : undefined;
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      if (value === undefined || values.length !== 1 || !/^-?[0-9]+$/.test(value) || !/^-?[0-9]+$/.test(values[0])) return false;
      const have = BigInt(value);
      const want = BigInt(values[0]);
      return r.operator === 'Gt' ? have > want : have < want;
    }
    default:
      return false;
  }
}
