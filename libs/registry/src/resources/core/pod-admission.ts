// The pod admission plugins kube-apiserver enables by default that change a pod as it is
// created, as pure functions over the pod: DefaultTolerationSeconds, Priority and RuntimeClass
// (plugin/pkg/admission/{defaulttolerationseconds,priority,runtimeclass}). Each returns the
// reason it rejects a pod, or null; the API server turns a reason into 403 Forbidden.
import { KubeObject, TaintNodeNotReady, TaintNodeUnreachable, Toleration } from '@plinth/api';
import { compareQuantities, tryParseQuantity } from './quantity';

type Obj = Record<string, unknown>;

const defaultTolerationSeconds = 300;

function podSpec(pod: KubeObject): Obj {
  if (typeof pod.spec !== 'object' || pod.spec === null) pod.spec = {};
  return pod.spec as Obj;
}

function tolerationsOf(spec: Obj): Toleration[] {
  return Array.isArray(spec.tolerations) ? (spec.tolerations as Toleration[]) : [];
}

// addDefaultTolerations is DefaultTolerationSeconds: a pod that does not tolerate the not-ready
// and unreachable NoExecute taints gets to stay 300 s on a node that has them.
export function addDefaultTolerations(pod: KubeObject): void {
  const spec = podSpec(pod);
  const tolerations = tolerationsOf(spec);
  const tolerates = (taint: string) => tolerations.some((t) => (t.key === taint || !t.key) && (t.effect === 'NoExecute' || !t.effect));
  const added: Toleration[] = [];
  for (const key of [TaintNodeNotReady, TaintNodeUnreachable]) {
    if (!tolerates(key)) added.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: defaultTolerationSeconds });
  }
  if (added.length > 0) spec.tolerations = [...tolerations, ...added];
}

// systemPriorityClasses are the priority classes every cluster has (scheduling/v1 SystemPriorityClasses).
const systemPriorityClasses: Record<string, number> = { 'system-node-critical': 2000001000, 'system-cluster-critical': 2000000000 };
const preemptLowerPriority = 'PreemptLowerPriority';

// admitPriority is the Priority plugin for a cluster without a default PriorityClass: a pod
// without a class gets priority 0, a system class its value, and both PreemptLowerPriority; an
// unknown class, or a priority or preemption policy that disagrees, is refused.
export function admitPriority(pod: KubeObject): string | null {
  const spec = podSpec(pod);
  const className = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : '';
  let priority = 0;
  if (className !== '') {
    if (!(className in systemPriorityClasses)) return `no PriorityClass with name ${className} was found`;
    priority = systemPriorityClasses[className];
  }
  if (typeof spec.priority === 'number' && spec.priority !== priority) {
    return `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`;
  }
  if (typeof spec.preemptionPolicy === 'string' && spec.preemptionPolicy !== preemptLowerPriority) {
    return `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${preemptLowerPriority} from the given PriorityClass name`;
  }
  spec.priority = priority;
  spec.preemptionPolicy = preemptLowerPriority;
  return null;
}

// keepPriority carries priority and preemptionPolicy over from the stored pod on update, where
// validation then refuses any other change of them.
export function keepPriority(pod: KubeObject, old: KubeObject): void {
  const spec = podSpec(pod);
  const oldSpec = (old.spec ?? {}) as Obj;
  if (spec.priority === undefined && oldSpec.priority !== undefined) spec.priority = oldSpec.priority;
  if (spec.preemptionPolicy === undefined && oldSpec.preemptionPolicy !== undefined) spec.preemptionPolicy = oldSpec.preemptionPolicy;
}

// admitRuntimeClass is the RuntimeClass plugin once the pod's class was looked up (null: the pod
// names none): it sets the pod's overhead from the class, merges the class's node selector
// (refusing conflicts) and appends its tolerations, leaving out the redundant ones.
export function admitRuntimeClass(pod: KubeObject, runtimeClass: KubeObject | null): string | null {
  const spec = podSpec(pod);
  const overhead = (runtimeClass?.overhead as { podFixed?: Obj } | undefined)?.podFixed;
  if (overhead !== undefined) {
    if (spec.overhead !== undefined && spec.overhead !== null && !sameResources(overhead, spec.overhead as Obj)) {
      return "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead";
    }
    spec.overhead = { ...overhead };
  } else if (spec.overhead !== undefined && spec.overhead !== null) {
    return 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead';
  }
  const scheduling = runtimeClass?.scheduling as { nodeSelector?: Record<string, string>; tolerations?: Toleration[] } | undefined;
  if (!scheduling) return null;
  const selector = { ...((spec.nodeSelector ?? {}) as Record<string, string>) };
  for (const [key, value] of Object.entries(scheduling.nodeSelector ?? {})) {
    if (key in selector && selector[key] !== value) {
      return `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${value}; pod.spec.nodeSelector[${key}] = ${selector[key]}`;
    }
    selector[key] = value;
  }
  if (spec.nodeSelector !== undefined || Object.keys(selector).length > 0) spec.nodeSelector = selector;
  const merged = mergeTolerations(tolerationsOf(spec), scheduling.tolerations ?? []);
  if (merged.length > 0) spec.tolerations = merged;
  return null;
}

function sameResources(a: Obj, b: Obj): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    if (!(key in a) || !(key in b)) return false;
    const qa = tryParseQuantity(a[key]);
    const qb = tryParseQuantity(b[key]);
    if (qa && qb ? compareQuantities(qa, qb) !== 0 : a[key] !== b[key]) return false;
  }
  return true;
}

// mergeTolerations is util/tolerations.MergeTolerations: both lists in order, without the
// tolerations another one already covers (the first of two equal ones is kept).
export function mergeTolerations(first: readonly Toleration[], second: readonly Toleration[]): Toleration[] {
  const all = [...first, ...second];
  const merged: Toleration[] = [];
  all.forEach((t, i) => {
    if (merged.some((kept) => isSuperset(kept, t))) return;
    if (all.slice(i + 1).some((later) => !sameToleration(t, later) && isSuperset(later, t))) return;
    merged.push(t);
  });
  return merged;
}

function sameToleration(a: Toleration, b: Toleration): boolean {
  return (
    (a.key ?? '') === (b.key ?? '') &&
    (a.operator ?? '') === (b.operator ?? '') &&
    (a.value ?? '') === (b.value ?? '') &&
    (a.effect ?? '') === (b.effect ?? '') &&
    (a.tolerationSeconds ?? null) === (b.tolerationSeconds ?? null)
  );
}

// isSuperset tells whether ss tolerates everything t tolerates.
function isSuperset(ss: Toleration, t: Toleration): boolean {
  if (sameToleration(ss, t)) return true;
  const ssKey = ss.key ?? '';
  if ((t.key ?? '') !== ssKey && (ssKey !== '' || ss.operator !== 'Exists')) return false;
  if ((t.effect ?? '') !== (ss.effect ?? '') && (ss.effect ?? '') !== '') return false;
  if (ss.effect === 'NoExecute' && typeof ss.tolerationSeconds === 'number') {
    if (typeof t.tolerationSeconds !== 'number' || t.tolerationSeconds > ss.tolerationSeconds) return false;
  }
  switch (ss.operator ?? '') {
    case 'Equal':
    case '':
      return t.operator === 'Equal' && (t.value ?? '') === (ss.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}
