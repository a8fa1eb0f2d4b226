// rolebindings and clusterrolebindings: registry rows, defaults (pkg/apis/rbac/v1/defaults.go),
// strategies (pkg/registry/rbac/rolebinding and clusterrolebinding) and the printRoleBinding
// Table, v1.28.
import { KubeObject, rbacGroup } from '@plinth/api';
import { FieldError } from '@plinth/machinery';
import { objectVerbs, ResourceDefinition, ResourceStrategy, TableColumn, TableDefinition } from '../../resource';
import { age, ageColumn, column, nameColumn } from '../../table';
import { clusterRoleBindingSchema, roleBindingSchema } from './rbac-schema';
import { RoleRef, Subject, validateRoleRef, validateRoleRefUpdate, validateSubjects } from './rbac-validation';

interface Binding extends KubeObject {
  subjects?: Subject[] | null;
  roleRef?: RoleRef;
}

// defaultBinding defaults roleRef.apiGroup and each subject's apiGroup (the RBAC group for
// users and groups, the core group for service accounts).
export function defaultBinding(object: KubeObject): void {
  const binding = object as Binding;
  if (!binding.roleRef || typeof binding.roleRef !== 'object') binding.roleRef = {};
  if (!binding.roleRef.apiGroup) binding.roleRef.apiGroup = rbacGroup;
  for (const subject of binding.subjects ?? []) {
    if (!subject || subject.apiGroup) continue;
    if (subject.kind === 'User' || subject.kind === 'Group') subject.apiGroup = rbacGroup;
  }
}

function validateBinding(binding: Binding, isNamespaced: boolean): FieldError[] {
  return [...validateRoleRef(binding.roleRef, isNamespaced), ...validateSubjects(binding.subjects, isNamespaced)];
}

function bindingStrategy(isNamespaced: boolean): ResourceStrategy {
  return {
    defaults: defaultBinding,
    validate(object: KubeObject): FieldError[] {
      return validateBinding(object as Binding, isNamespaced);
    },
    validateUpdate(object: KubeObject, old: KubeObject): FieldError[] {
      // The update validation checks the binding again, then that roleRef did not change.
      return [...validateBinding(object as Binding, isNamespaced), ...validateRoleRefUpdate((object as Binding).roleRef, (old as Binding).roleRef)];
    },
  };
}

export const roleBindingStrategy = bindingStrategy(true);
export const clusterRoleBindingStrategy = bindingStrategy(false);

// subjectsStrings is rbac.SubjectsStrings: users, groups and namespace/name of service accounts.
export function subjectsStrings(subjects: Subject[] | null | undefined): [string[], string[], string[]] {
  const users: string[] = [];
  const groups: string[] = [];
  const serviceAccounts: string[] = [];
  for (const subject of subjects ?? []) {
    if (subject?.kind === 'ServiceAccount') serviceAccounts.push(`${subject.namespace ?? ''}/${subject.name ?? ''}`);
    else if (subject?.kind === 'User') users.push(subject.name ?? '');
    else if (subject?.kind === 'Group') groups.push(subject.name ?? '');
  }
  return [users, groups, serviceAccounts];
}

function bindingTable(kind: 'roleBinding' | 'clusterRoleBinding', roleDescription: string): TableDefinition {
  const columns: TableColumn[] = [
    nameColumn,
    column('Role', 'string', roleDescription),
    ageColumn,
    column('Users', 'string', `Users in the ${kind}`, 1),
    column('Groups', 'string', `Groups in the ${kind}`, 1),
    column('ServiceAccounts', 'string', `ServiceAccounts in the ${kind}`, 1),
  ];
  return {
    columns,
    row(object: KubeObject, now: number): unknown[] {
      const binding = object as Binding;
      const [users, groups, serviceAccounts] = subjectsStrings(binding.subjects);
      const roleRef = `${binding.roleRef?.kind ?? ''}/${binding.roleRef?.name ?? ''}`;
      return [binding.metadata.name ?? '', roleRef, age(binding, now), users.join(', '), groups.join(', '), serviceAccounts.join(', ')];
    },
  };
}

export const roleBindingTable = bindingTable(
  'roleBinding',
  'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.',
);

export const clusterRoleBindingTable = bindingTable(
  'clusterRoleBinding',
  'RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.',
);

const rbacDefinition = {
  group: rbacGroup,
  version: 'v1',
  hasStatus: false,
  allowCreateOnUpdate: true,
  nameValidation: 'path-segment',
} as const;

export const roleBindingDefinition: ResourceDefinition = {
  ...rbacDefinition,
  verbs: objectVerbs,
  resource: 'rolebindings',
  singular: 'rolebinding',
  kind: 'RoleBinding',
  listKind: 'RoleBindingList',
  namespaced: true,
  schema: roleBindingSchema,
  zeroValue: { roleRef: { apiGroup: '', kind: '', name: '' } },
  strategy: roleBindingStrategy,
  table: roleBindingTable,
};

export const clusterRoleBindingDefinition: ResourceDefinition = {
  ...rbacDefinition,
  verbs: objectVerbs,
  resource: 'clusterrolebindings',
  singular: 'clusterrolebinding',
  kind: 'ClusterRoleBinding',
  listKind: 'ClusterRoleBindingList',
  namespaced: false,
  schema: clusterRoleBindingSchema,
  zeroValue: { roleRef: { apiGroup: '', kind: '', name: '' } },
  strategy: clusterRoleBindingStrategy,
  table: clusterRoleBindingTable,
};
