// The authorizer's input and output after k8s.io/apiserver pkg/authentication/user and
// pkg/authorization/authorizer/interfaces.go (v1.28): who asks, what for, and the decision.

// UserInfo and the well-known users and groups live in @plinth/machinery, shared with
// authentication.
import { ServiceAccountUsernamePrefix, UserInfo } from '@plinth/machinery';
export {
  UserInfo,
  SystemPrivilegedGroup,
  NodesGroup,
  MonitoringGroup,
  AllUnauthenticated,
  AllAuthenticated,
  Anonymous,
  APIServerUser,
  KubeControllerManager,
  KubeProxy,
  KubeScheduler,
  ServiceAccountUsernamePrefix,
  ServiceAccountGroupPrefix,
  AllServiceAccountsGroup,
} from '@plinth/machinery';

// serviceAccountUsername is MakeUsername: system:serviceaccount:<namespace>:<name>.
export function serviceAccountUsername(namespace: string, name: string): string {
  return `${ServiceAccountUsernamePrefix}${namespace}:${name}`;
}

// serviceAccountMatchesUsername is MatchesUsername: whether username names the service account.
export function serviceAccountMatchesUsername(namespace: string, name: string, username: string): boolean {
  return username === serviceAccountUsername(namespace, name);
}

// newUserInfo fills the parts of a user.DefaultInfo that were left out.
export function newUserInfo(user: Partial<UserInfo> & { name: string }): UserInfo {
  return { name: user.name, uid: user.uid ?? '', groups: user.groups ?? [], extra: user.extra ?? {} };
}

// Attributes is authorizer.Attributes as a plain record (AttributesRecord): resource requests
// fill verb, namespace, apiGroup, apiVersion, resource, subresource and name; non-resource
// requests fill verb and path.
export interface Attributes {
  user: UserInfo;
  verb: string;
  namespace: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  name: string;
  isResourceRequest: boolean;
  path: string;
}

export type ResourceAttributesInit = Partial<Omit<Attributes, 'isResourceRequest' | 'path' | 'user'>> & { user: UserInfo; verb: string };
export type NonResourceAttributesInit = { user: UserInfo; verb: string; path: string };

// resourceAttributes builds the attributes of a resource request; unset parts are empty.
export function resourceAttributes(init: ResourceAttributesInit): Attributes {
  return {
    user: init.user,
    verb: init.verb,
    namespace: init.namespace ?? '',
    apiGroup: init.apiGroup ?? '',
    apiVersion: init.apiVersion ?? '',
    resource: init.resource ?? '',
    subresource: init.subresource ?? '',
    name: init.name ?? '',
    isResourceRequest: true,
    path: '',
  };
}

// nonResourceAttributes builds the attributes of a request for a non-resource path.
export function nonResourceAttributes(init: NonResourceAttributesInit): Attributes {
  return {
    user: init.user,
    verb: init.verb,
    namespace: '',
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    name: '',
    isResourceRequest: false,
    path: init.path,
  };
}

// Decision is authorizer.Decision. RBAC only ever allows or has no opinion; a deny comes from
// other authorizers, and the gateway answers 403 for anything but Allow.
export type Decision = 'Allow' | 'Deny' | 'NoOpinion';

// AuthorizationResult is what Authorize returns: the decision, the reason text, and the
// authorizer's error. RBAC, as Kubernetes' RBACAuthorizer, never returns an error: rule
// resolution errors go into the reason of a NoOpinion decision ("RBAC: ..."), and are listed in
// resolutionErrors for callers that want them one by one.
export interface AuthorizationResult {
  decision: Decision;
  reason: string;
  evaluationError: string;
  resolutionErrors: string[];
}
