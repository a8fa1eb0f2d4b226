// ensureBootstrapPolicy creates the default ClusterRoles and ClusterRoleBindings that are
// missing, as kube-apiserver's RBAC post-start hook does (objects a user changed are kept).
import { isStatusError } from '@plinth/machinery';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from '@plinth/rbac';
import { ResourceStore } from '@plinth/registry';
import { KubeObject } from '@plinth/api';

export async function ensureBootstrapPolicy(clusterRoles: ResourceStore, clusterRoleBindings: ResourceStore): Promise<void> {
  for (const role of bootstrapClusterRoles()) await createIfMissing(clusterRoles, role as unknown as KubeObject);
  for (const binding of bootstrapClusterRoleBindings()) await createIfMissing(clusterRoleBindings, binding as unknown as KubeObject);
}

// createIfMissing creates a default object as the post-start hook's client does: its fields are
// kube-apiserver's (an Update in managedFields).
async function createIfMissing(store: ResourceStore, object: KubeObject): Promise<void> {
  try {
    await store.create(undefined, object, { fieldManager: { manager: 'kube-apiserver', apiVersion: store.apiVersion } });
  } catch (err) {
    if (!(isStatusError(err) && err.reason === 'AlreadyExists')) throw err;
  }
}
