// What the pod strategy fills in on create (pkg/registry/core/pod/strategy.go, v1.28): the
// Pending phase, the QoS class (pkg/apis/core/helper/qos.GetPodQOS) and the PodScheduled
// condition of a pod held by scheduling gates.
import { KubeObject } from '@plinth/api';
import { addQuantities, compareQuantities, Quantity, tryParseQuantity } from './quantity';
import { isObj, Obj, objects } from './validation-helpers';

const qosComputeResources = ['cpu', 'memory'];

// podQOSClass is GetPodQOS: BestEffort without requests or limits, Guaranteed when every
// container limits cpu and memory and requests equal limits, Burstable otherwise.
export function podQOSClass(spec: Obj): 'BestEffort' | 'Burstable' | 'Guaranteed' {
  const requests = new Map<string, Quantity>();
  const limits = new Map<string, Quantity>();
  let guaranteed = true;
  const add = (into: Map<string, Quantity>, name: string, q: Quantity) => {
    const prev = into.get(name);
    into.set(name, prev ? addQuantities(prev, q) : q);
  };
  for (const c of [...objects(spec.containers), ...objects(spec.initContainers)]) {
    const resources = isObj(c.resources) ? c.resources : {};
    for (const [name, value] of Object.entries(isObj(resources.requests) ? resources.requests : {})) {
      const q = tryParseQuantity(value);
      if (qosComputeResources.includes(name) && q && q.nanos > 0n) add(requests, name, q);
    }
    const found = new Set<string>();
    for (const [name, value] of Object.entries(isObj(resources.limits) ? resources.limits : {})) {
      const q = tryParseQuantity(value);
      if (qosComputeResources.includes(name) && q && q.nanos > 0n) {
        found.add(name);
        add(limits, name, q);
      }
    }
    if (!qosComputeResources.every((r) => found.has(r))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (!lim || compareQuantities(lim, req) !== 0) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}

// initialPodStatus is the status a new pod starts with.
export function initialPodStatus(pod: KubeObject): Obj {
  const spec = isObj(pod.spec) ? pod.spec : {};
  const status: Obj = { phase: 'Pending', qosClass: podQOSClass(spec) };
  if (objects(spec.schedulingGates).length > 0) {
    status.conditions = [
      {
        type: 'PodScheduled',
        status: 'False',
        lastProbeTime: null,
        lastTransitionTime: null,
        reason: 'SchedulingGated',
        message: 'Scheduling is blocked due to non-empty scheduling gates',
      },
    ];
  }
  return status;
}
