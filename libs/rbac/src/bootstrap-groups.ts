// The names the bootstrap policy is written with: API groups as Plinth serves them (a `*.k8s.io`
// group is `*.platform.io`). The bootstrap label, annotation and aggregation labels are
// @plinth/api's.
import { AutoUpdateAnnotationKey, BootstrapLabelKey, BootstrapLabelValue } from '@plinth/api';
import { ClusterRole, ClusterRoleBinding, PolicyRule, rbacApiVersion, rbacGroup, Role, RoleBinding, ServiceAccountKind, Subject, GroupKind, UserKind } from './types';

export const legacyGroup = '';
export const appsGroup = 'apps';
export const authenticationGroup = 'authentication.platform.io';
export const authorizationGroup = 'authorization.platform.io';
export const autoscalingGroup = 'autoscaling';
export const batchGroup = 'batch';
export const certificatesGroup = 'certificates.platform.io';
export const coordinationGroup = 'coordination.platform.io';
export const discoveryGroup = 'discovery.platform.io';
export const eventsGroup = 'events.platform.io';
export const extensionsGroup = 'extensions';
export const networkingGroup = 'networking.platform.io';
export const nodeGroup = 'node.platform.io';
export const policyGroup = 'policy';
export const storageGroup = 'storage.platform.io';

export const Read = ['get', 'list', 'watch'];
export const Write = ['create', 'update', 'patch', 'delete', 'deletecollection'];
export const ReadWrite = [...Read, ...Write];


interface RoleInit {
  name: string;
  labels?: Record<string, string>;
  rules?: PolicyRule[];
  aggregateLabel?: string;
}

// clusterRole builds a bootstrap ClusterRole with the default label and annotation
// (addDefaultMetadata); an aggregated role has an aggregationRule and no rules of its own.
export function clusterRole({ name, labels, rules, aggregateLabel }: RoleInit): ClusterRole {
  const role: ClusterRole = {
    apiVersion: rbacApiVersion,
    kind: 'ClusterRole',
    metadata: {
      name,
      labels: { ...labels, [BootstrapLabelKey]: BootstrapLabelValue },
      annotations: { [AutoUpdateAnnotationKey]: 'true' },
    },
  };
  if (aggregateLabel) role.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [aggregateLabel]: 'true' } }] };
  else role.rules = rules ?? [];
  return role;
}

const defaultMetadata = (name: string, namespace?: string) => ({
  name,
  ...(namespace ? { namespace } : {}),
  labels: { [BootstrapLabelKey]: BootstrapLabelValue },
  annotations: { [AutoUpdateAnnotationKey]: 'true' },
});

// role builds a bootstrap Role of a system namespace (NamespaceRoles in policy.go).
export function role(namespace: string, name: string, rules: PolicyRule[]): Role {
  return { apiVersion: rbacApiVersion, kind: 'Role', metadata: defaultMetadata(name, namespace), rules };
}

// roleBinding is NewRoleBinding(roleName, namespace): a binding named after the Role it binds
// unless named otherwise.
export function roleBinding(namespace: string, roleName: string, subjects: Subject[], name = roleName): RoleBinding {
  return { apiVersion: rbacApiVersion, kind: 'RoleBinding', metadata: defaultMetadata(name, namespace), roleRef: { apiGroup: rbacGroup, kind: 'Role', name: roleName }, subjects };
}

export const groupSubject = (name: string): Subject => ({ kind: GroupKind, apiGroup: rbacGroup, name });
export const userSubject = (name: string): Subject => ({ kind: UserKind, apiGroup: rbacGroup, name });
export const serviceAccountSubject = (namespace: string, name: string): Subject => ({ kind: ServiceAccountKind, name, namespace });

// clusterRoleBinding is NewClusterBinding(name): a binding named after the ClusterRole it binds.
export function clusterRoleBinding(name: string, subjects: Subject[]): ClusterRoleBinding {
  return {
    apiVersion: rbacApiVersion,
    kind: 'ClusterRoleBinding',
    metadata: {
      name,
      labels: { [BootstrapLabelKey]: BootstrapLabelValue },
      annotations: { [AutoUpdateAnnotationKey]: 'true' },
    },
    roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name },
    subjects,
  };
}
