// Pods (v1), after pkg/registry/core/pod: defaults, create-time status, graceful deletion,
// validation, field selectors and the kubectl table.
import { KubeObject, kindSchema, podSpecSchema, podStatusSchema } from '@plinth/api';
import { objectVerbs, ResourceDefinition, ResourceStrategy } from '../../resource';
import { defaultPod, dropDisabledPodSpecFields } from './pod-defaults';
import { initialPodStatus } from './pod-status';
import { podTable } from './pod-table';
import { validatePodCreate, validatePodStatusUpdate, validatePodUpdate } from './pod-validation';
import { isObj, objects, str } from './validation-helpers';

function spec(pod: KubeObject): Record<string, unknown> {
  return isObj(pod.spec) ? pod.spec : {};
}

function status(pod: KubeObject): Record<string, unknown> {
  return isObj(pod.status) ? pod.status : {};
}

// podGracePeriodSeconds is podStrategy.CheckGracefulDelete: the request's value or the pod's
// terminationGracePeriodSeconds, but 0 for a pod never scheduled or already terminated, and 1
// for a negative value.
export function podGracePeriodSeconds(pod: KubeObject, requested: number | undefined): number {
  let period = requested ?? (typeof spec(pod).terminationGracePeriodSeconds === 'number' ? (spec(pod).terminationGracePeriodSeconds as number) : 0);
  if (str(spec(pod).nodeName).length === 0) period = 0;
  const phase = status(pod).phase;
  if (phase === 'Failed' || phase === 'Succeeded') period = 0;
  if (period < 0) period = 1;
  return period;
}

// podSelectableFields is pod.ToSelectableFields.
export function podSelectableFields(pod: KubeObject): Record<string, string> {
  const podIPs = objects(status(pod).podIPs);
  return {
    'metadata.name': pod.metadata.name ?? '',
    'metadata.namespace': pod.metadata.namespace ?? '',
    'spec.nodeName': str(spec(pod).nodeName),
    'spec.restartPolicy': str(spec(pod).restartPolicy),
    'spec.schedulerName': str(spec(pod).schedulerName),
    'spec.serviceAccountName': str(spec(pod).serviceAccountName),
    'spec.hostNetwork': String(spec(pod).hostNetwork === true),
    'status.phase': str(status(pod).phase),
    'status.podIP': podIPs.length > 0 ? str(podIPs[0].ip) : '',
    'status.nominatedNodeName': str(status(pod).nominatedNodeName),
  };
}

export const podStrategy: ResourceStrategy = {
  defaults(pod) {
    defaultPod(pod);
  },
  prepareForCreate(pod) {
    dropDisabledPodSpecFields(spec(pod));
    pod.status = initialPodStatus(pod);
  },
  prepareForUpdate(pod, old) {
    dropDisabledPodSpecFields(spec(pod), spec(old));
  },
  validate: (pod) => validatePodCreate(pod),
  validateUpdate: (pod, old) => validatePodUpdate(pod, old),
  validateStatusUpdate: (pod, old) => validatePodStatusUpdate(pod, old),
  selectableFields: podSelectableFields,
  gracePeriodSeconds: podGracePeriodSeconds,
};

export const podSchema = kindSchema(
  { spec: podSpecSchema, status: podStatusSchema },
  'Pod is a collection of containers that can run on a host. This resource is created by clients and scheduled onto hosts.',
  { ref: 'io.k8s.api.core.v1.Pod' },
);

export const podDefinition: ResourceDefinition = {
  group: '',
  version: 'v1',
  resource: 'pods',
  singular: 'pod',
  kind: 'Pod',
  listKind: 'PodList',
  namespaced: true,
  shortNames: ['po'],
  categories: ['all'],
  verbs: objectVerbs,
  subresources: ['status', 'binding'],
  tracksGeneration: false,
  hasStatus: true,
  schema: podSchema,
  zeroValue: { spec: { containers: null }, status: {} },
  strategy: podStrategy,
  table: podTable,
  deleteReturnsObject: true,
  nameValidation: 'dns-subdomain',
};
