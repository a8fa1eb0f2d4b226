// The rbac.authorization.platform.io/v1 objects as the authorizer reads them (k8s.io/api/rbac/v1).
// Objects written for Kubernetes may still name rbac.authorization.k8s.io in a roleRef or a
// subject; both names denote the one group.
import { KubeObject } from '@plinth/api';
import { LabelSelector } from '@plinth/machinery';

export const rbacGroup = 'rbac.authorization.platform.io';
export const rbacGroupAlias = 'rbac.authorization.k8s.io';
export const rbacVersion = 'v1';
export const rbacApiVersion = `${rbacGroup}/${rbacVersion}`;

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

export interface PolicyRule {
  verbs?: string[] | null;
  apiGroups?: string[] | null;
  resources?: string[] | null;
  resourceNames?: string[] | null;
  nonResourceURLs?: string[] | null;
}

export interface Subject {
  kind: string;
  apiGroup?: string;
  name: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: string;
  name: string;
}

export interface AggregationRule {
  clusterRoleSelectors?: LabelSelector[] | null;
}

export interface Role extends KubeObject {
  rules?: PolicyRule[] | null;
}

export interface ClusterRole extends KubeObject {
  rules?: PolicyRule[] | null;
  aggregationRule?: AggregationRule | null;
}

export interface RoleBinding extends KubeObject {
  subjects?: Subject[] | null;
  roleRef: RoleRef;
}

export interface ClusterRoleBinding extends KubeObject {
  subjects?: Subject[] | null;
  roleRef: RoleRef;
}

export type RbacObject = Role | ClusterRole | RoleBinding | ClusterRoleBinding;
