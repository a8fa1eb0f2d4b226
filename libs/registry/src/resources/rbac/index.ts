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
  Subject,
  RoleRef,
  validatePolicyRule,
  validateRoleRef,
  validateSubject,
  validateRBACName,
} from './rbac-validation';
