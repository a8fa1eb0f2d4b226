// The rbac.authorization.platform.io/v1 objects (k8s.io/api/rbac/v1) as plain JSON types, shared by
// the authorizer (@plinth/rbac) and the registry. Objects written for Kubernetes may still name
// rbac.authorization.k8s.io in a roleRef or a subject; both names denote the one group.
import { LabelSelector } from '@plinth/machinery';
import { KubeObject } from '../object';

export const rbacGroup = 'rbac.authorization.platform.io';
export const rbacGroupAlias = 'rbac.authorization.k8s.io';
export const rbacVersion = 'v1';
export const rbacApiVersion = `${rbacGroup}/${rbacVersion}`;

// The bootstrap label and the autoupdate annotation of the default roles and bindings
// (kubernetes.io/bootstrapping and rbac.authorization.kubernetes.io/autoupdate in Kubernetes).
export const BootstrapLabelKey = 'platform.io/bootstrapping';
export const BootstrapLabelValue = 'rbac-defaults';
export const AutoUpdateAnnotationKey = 'rbac.authorization.platform.io/autoupdate';
// The labels that aggregate a ClusterRole into admin, edit and view
// (rbac.authorization.kubernetes.io/aggregate-to-*).
export const AggregateToAdminLabel = 'rbac.authorization.platform.io/aggregate-to-admin';
export const AggregateToEditLabel = 'rbac.authorization.platform.io/aggregate-to-edit';
export const AggregateToViewLabel = 'rbac.authorization.platform.io/aggregate-to-view';

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
