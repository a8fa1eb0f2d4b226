export { roleDefinition, clusterRoleDefinition, roleStrategy, clusterRoleStrategy } from './roles';
export {
  roleBindingDefinition,
  clusterRoleBindingDefinition,
  roleBindingStrategy,
  clusterRoleBindingStrategy,
  roleBindingTable,
  clusterRoleBindingTable,
  defaultBinding,
  subjectsStrings,
} from './bindings';
export * from './rbac-schema';
export {
  rbacGroup,
  rbacGroupAlias,
  isRbacGroup,
  PolicyRule,
  Subject,
  RoleRef,
  validatePolicyRule,
  validateRoleRef,
  validateSubject,
  validateRBACName,
} from './rbac-validation';
