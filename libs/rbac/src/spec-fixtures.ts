// Builders for the RBAC specs, after newRole, newClusterRole and the binding builders of
// rbac_test.go: subjects are written "Kind:name", a service account "ServiceAccount:ns:name" or
// "ServiceAccount:name" for one of the binding's namespace. Used by specs only.
import { newUserInfo, UserInfo } from './attributes';
import { ClusterRole, ClusterRoleBinding, PolicyRule, rbacApiVersion, rbacGroup, Role, RoleBinding, Subject } from './types';

export function rule(verbs: string, apiGroups: string, resources: string, nonResourceURLs = ''): PolicyRule {
  const split = (s: string): string[] | undefined => (s === '' ? undefined : s.split(',').map((p) => (p === '""' ? '' : p)));
  return { verbs: split(verbs), apiGroups: split(apiGroups), resources: split(resources), nonResourceURLs: split(nonResourceURLs) };
}

export function role(namespace: string, name: string, ...rules: PolicyRule[]): Role {
  return { apiVersion: rbacApiVersion, kind: 'Role', metadata: { namespace, name }, rules };
}

export function clusterRole(name: string, ...rules: PolicyRule[]): ClusterRole {
  return { apiVersion: rbacApiVersion, kind: 'ClusterRole', metadata: { name }, rules };
}

export function subject(spec: string): Subject {
  const [kind, ...rest] = spec.split(':');
  if (kind === 'ServiceAccount') {
    if (rest.length === 1) return { kind, name: rest[0] };
    return { kind, namespace: rest[0], name: rest.slice(1).join(':') };
  }
  return { kind, apiGroup: rbacGroup, name: rest.join(':') };
}

export function clusterRoleBinding(name: string, roleName: string, ...subjects: string[]): ClusterRoleBinding {
  return {
    apiVersion: rbacApiVersion,
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: roleName },
    subjects: subjects.map(subject),
  };
}

export function roleBinding(namespace: string, name: string, roleRef: `${'Role' | 'ClusterRole'}:${string}`, ...subjects: string[]): RoleBinding {
  const [kind, roleName] = roleRef.split(':');
  return {
    apiVersion: rbacApiVersion,
    kind: 'RoleBinding',
    metadata: { namespace, name },
    roleRef: { apiGroup: rbacGroup, kind, name: roleName },
    subjects: subjects.map(subject),
  };
}

// who is "name" or "name|group1,group2".
export function who(spec: string): UserInfo {
  const [name, groups] = spec.split('|');
  return newUserInfo({ name, groups: groups ? groups.split(',') : [] });
}
