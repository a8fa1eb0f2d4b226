// Service account user names, as apiserver/pkg/authentication/serviceaccount/util.go: the user
// `system:serviceaccount:<namespace>:<name>` in the groups system:serviceaccounts and
// system:serviceaccounts:<namespace>.
import { isDNS1123Label, isDNS1123Subdomain } from '@plinth/machinery';
import { AllServiceAccountsGroup, ServiceAccountGroupPrefix, ServiceAccountUsernamePrefix, ServiceAccountUsernameSeparator } from './user';

export function makeServiceAccountUsername(namespace: string, name: string): string {
  return `${ServiceAccountUsernamePrefix}${namespace}${ServiceAccountUsernameSeparator}${name}`;
}

export function makeServiceAccountGroupNames(namespace: string): string[] {
  return [AllServiceAccountsGroup, `${ServiceAccountGroupPrefix}${namespace}`];
}

// splitServiceAccountUsername is SplitUsername: the namespace and name of a service account user,
// or undefined when the name is not one (wrong prefix, wrong number of parts, invalid names).
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(ServiceAccountUsernamePrefix)) return undefined;
  const parts = username.slice(ServiceAccountUsernamePrefix.length).split(ServiceAccountUsernameSeparator);
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts;
  if (isDNS1123Label(namespace).length > 0 || isDNS1123Subdomain(name).length > 0) return undefined;
  return { namespace, name };
}
