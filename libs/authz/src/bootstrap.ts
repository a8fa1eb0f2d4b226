// ensureBootstrapPolicy creates the default ClusterRoles, ClusterRoleBindings, and the Roles and
// RoleBindings of system namespaces that are missing, as kube-apiserver's RBAC post-start hook does (objects a user changed are kept).
// The hook writes through the loopback client, so each object records an Update by
// `kube-apiserver` (the manager its User-Agent names) in its managedFields.
import { kubeApiserverManager } from '@plinth/apply';
import { isStatusError } from '@plinth/machinery';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles, bootstrapRoleBindings, bootstrapRoles } from '@plinth/rbac';
import { ResourceStore } from '@plinth/registry/rbac';
import { KubeObject } from '@plinth/api';

export interface BootstrapPolicyStores {
  Role: ResourceStore;
  ClusterRole: ResourceStore;
  RoleBinding: ResourceStore;
  ClusterRoleBinding: ResourceStore;
}

export async function ensureBootstrapPolicy(stores: BootstrapPolicyStores): Promise<void> {
  for (const role of bootstrapClusterRoles()) await createIfMissing(stores.ClusterRole, role as unknown as KubeObject);
  for (const binding of bootstrapClusterRoleBindings()) await createIfMissing(stores.ClusterRoleBinding, binding as unknown as KubeObject);
  for (const role of bootstrapRoles()) await createIfMissing(stores.Role, role as unknown as KubeObject);
  for (const binding of bootstrapRoleBindings()) await createIfMissing(stores.RoleBinding, binding as unknown as KubeObject);
}

async function createIfMissing(store: ResourceStore, object: KubeObject): Promise<void> {
  try {
    await store.create(object.metadata.namespace, object, { fieldManager: { manager: kubeApiserverManager, apiVersion: store.apiVersion } });
  } catch (err) {
    if (!(isStatusError(err) && err.reason === 'AlreadyExists')) throw err;
  }
}
