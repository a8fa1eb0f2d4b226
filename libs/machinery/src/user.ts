// UserInfo is user.Info of k8s.io/apiserver/pkg/authentication/user: who a request acts for,
// as authentication learns it and authorization judges it.
export interface UserInfo {
  name: string;
  uid: string;
  groups: string[];
  extra: Record<string, string[]>;
}

// The well-known users and groups of user/user.go.
export const SystemPrivilegedGroup = 'system:masters';
export const NodesGroup = 'system:nodes';
export const MonitoringGroup = 'system:monitoring';
export const AllUnauthenticated = 'system:unauthenticated';
export const AllAuthenticated = 'system:authenticated';
export const Anonymous = 'system:anonymous';
export const APIServerUser = 'system:apiserver';
export const KubeProxy = 'system:kube-proxy';
export const KubeControllerManager = 'system:kube-controller-manager';
export const KubeScheduler = 'system:kube-scheduler';

// ServiceAccount naming, as apiserver/pkg/authentication/serviceaccount/util.go.
export const ServiceAccountUsernamePrefix = 'system:serviceaccount:';
export const ServiceAccountUsernameSeparator = ':';
export const ServiceAccountGroupPrefix = 'system:serviceaccounts:';
export const AllServiceAccountsGroup = 'system:serviceaccounts';
