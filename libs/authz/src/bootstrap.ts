// ensureBootstrapPolicy creates the default ClusterRoles and ClusterRoleBindings that are
// missing, as kube-apiserver's RBAC post-start hook does (objects a user changed are kept).
// The hook writes through the loopback client, so each object records an Update by
// `kube-apiserver` (the manager its User-Agent names) in its managedFields.
import { isStatusError } from '@plinth/machinery';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from '@plinth/rbac';
import { ResourceStore } from '@plinth/registry';
import { KubeObject } from '@plinth/api';

export const BootstrapFieldManager = 'kube-apiserver';

export async function ensureBootstrapPolicy(clusterRoles: ResourceStore, clusterRoleBindings: ResourceStore): Promise<void> {
  for (const role of bootstrapClusterRoles()) await createIfMissing(clusterRoles, role as unknown as KubeObject);
  for (const binding of bootstrapClusterRoleBindings()) await createIfMissing(clusterRoleBindings, binding as unknown as KubeObject);
}

async function createIfMissing(store: ResourceStore, object: KubeObject): Promise<void> {
  try {
    await store.create(undefined, object, { fieldManager: { manager: BootstrapFieldManager, apiVersion: store.apiVersion } });
  } catch (err) {
    if (!(isStatusError(err) && err.reason === 'AlreadyExists')) throw err;
  }
}
