// LocalAuthorizer answers authorization questions from an in-memory RBAC policy, in front of
// which system:masters is always allowed (kube-apiserver's privileged-group authorizer).
import { KubeObject } from '@plinth/api';
import { StatusError } from '@plinth/machinery';
import {
  Attributes,
  authorize,
  AuthorizationResult,
  Authorizer,
  checkClusterRoleBindingEscalation,
  checkClusterRoleEscalation,
  checkRoleBindingEscalation,
  checkRoleEscalation,
  ClusterRole,
  ClusterRoleBinding,
  Role,
  RoleBinding,
  rulesReview,
  SubjectRulesReviewStatus,
  SystemPrivilegedGroup,
  UserInfo,
} from '@plinth/rbac';
import { RbacPolicyCache } from './policy-cache';

export class LocalAuthorizer implements Authorizer {
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

  // checkRbacWrite is the RBAC registry's escalation prevention: writing a role needs the
  // permissions it grants (or `escalate`), writing a binding needs the role (or `bind`).
  async checkRbacWrite(kind: string, user: UserInfo, object: KubeObject, old: KubeObject | null, namespace: string, requestName: string): Promise<StatusError | null> {
    await this.cache.ready();
    const resolver = this.cache.policy.snapshot();
    const write = { old: (old ?? undefined) as never, namespace, requestName };
    switch (kind) {
      case 'Role':
        return checkRoleEscalation(resolver, user, object as unknown as Role, write);
      case 'ClusterRole':
        return checkClusterRoleEscalation(resolver, user, object as unknown as ClusterRole, write);
      case 'RoleBinding':
        return checkRoleBindingEscalation(resolver, user, object as unknown as RoleBinding, write);
      case 'ClusterRoleBinding':
        return checkClusterRoleBindingEscalation(resolver, user, object as unknown as ClusterRoleBinding, write);
      default:
        return null;
    }
  }
}
