// The RBAC authorizer of plugin/pkg/auth/authorizer/rbac/rbac.go (v1.28), the rules review it
// answers SelfSubjectRulesReview with, and the text kube-apiserver answers a refused request
// with (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go).
import { forbidden, goQuote, StatusError } from '@plinth/machinery';
import { Attributes, AuthorizationResult, UserInfo } from './attributes';
import { resolutionError, RuleResolver } from './policy-store';
import { ruleAllows } from './rule-matching';

// authorize is RBACAuthorizer.Authorize: Allow at the first rule that allows the request, with
// the binding that granted it as the reason; otherwise NoOpinion, with the errors met resolving
// rules as the reason. Errors never hide the rules of other bindings.
export function authorize(resolver: RuleResolver, attrs: Attributes): AuthorizationResult {
  let allowedBy: string | undefined;
  const errors: string[] = [];
  resolver.visitRulesFor(attrs.user, attrs.namespace, (source, rule, err) => {
    if (rule && ruleAllows(attrs, rule)) {
      allowedBy = source ?? '';
      return false;
    }
    if (err) errors.push(err);
    return true;
  });
  if (allowedBy !== undefined) {
    return { decision: 'Allow', reason: `RBAC: allowed by ${allowedBy}`, evaluationError: '', resolutionErrors: [] };
  }
  const aggregate = resolutionError(errors);
  return { decision: 'NoOpinion', reason: aggregate === undefined ? '' : `RBAC: ${aggregate}`, evaluationError: '', resolutionErrors: errors };
}

// ResourceRule and NonResourceRule are authorization/v1's, with empty lists left out as the
// JSON encoding leaves them out (verbs is always written).
export interface ResourceRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

export interface NonResourceRule {
  verbs: string[];
  nonResourceURLs?: string[];
}

// SubjectRulesReviewStatus is the status of a SelfSubjectRulesReview.
export interface SubjectRulesReviewStatus {
  resourceRules: ResourceRule[];
  nonResourceRules: NonResourceRule[];
  incomplete: boolean;
  evaluationError?: string;
}

function nonEmpty(values: readonly string[] | null | undefined): string[] | undefined {
  return values && values.length > 0 ? [...values] : undefined;
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

// rulesReview is RBACAuthorizer.RulesFor as the SelfSubjectRulesReview storage returns it: every
// rule of the user in the namespace, split into resource and non-resource rules (a rule with
// both lands in both lists), complete, with the resolution errors as evaluationError.
export function rulesReview(resolver: RuleResolver, user: UserInfo, namespace: string): SubjectRulesReviewStatus {
  const { rules, errors } = resolver.rulesFor(user, namespace);
  const resourceRules: ResourceRule[] = [];
  const nonResourceRules: NonResourceRule[] = [];
  for (const rule of rules) {
    if ((rule.resources ?? []).length > 0) {
      resourceRules.push(
        withoutUndefined({
          verbs: [...(rule.verbs ?? [])],
          apiGroups: nonEmpty(rule.apiGroups),
          resources: nonEmpty(rule.resources),
          resourceNames: nonEmpty(rule.resourceNames),
        }),
      );
    }
    if ((rule.nonResourceURLs ?? []).length > 0) {
      nonResourceRules.push(withoutUndefined({ verbs: [...(rule.verbs ?? [])], nonResourceURLs: nonEmpty(rule.nonResourceURLs) }));
    }
  }
  const status: SubjectRulesReviewStatus = { resourceRules, nonResourceRules, incomplete: false };
  const evaluationError = resolutionError(errors);
  if (evaluationError !== undefined) status.evaluationError = evaluationError;
  return status;
}

export type ForbiddenAttributes = Pick<Attributes, 'verb' | 'namespace' | 'apiGroup' | 'resource' | 'subresource' | 'name' | 'isResourceRequest' | 'path'> & {
  user?: { name: string };
};

// forbiddenMessage is forbiddenMessage of the response writers: who could not do what, where.
export function forbiddenMessage(attrs: ForbiddenAttributes): string {
  const username = goQuote(attrs.user?.name ?? '');
  if (!attrs.isResourceRequest) return `User ${username} cannot ${attrs.verb} path ${goQuote(attrs.path)}`;
  const resource = attrs.subresource.length > 0 ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const what = `User ${username} cannot ${attrs.verb} resource ${goQuote(resource)} in API group ${goQuote(attrs.apiGroup)}`;
  if (attrs.namespace.length > 0) return `${what} in the namespace ${goQuote(attrs.namespace)}`;
  return `${what} at the cluster scope`;
}

// sanitize is the response writers' sanitizer: the message must not read as HTML.
function sanitize(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

// forbiddenDetail is the error text Forbidden wraps: the sanitized message, then the
// authorizer's reason after ": " when there is one.
export function forbiddenDetail(attrs: ForbiddenAttributes, reason = ''): string {
  const msg = sanitize(forbiddenMessage(attrs));
  return reason.length === 0 ? msg : `${msg}: ${reason}`;
}

// forbiddenError is the 403 kube-apiserver answers a refused request with, e.g.
// `jobs.batch "pi" is forbidden: User "alice" cannot get resource "jobs" in API group "batch" in
// the namespace "default"`, or `forbidden: User "alice" cannot get path "/healthz"`.
export function forbiddenError(attrs: ForbiddenAttributes, reason = ''): StatusError {
  return forbidden({ group: attrs.apiGroup, resource: attrs.resource }, attrs.name, forbiddenDetail(attrs, reason));
}
