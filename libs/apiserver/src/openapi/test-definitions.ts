// Definitions the OpenAPI specs serve: a namespaced kind with a status subresource built from
// the shared core schemas (batch/v1 Job) and a cluster-scoped kind of a platform group whose
// schema names no ref (rbac.authorization.platform.io/v1 ClusterRole), plus a third to change
// the catalog with.
import { kindSchema, labelSelectorSchema, podTemplateSpecSchema, s } from '@plinth/api';
import type { ResourceDefinition } from '@plinth/registry';

const strategy = { validate: () => [] };
const allVerbs: ResourceDefinition['verbs'] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export const jobDefinition: ResourceDefinition = {
  group: 'batch',
  version: 'v1',
  resource: 'jobs',
  singular: 'job',
  kind: 'Job',
  listKind: 'JobList',
  namespaced: true,
  verbs: allVerbs,
  subresources: ['status'],
  schema: kindSchema(
    {
      spec: s.object(
        {
          parallelism: s.int32('Specifies the maximum desired number of pods the job should run at any given time.'),
          completionMode: s.enumOf(['NonIndexed', 'Indexed'], 'completionMode specifies how Pod completions are tracked.'),
          selector: labelSelectorSchema,
          template: { ...podTemplateSpecSchema, description: 'Describes the pod that will be created when executing a job.' },
        },
        { required: ['template'], description: 'JobSpec describes how the job execution will look like.', ref: 'io.k8s.api.batch.v1.JobSpec' },
      ),
      status: s.object({ active: s.int32('The number of pending and running pods.') }, { description: 'JobStatus represents the current state of a Job.', ref: 'io.k8s.api.batch.v1.JobStatus' }),
    },
    'Job represents the configuration of a single job.',
    { ref: 'io.k8s.api.batch.v1.Job' },
  ),
  strategy,
};

const policyRuleSchema = s.object(
  {
    apiGroups: s.atomicList(s.string(), 'APIGroups is the name of the APIGroup that contains the resources.'),
    resources: s.atomicList(s.string(), 'Resources is a list of resources this rule applies to.'),
    verbs: s.atomicList(s.string(), 'Verbs is a list of Verbs that apply to ALL the ResourceKinds contained in this rule.'),
  },
  { required: ['verbs'], description: 'PolicyRule holds information that describes a policy rule.', ref: 'io.k8s.api.rbac.v1.PolicyRule' },
);

export const clusterRoleDefinition: ResourceDefinition = {
  group: 'rbac.authorization.platform.io',
  version: 'v1',
  resource: 'clusterroles',
  singular: 'clusterrole',
  kind: 'ClusterRole',
  listKind: 'ClusterRoleList',
  namespaced: false,
  verbs: allVerbs,
  schema: kindSchema({ rules: s.atomicList(policyRuleSchema, 'Rules holds all the PolicyRules for this ClusterRole') }, 'ClusterRole is a cluster level, logical grouping of PolicyRules.'),
  strategy,
};

export const configMapDefinition: ResourceDefinition = {
  group: '',
  version: 'v1',
  resource: 'configmaps',
  singular: 'configmap',
  kind: 'ConfigMap',
  listKind: 'ConfigMapList',
  namespaced: true,
  verbs: allVerbs,
  schema: kindSchema({ data: s.stringMap('Data contains the configuration data.'), immutable: s.bool('Immutable, if set to true, ensures that data stored in the ConfigMap cannot be updated.') }, 'ConfigMap holds configuration data for pods to consume.'),
  strategy,
};
