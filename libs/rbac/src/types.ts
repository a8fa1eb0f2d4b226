// The rbac.authorization.platform.io/v1 shapes (from @plinth/api) and the names the authorizer
// matches them by.
import { ClusterRole, ClusterRoleBinding, rbacGroup, rbacGroupAlias, Role, RoleBinding } from '@plinth/api';

export { rbacApiVersion, rbacGroup, rbacGroupAlias, rbacVersion } from '@plinth/api';
export type { AggregationRule, ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, RoleRef, Subject } from '@plinth/api';

// isRbacGroup accepts the platform group name and the Kubernetes one it replaces.
export function isRbacGroup(group: string | undefined | null): boolean {
  return group === rbacGroup || group === rbacGroupAlias;
}

// The wildcards of rbacv1: VerbAll, APIGroupAll, ResourceAll, NonResourceAll.
export const VerbAll = '*';
export const APIGroupAll = '*';
export const ResourceAll = '*';
export const NonResourceAll = '*';

export const UserKind = 'User';
export const GroupKind = 'Group';
export const ServiceAccountKind = 'ServiceAccount';

export type RbacObject = Role | ClusterRole | RoleBinding | ClusterRoleBinding;
