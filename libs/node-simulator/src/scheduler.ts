// chooseNode is the simulator's scheduler: the least loaded Ready, schedulable node that the
// pod's nodeSelector, required node affinity (matchFields on metadata.name, matchExpressions on
// labels) and tolerations allow; null when none fits.
import { KubeObject, NodeSpec, NodeSelectorRequirement, PodSpec, Taint, TaintNodeUnschedulable, Toleration } from '@plinth/api';

export function chooseNode(pod: KubeObject, nodes: KubeObject[], podsPerNode: ReadonlyMap<string, number>): string | null {
  const fits = nodes.filter((node) => nodeFits(pod, node));
  if (fits.length === 0) return null;
  fits.sort((a, b) => (podsPerNode.get(a.metadata.name ?? '') ?? 0) - (podsPerNode.get(b.metadata.name ?? '') ?? 0) || ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
  return fits[0].metadata.name ?? null;
}

export function nodeFits(pod: KubeObject, node: KubeObject): boolean {
  const spec = (pod.spec ?? {}) as PodSpec;
  const nodeSpec = (node.spec ?? {}) as NodeSpec;
  const labels = node.metadata.labels ?? {};
  const ready = ((node.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
  if (!ready) return false;
  const tolerations = spec.tolerations ?? [];
  if (nodeSpec.unschedulable && !tolerates(tolerations, { key: TaintNodeUnschedulable, effect: 'NoSchedule' })) return false;
  for (const [key, value] of Object.entries(spec.nodeSelector ?? {})) if (labels[key] !== value) return false;
  for (const taint of nodeSpec.taints ?? []) {
    if ((taint.effect === 'NoSchedule' || taint.effect === 'NoExecute') && !tolerates(tolerations, taint)) return false;
  }
  const terms = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (terms && terms.length > 0) {
    const fields: Record<string, string> = { 'metadata.name': node.metadata.name ?? '' };
    if (!terms.some((t) => (t.matchExpressions ?? []).every((r) => matches(r, labels)) && (t.matchFields ?? []).every((r) => matches(r, fields)))) return false;
  }
  return true;
}

function tolerates(tolerations: Toleration[], taint: Taint): boolean {
  return tolerations.some((t) => {
    if (t.effect && t.effect !== taint.effect) return false;
    if (t.operator === 'Exists') return !t.key || t.key === taint.key;
    return t.key === taint.key && (t.value ?? '') === (taint.value ?? '');
  });
}

function matches(r: NodeSelectorRequirement, labels: Record<string, string>): boolean {
  const value = labels[r.key];
  switch (r.operator) {
    case 'In':
      return value !== undefined && (r.values ?? []).includes(value);
    case 'NotIn':
      return value === undefined || !(r.values ?? []).includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    default:
      return false;
  }
}
