// The virtual review types: POST answers the same kind with status filled, never stored.
// SelfSubjectReview tells who the requester is, TokenReview whom a token authenticates; the
// access reviews ask the authorizer.
import { KubeObject } from '@plinth/api';
import { updateManagedFields } from '@plinth/apply';
import { badRequest, internalError, invalid, isStatusError, methodNotSupported, rfc3339 } from '@plinth/machinery';
import { Attributes, AuthorizationResult, nonResourceAttributes, resourceAttributes, UserInfo } from '@plinth/rbac';
import { localSubjectAccessReviewBadRequest, selfSubjectRulesReviewBadRequest, tokenReviewBadRequest } from '@plinth/registry';
import { decodeBody } from '../decode';
import { writeResult } from '../output';
import { fieldManagerOf, RequestScope } from '../scope';
import { parseWriteOptions } from '../write-options';

interface ReviewSpec {
  resourceAttributes?: Record<string, string | undefined>;
  nonResourceAttributes?: { path?: string; verb?: string };
  user?: string;
  groups?: string[];
  uid?: string;
  extra?: Record<string, string[]>;
  namespace?: string;
  // token and audiences are a TokenReview's.
  token?: string;
  audiences?: string[];
}

export async function createReview(scope: RequestScope): Promise<void> {
  const options = parseWriteOptions(scope.query, 'CreateOptions');
  const review = await decodeBody(scope, 'CreateOptions');
  const spec = (review.spec ?? {}) as ReviewSpec;
  if (scope.def.kind === 'LocalSubjectAccessReview' && !review.metadata.namespace) review.metadata.namespace = scope.info.namespace;
  const ctx = scope.store.context();
  if (scope.def.kind === 'TokenReview') {
    const problem = tokenReviewBadRequest(review);
    if (problem) throw badRequest(problem);
  }
  recordReviewManagedFields(scope, review, options.fieldManager, ctx.now);
  const errs = scope.def.strategy.validate(review, ctx);
  // The review REST refuses with the zero kind and name: `.authorization.k8s.io "" is invalid`.
  if (errs.length > 0) throw invalid({ group: scope.def.group, kind: '' }, '', errs);
  const status = await reviewStatus(scope, review, spec);
  const { namespace: _ns, ...metadata } = review.metadata;
  // A SelfSubjectReview is stamped with its creation time; the access reviews are not.
  const creationTimestamp = scope.def.kind === 'SelfSubjectReview' ? rfc3339(ctx.now) : null;
  // A SelfSubjectRulesReview answers a new object: the status alone (empty spec and metadata).
  if (scope.def.kind === 'SelfSubjectRulesReview') {
    writeResult(scope, 201, { apiVersion: review.apiVersion, kind: review.kind, metadata: { creationTimestamp: null } as never, spec: {}, status });
    return;
  }
  const answered: KubeObject = {
    ...review,
    metadata: scope.def.kind === 'LocalSubjectAccessReview' ? ({ ...metadata, namespace: review.metadata.namespace, creationTimestamp } as never) : ({ ...metadata, creationTimestamp } as never),
    status,
  };
  writeResult(scope, 201, answered);
}

// recordReviewManagedFields gives a review the managedFields the create handler records for
// any create, before validation: the requester (Update) owns the fields it sent.
function recordReviewManagedFields(scope: RequestScope, review: KubeObject, requestedManager: string, now: number): void {
  const manager = fieldManagerOf(scope, requestedManager);
  const { status: _status, ...sent } = review;
  const managedFields = updateManagedFields({ live: null, updated: sent as KubeObject, manager: manager.manager, apiVersion: manager.apiVersion, now: new Date(now), schema: scope.def.schema });
  if (managedFields && managedFields.length > 0) review.metadata.managedFields = managedFields;
}

async function reviewStatus(scope: RequestScope, review: KubeObject, spec: ReviewSpec): Promise<Record<string, unknown>> {
  const auth = scope.server.auth;
  switch (scope.def.kind) {
    case 'SelfSubjectReview':
      return { userInfo: userInfoStatus(scope.user) };
    case 'SelfSubjectRulesReview': {
      const problem = selfSubjectRulesReviewBadRequest(review);
      if (problem) throw badRequest(problem);
      if (!auth) return { resourceRules: [], nonResourceRules: [], incomplete: true };
      return { ...(await auth.authorizer.rulesReview(scope.user, spec.namespace ?? '')) };
    }
    case 'LocalSubjectAccessReview': {
      const problem = localSubjectAccessReviewBadRequest(review, scope.info.namespace);
      if (problem) throw badRequest(problem);
      return decide(scope, attributesOf(subjectOf(spec), spec));
    }
    case 'SubjectAccessReview':
      return decide(scope, attributesOf(subjectOf(spec), spec));
    case 'SelfSubjectAccessReview':
      return decide(scope, attributesOf(scope.user, spec));
    case 'TokenReview':
      return tokenReviewStatus(scope, spec);
    default:
      throw methodNotSupported(scope.store.qualifiedResource, 'create');
  }
}

// tokenReviewStatus is whom the server's authenticators take the token for; a user whose
// audiences are none of those the review was for is a 500, as kube-apiserver answers it.
async function tokenReviewStatus(scope: RequestScope, spec: ReviewSpec): Promise<Record<string, unknown>> {
  const auth = scope.server.auth;
  if (!auth) return { user: {} };
  const outcome = await auth.authenticator.reviewToken(spec.token ?? '', spec.audiences ?? []);
  const audiences = outcome.audiences ?? [];
  if (outcome.user && outcome.targetAudiences.length > 0 && !audiences.some((a) => outcome.targetAudiences.includes(a))) throw internalError('error validating audiences');
  return {
    ...(outcome.user ? { authenticated: true } : {}),
    user: outcome.user ? userInfoStatus(outcome.user) : {},
    ...(outcome.user && audiences.length > 0 ? { audiences } : {}),
    ...(outcome.error ? { error: outcome.error } : {}),
  };
}

function subjectOf(spec: ReviewSpec): UserInfo {
  return { name: spec.user ?? '', uid: spec.uid ?? '', groups: spec.groups ?? [], extra: spec.extra ?? {} };
}

function attributesOf(user: UserInfo, spec: ReviewSpec): Attributes {
  if (spec.nonResourceAttributes) {
    return nonResourceAttributes({ user, verb: spec.nonResourceAttributes.verb ?? '', path: spec.nonResourceAttributes.path ?? '' });
  }
  const r = spec.resourceAttributes ?? {};
  return resourceAttributes({
    user,
    verb: r.verb ?? '',
    namespace: r.namespace ?? '',
    apiGroup: r.group ?? '',
    apiVersion: r.version ?? '',
    resource: r.resource ?? '',
    subresource: r.subresource ?? '',
    name: r.name ?? '',
  });
}

// decide is the status of an access review: allowed, denied only on an explicit Deny, the
// reason (where RBAC names the bindings it could not resolve), and the authorizer's error; an
// authorizer that cannot decide (the authz service out of reach) is not allowed, its error the
// evaluationError, as kube-apiserver's review REST answers it.
async function decide(scope: RequestScope, attrs: Attributes): Promise<Record<string, unknown>> {
  const auth = scope.server.auth;
  if (!auth) return { allowed: true };
  let result: AuthorizationResult;
  try {
    result = await auth.authorizer.authorize(attrs);
  } catch (err) {
    if (isStatusError(err)) throw err;
    return { allowed: false, evaluationError: err instanceof Error ? err.message : String(err) };
  }
  const status: Record<string, unknown> = { allowed: result.decision === 'Allow' };
  if (result.decision === 'Deny') status.denied = true;
  if (result.reason) status.reason = result.reason;
  if (result.evaluationError) status.evaluationError = result.evaluationError;
  return status;
}

function userInfoStatus(user: UserInfo): Record<string, unknown> {
  const info: Record<string, unknown> = { username: user.name };
  if (user.uid) info.uid = user.uid;
  if (user.groups.length) info.groups = user.groups;
  if (Object.keys(user.extra).length) info.extra = user.extra;
  return info;
}
