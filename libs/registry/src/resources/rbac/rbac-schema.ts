// The rbac.authorization.platform.io/v1 schemas of Kubernetes 1.28 (k8s.io/api/rbac/v1).
import { kindSchema, labelSelectorSchema, s, Schema } from '@plinth/api';

const ref = (name: string): string => `io.k8s.api.rbac.v1.${name}`;

export const policyRuleSchema: Schema = s.object(
  {
    verbs: s.list(s.string(), "Verbs is a list of Verbs that apply to ALL the ResourceKinds contained in this rule. '*' represents all verbs."),
    apiGroups: s.list(s.string(), 'APIGroups is the name of the APIGroup that contains the resources.'),
    resources: s.list(s.string(), "Resources is a list of resources this rule applies to. '*' represents all resources."),
    resourceNames: s.list(s.string(), 'ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.'),
    nonResourceURLs: s.list(s.string(), 'NonResourceURLs is a set of partial urls that a user should have access to.'),
  },
  { required: ['verbs'], ref: ref('PolicyRule') },
);

export const aggregationRuleSchema: Schema = s.object(
  {
    clusterRoleSelectors: s.list(labelSelectorSchema, 'ClusterRoleSelectors holds a list of selectors which will be used to find ClusterRoles and create the rules.'),
  },
  { ref: ref('AggregationRule') },
);

export const subjectSchema: Schema = s.object(
  {
    kind: s.string('Kind of object being referenced. Values defined by this API group are "User", "Group", and "ServiceAccount".'),
    apiGroup: s.string('APIGroup holds the API group of the referenced subject.'),
    name: s.string('Name of the object being referenced.'),
    namespace: s.string('Namespace of the referenced object.'),
  },
  { required: ['kind', 'name'], mapType: 'atomic', ref: ref('Subject') },
);

export const roleRefSchema: Schema = s.object(
  {
    apiGroup: s.string('APIGroup is the group for the resource being referenced'),
    kind: s.string('Kind is the type of resource being referenced'),
    name: s.string('Name is the name of resource being referenced'),
  },
  { required: ['apiGroup', 'kind', 'name'], mapType: 'atomic', ref: ref('RoleRef') },
);

const rules = (): Schema => s.list(policyRuleSchema, 'Rules holds all the PolicyRules for this Role');

export const roleSchema: Schema = kindSchema(
  { rules: rules() },
  'Role is a namespaced, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding.',
  { ref: ref('Role') },
);

export const clusterRoleSchema: Schema = kindSchema(
  {
    rules: { ...rules(), description: 'Rules holds all the PolicyRules for this ClusterRole' },
    aggregationRule: {
      ...aggregationRuleSchema,
      description: 'AggregationRule is an optional field that describes how to build the Rules for this ClusterRole.',
    },
  },
  'ClusterRole is a cluster level, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding or ClusterRoleBinding.',
  { ref: ref('ClusterRole') },
);

const subjects = (): Schema => s.list(subjectSchema, 'Subjects holds references to the objects the role applies to.');

export const roleBindingSchema: Schema = kindSchema(
  {
    subjects: subjects(),
    roleRef: { ...roleRefSchema, description: 'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace.' },
  },
  'RoleBinding references a role, but does not contain it.  It can reference a Role in the same namespace or a ClusterRole in the global namespace.',
  { required: ['roleRef'], ref: ref('RoleBinding') },
);

export const clusterRoleBindingSchema: Schema = kindSchema(
  {
    subjects: subjects(),
    roleRef: { ...roleRefSchema, description: 'RoleRef can only reference a ClusterRole in the global namespace.' },
  },
  'ClusterRoleBinding references a ClusterRole, but not contain it.  It can reference a ClusterRole in the global namespace, and adds who information via Subject.',
  { required: ['roleRef'], ref: ref('ClusterRoleBinding') },
);
