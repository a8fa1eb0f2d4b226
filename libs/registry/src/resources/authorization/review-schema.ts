// The authorization.platform.io/v1 review schemas of Kubernetes 1.28
// (k8s.io/api/authorization/v1 types.go).
import { kindSchema, s, Schema } from '@plinth/api';

const ref = (name: string): string => `io.k8s.api.authorization.v1.${name}`;

export const resourceAttributesSchema: Schema = s.object(
  {
    namespace: s.string('Namespace is the namespace of the action being requested.'),
    verb: s.string('Verb is a kubernetes resource API verb, like: get, list, watch, create, update, delete, proxy.  "*" means all.'),
    group: s.string('Group is the API Group of the Resource.  "*" means all.'),
    version: s.string('Version is the API Version of the Resource.  "*" means all.'),
    resource: s.string('Resource is one of the existing resource types.  "*" means all.'),
    subresource: s.string('Subresource is one of the existing resource types.  "" means none.'),
    name: s.string('Name is the name of the resource being requested for a "get" or deleted for a "delete". "" (empty) means all.'),
  },
  { ref: ref('ResourceAttributes') },
);

export const nonResourceAttributesSchema: Schema = s.object(
  {
    path: s.string('Path is the URL path of the request'),
    verb: s.string('Verb is the standard HTTP verb'),
  },
  { ref: ref('NonResourceAttributes') },
);

export const subjectAccessReviewSpecSchema: Schema = s.object(
  {
    resourceAttributes: { ...resourceAttributesSchema, description: 'ResourceAuthorizationAttributes describes information for a resource access request' },
    nonResourceAttributes: { ...nonResourceAttributesSchema, description: 'NonResourceAttributes describes information for a non-resource access request' },
    user: s.string('User is the user you\'re testing for.'),
    groups: s.list(s.string(), 'Groups is the groups you\'re testing for.'),
    extra: s.map(s.list(s.string()), { description: 'Extra corresponds to the user.Info.GetExtra() method from the authenticator.' }),
    uid: s.string('UID information about the requesting user.'),
  },
  { ref: ref('SubjectAccessReviewSpec') },
);

export const subjectAccessReviewStatusSchema: Schema = s.object(
  {
    allowed: s.bool('Allowed is required. True if the action would be allowed, false otherwise.'),
    denied: s.bool('Denied is optional. True if the action would be denied, otherwise false.'),
    reason: s.string('Reason is optional.  It indicates why a request was allowed or denied.'),
    evaluationError: s.string('EvaluationError is an indication that some error occurred during the authorization check.'),
  },
  { required: ['allowed'], ref: ref('SubjectAccessReviewStatus') },
);

const status = (): Schema => ({ ...subjectAccessReviewStatusSchema, description: 'Status is filled in by the server and indicates whether the request is allowed or not' });

export const subjectAccessReviewSchema: Schema = kindSchema(
  {
    spec: { ...subjectAccessReviewSpecSchema, description: 'Spec holds information about the request being evaluated' },
    status: status(),
  },
  'SubjectAccessReview checks whether or not a user or group can perform an action.',
  { required: ['spec'], ref: ref('SubjectAccessReview') },
);

export const localSubjectAccessReviewSchema: Schema = kindSchema(
  {
    spec: {
      ...subjectAccessReviewSpecSchema,
      description: 'Spec holds information about the request being evaluated.  spec.namespace must be equal to the namespace you made the request against.  If empty, it is defaulted.',
    },
    status: status(),
  },
  'LocalSubjectAccessReview checks whether or not a user or group can perform an action in a given namespace. Having a namespace scoped resource makes it much easier to grant namespace scoped policy that includes permissions checking.',
  { required: ['spec'], ref: ref('LocalSubjectAccessReview') },
);

export const selfSubjectAccessReviewSpecSchema: Schema = s.object(
  {
    resourceAttributes: { ...resourceAttributesSchema, description: 'ResourceAuthorizationAttributes describes information for a resource access request' },
    nonResourceAttributes: { ...nonResourceAttributesSchema, description: 'NonResourceAttributes describes information for a non-resource access request' },
  },
  { ref: ref('SelfSubjectAccessReviewSpec') },
);

export const selfSubjectAccessReviewSchema: Schema = kindSchema(
  {
    spec: { ...selfSubjectAccessReviewSpecSchema, description: 'Spec holds information about the request being evaluated.  user and groups must be empty' },
    status: status(),
  },
  'SelfSubjectAccessReview checks whether or the current user can perform an action.  Not filling in a spec.namespace means "in all namespaces".  Self is a special case, because users should always be able to check whether they can perform an action',
  { required: ['spec'], ref: ref('SelfSubjectAccessReview') },
);

const resourceRuleSchema: Schema = s.object(
  {
    verbs: s.list(s.string(), 'Verb is a list of kubernetes resource API verbs, like: get, list, watch, create, update, delete, proxy.  "*" means all.'),
    apiGroups: s.list(s.string(), 'APIGroups is the name of the APIGroup that contains the resources.'),
    resources: s.list(s.string(), 'Resources is a list of resources this rule applies to.  "*" means all in the specified apiGroups.'),
    resourceNames: s.list(s.string(), 'ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.  "*" means all.'),
  },
  { required: ['verbs'], ref: ref('ResourceRule') },
);

const nonResourceRuleSchema: Schema = s.object(
  {
    verbs: s.list(s.string(), 'Verb is a list of kubernetes non-resource API verbs, like: get, post, put, delete, patch, head, options.  "*" means all.'),
    nonResourceURLs: s.list(s.string(), 'NonResourceURLs is a set of partial urls that a user should have access to.'),
  },
  { required: ['verbs'], ref: ref('NonResourceRule') },
);

export const subjectRulesReviewStatusSchema: Schema = s.object(
  {
    resourceRules: s.list(resourceRuleSchema, 'ResourceRules is the list of actions the subject is allowed to perform on resources.'),
    nonResourceRules: s.list(nonResourceRuleSchema, 'NonResourceRules is the list of actions the subject is allowed to perform on non-resources.'),
    incomplete: s.bool('Incomplete is true when the rules returned by this call are incomplete.'),
    evaluationError: s.string('EvaluationError can appear in combination with Rules.'),
  },
  { required: ['resourceRules', 'nonResourceRules', 'incomplete'], ref: ref('SubjectRulesReviewStatus') },
);

export const selfSubjectRulesReviewSchema: Schema = kindSchema(
  {
    spec: {
      ...s.object({ namespace: s.string('Namespace to evaluate rules for. Required.') }, { ref: ref('SelfSubjectRulesReviewSpec') }),
      description: 'Spec holds information about the request being evaluated.',
    },
    status: { ...subjectRulesReviewStatusSchema, description: 'Status is filled in by the server and indicates the set of actions a user can perform.' },
  },
  'SelfSubjectRulesReview enumerates the set of actions the current user can perform within a namespace.',
  { required: ['spec'], ref: ref('SelfSubjectRulesReview') },
);
