// @plinth/registry/rbac: what RBAC's own stores need (the authz app; the API server's RBAC in
// process), the generic store, its informer and the four RBAC definitions, without the other
// resources' definitions, whose CRD validation alone loads the CEL environment (about 12 MiB of
// the authz process's memory).
import { ResourceDefinition } from './resource';
import { clusterRoleBindingDefinition, clusterRoleDefinition, roleBindingDefinition, roleDefinition } from './resources/rbac';

export type { ResourceDefinition } from './resource';
export { ResourceStore } from './store/resource-store';
export { StoreInformer, InformerHandler } from './store/informer';

// rbacDefinitions are the definitions of Role, ClusterRole, RoleBinding and ClusterRoleBinding.
export function rbacDefinitions(): ResourceDefinition[] {
  return [roleDefinition, clusterRoleDefinition, roleBindingDefinition, clusterRoleBindingDefinition];
}
