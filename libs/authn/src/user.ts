// UserInfo is user.Info of k8s.io/apiserver/pkg/authentication/user: what authentication learns
// about the requester and what SelfSubjectReview returns as status.userInfo.
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

// ServiceAccount naming, as apiserver/pkg/authentication/serviceaccount/util.go.
export const ServiceAccountUsernamePrefix = 'system:serviceaccount:';
export const ServiceAccountUsernameSeparator = ':';
export const ServiceAccountGroupPrefix = 'system:serviceaccounts:';
export const AllServiceAccountsGroup = 'system:serviceaccounts';

// The extra keys a pod-bound service account token adds (1.28 has no node or credential-id keys).
export const PodNameKey = 'authentication.kubernetes.io/pod-name';
export const PodUIDKey = 'authentication.kubernetes.io/pod-uid';

export function newUserInfo(name: string, fields: Partial<Omit<UserInfo, 'name'>> = {}): UserInfo {
  return { name, uid: fields.uid ?? '', groups: [...(fields.groups ?? [])], extra: { ...(fields.extra ?? {}) } };
}

// anonymousUser is what the anonymous authenticator returns when anonymous requests are enabled.
export function anonymousUser(): UserInfo {
  return newUserInfo(Anonymous, { groups: [AllUnauthenticated] });
}

// withAuthenticatedGroup is group.AuthenticatedGroupAdder: every authenticated user except the
// anonymous one gains system:authenticated, unless it already carries it or system:unauthenticated.
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.name === Anonymous) return user;
  if (user.groups.some((g) => g === AllAuthenticated || g === AllUnauthenticated)) return user;
  return { ...user, groups: [...user.groups, AllAuthenticated] };
}
