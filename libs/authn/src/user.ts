// UserInfo and the well-known users and groups live in @plinth/machinery, shared with
// authorization.
import { AllAuthenticated, AllUnauthenticated, Anonymous, UserInfo } from '@plinth/machinery';
export {
  UserInfo,
  SystemPrivilegedGroup,
  NodesGroup,
  MonitoringGroup,
  AllUnauthenticated,
  AllAuthenticated,
  Anonymous,
  APIServerUser,
  KubeProxy,
  ServiceAccountUsernamePrefix,
  ServiceAccountUsernameSeparator,
  ServiceAccountGroupPrefix,
  AllServiceAccountsGroup,
} from '@plinth/machinery';

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
