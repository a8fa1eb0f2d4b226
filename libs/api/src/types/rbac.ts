// The rbac.authorization.platform.io/v1 objects (k8s.io/api/rbac/v1) as plain JSON types, shared by
// the authorizer (@plinth/rbac) and the registry. Objects written for Kubernetes may still name
// rbac.authorization.k8s.io in a roleRef or a subject; both names denote the one group.
import { LabelSelector } from '@plinth/machinery';
import { KubeObject } from '../object';

export const rbacGroup = 'rbac.authorization.platform.io';
export const rbacGroupAlias = 'rbac.authorization.k8s.io';
export const rbacVersion = 'v1';
export const rbacApiVersion = `${rbacGroup}/${rbacVersion}`;

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
