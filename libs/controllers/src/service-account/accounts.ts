// The service-account controller's decision, as Kubernetes' pkg/controller/serviceaccount
// (serviceaccounts_controller.go, v1.28): every active namespace gets the accounts it lacks;
// a namespace that went away, or is terminating, gets none.
import { KubeObject } from '@plinth/api';

// serviceAccountsToEnsure is DefaultServiceAccountsControllerOptions: the "default" account.
export const serviceAccountsToEnsure: readonly string[] = ['default'];

// serviceAccountsToCreate names the accounts the namespace lacks (exists says whether the
// namespace holds an account of that name).
export function serviceAccountsToCreate(namespace: KubeObject | undefined, exists: (account: string) => boolean): string[] {
  if (!namespace || (namespace.status as { phase?: string } | undefined)?.phase !== 'Active') return [];
  return serviceAccountsToEnsure.filter((account) => !exists(account));
}

// newServiceAccount is the account the controller creates.
export function newServiceAccount(namespace: string, name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } };
}
