// LocalAuthorizer answers authorization questions from an in-memory RBAC policy, in front of
// which system:masters is always allowed (kube-apiserver's privileged-group authorizer).
import { Attributes, authorize, AuthorizationResult, rulesReview, SubjectRulesReviewStatus, SystemPrivilegedGroup, UserInfo } from '@plinth/rbac';
import { RbacPolicyCache } from './policy-cache';

export class LocalAuthorizer {
  constructor(private readonly cache: RbacPolicyCache) {}

  async authorize(attrs: Attributes): Promise<AuthorizationResult> {
    if (attrs.user.groups.includes(SystemPrivilegedGroup)) {
      return { decision: 'Allow', reason: '', evaluationError: '', resolutionErrors: [] };
    }
    await this.cache.ready();
    return authorize(this.cache.policy.snapshot(), attrs);
  }

  async rulesReview(user: UserInfo, namespace: string): Promise<SubjectRulesReviewStatus> {
    await this.cache.ready();
    return rulesReview(this.cache.policy.snapshot(), user, namespace);
  }
}
