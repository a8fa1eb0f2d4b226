// roles and clusterroles: registry rows and strategies after pkg/registry/rbac/role and
// clusterrole (v1.28). Neither has a Table printer, so kubectl shows NAME and CREATED AT.
import { ClusterRole, KubeObject, Role } from '@plinth/api';
import { FieldError } from '@plinth/machinery';
import { objectVerbs, ResourceDefinition, ResourceStrategy } from '../../resource';
import { defaultTable } from '../../table';
import { clusterRoleSchema, roleSchema } from './rbac-schema';
import { ClusterRoleValidationOptions, labelSelectorsHaveInvalidLabelValue, validateAggregationRule, validateRules } from './rbac-validation';

// nullRules: rules has no omitempty and is stored as protobuf, where an empty list and no
// list are the same, so clients read `rules: null` for a role without rules. It happens on the
// way to storage, after the field manager: a body without rules owns none, one with [] owns them.
function nullRules(object: KubeObject): void {
  const role = object as Role;
  if (!Array.isArray(role.rules) || role.rules.length === 0) role.rules = null;
}

export const roleStrategy: ResourceStrategy = {
  prepareForCreate: nullRules,
  prepareForUpdate: nullRules,
  validate(object: KubeObject): FieldError[] {
    return validateRules((object as Role).rules, true);
  },
  validateUpdate(object: KubeObject): FieldError[] {
    // ValidateRoleUpdate validates the role again.
    return validateRules((object as Role).rules, true);
  },
};

function validateClusterRole(role: ClusterRole, opts: ClusterRoleValidationOptions): FieldError[] {
  return [...validateRules(role.rules, false), ...validateAggregationRule(role.aggregationRule, opts)];
}

function clusterRoleOptions(old: ClusterRole | undefined): ClusterRoleValidationOptions {
  return { allowInvalidLabelValueInSelector: old ? labelSelectorsHaveInvalidLabelValue(old.aggregationRule?.clusterRoleSelectors ?? []) : false };
}

// oldClusterRoles remembers the stored object of an update in flight, so validate uses the
// update's options as the strategy's ValidateUpdate does.
const oldClusterRoles = new WeakMap<KubeObject, ClusterRole>();

export const clusterRoleStrategy: ResourceStrategy = {
  prepareForCreate: nullRules,
  prepareForUpdate(object: KubeObject, old: KubeObject): void {
    oldClusterRoles.set(object, old as ClusterRole);
    nullRules(object);
  },
  validate(object: KubeObject): FieldError[] {
    return validateClusterRole(object as ClusterRole, clusterRoleOptions(oldClusterRoles.get(object)));
  },
  validateUpdate(object: KubeObject, old: KubeObject): FieldError[] {
    return validateClusterRole(object as ClusterRole, clusterRoleOptions(old as ClusterRole));
  },
};

const rbacDefinition = {
  group: 'rbac.authorization.platform.io',
  version: 'v1',
  hasStatus: false,
  allowCreateOnUpdate: true,
  nameValidation: 'path-segment',
  table: defaultTable,
} as const;

export const roleDefinition: ResourceDefinition = {
  ...rbacDefinition,
  verbs: objectVerbs,
  resource: 'roles',
  singular: 'role',
  kind: 'Role',
  listKind: 'RoleList',
  namespaced: true,
  schema: roleSchema,
  zeroValue: { rules: null },
  strategy: roleStrategy,
};

export const clusterRoleDefinition: ResourceDefinition = {
  ...rbacDefinition,
  verbs: objectVerbs,
  resource: 'clusterroles',
  singular: 'clusterrole',
  kind: 'ClusterRole',
  listKind: 'ClusterRoleList',
  namespaced: false,
  schema: clusterRoleSchema,
  zeroValue: { rules: null },
  strategy: clusterRoleStrategy,
};
