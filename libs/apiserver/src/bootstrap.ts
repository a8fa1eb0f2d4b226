// ensureSystemNamespaces creates the namespaces every cluster has (default, kube-system,
// kube-public, kube-node-lease) when they are missing, as kube-apiserver's bootstrap
// controller does, through its loopback client (an Update by `kube-apiserver` in managedFields).
import { kubeApiserverManager } from '@plinth/apply';
import { isStatusError } from '@plinth/machinery';
import { ApiServer } from './server';

export const systemNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export async function ensureSystemNamespaces(server: ApiServer): Promise<void> {
  const def = server.context.catalog.lookup('', 'v1', 'namespaces');
  if (!def) return;
  const store = server.context.storeFor(def);
  for (const name of systemNamespaces) {
    try {
      await store.create(undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, { fieldManager: { manager: kubeApiserverManager, apiVersion: store.apiVersion } });
    } catch (err) {
      if (!(isStatusError(err) && err.reason === 'AlreadyExists')) throw err;
    }
  }
}
