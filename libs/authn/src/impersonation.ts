// User impersonation, after apiserver/pkg/endpoints/filters/impersonation.go (1.28): the
// Impersonate-* headers name a user (or service account), groups, a uid and extras; each is
// authorized separately with the verb `impersonate`, then the request acts as the built user.
// This module parses and builds; the gateway asks its authorizer about each check in order.
import { forbidden, goQuote, StatusError } from '@plinth/machinery';
import { HeaderMap, headersWithPrefix, headerValue, headerValues, unescapeExtraKey } from './headers';
import { makeServiceAccountGroupNames, makeServiceAccountUsername, splitServiceAccountUsername } from './service-account';
import { AllAuthenticated, AllUnauthenticated, Anonymous, newUserInfo, UserInfo } from './user';

export const ImpersonateUserHeader = 'Impersonate-User';
export const ImpersonateUIDHeader = 'Impersonate-Uid';
export const ImpersonateGroupHeader = 'Impersonate-Group';
export const ImpersonateUserExtraHeaderPrefix = 'Impersonate-Extra-';

// The group of the userextras and uids resources (authentication.k8s.io upstream).
export const AuthenticationGroup = 'authentication.platform.io';
const authenticationGroupVersion = `${AuthenticationGroup}/v1`;

// ImpersonationTarget is one thing asked for, in the order Kubernetes authorizes them.
export type ImpersonationTarget =
  | { kind: 'ServiceAccount'; namespace: string; name: string }
  | { kind: 'User'; name: string }
  | { kind: 'Group'; name: string }
  | { kind: 'UserExtra'; key: string; value: string }
  | { kind: 'UID'; uid: string };

export interface ImpersonationRequest {
  user: string;
  groups: string[];
  // groupsSpecified: when Impersonate-Group is present its values are the whole group list
  // (a service account then gets no implicit groups).
  groupsSpecified: boolean;
  uid: string;
  extra: Record<string, string[]>; // keys lower-cased and %-unescaped
  targets: ImpersonationTarget[];
}

// objectReferenceString is how Go's %v prints the v1.ObjectReference Kubernetes builds per target.
function objectReferenceString(t: ImpersonationTarget): string {
  const ref = { kind: t.kind, namespace: '', name: '', uid: '', apiVersion: '', resourceVersion: '', fieldPath: '' };
  switch (t.kind) {
    case 'ServiceAccount':
      Object.assign(ref, { namespace: t.namespace, name: t.name });
      break;
    case 'User':
    case 'Group':
      ref.name = t.name;
      break;
    case 'UserExtra':
      Object.assign(ref, { name: t.value, apiVersion: authenticationGroupVersion, fieldPath: t.key });
      break;
    case 'UID':
      Object.assign(ref, { name: t.uid, apiVersion: authenticationGroupVersion });
      break;
  }
  return `{${[ref.kind, ref.namespace, ref.name, ref.uid, ref.apiVersion, ref.resourceVersion, ref.fieldPath].join(' ')}}`;
}

// isImpersonationHeader tells whether a header is one the filter consumes (and strips).
export function isImpersonationHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return (
    lower === ImpersonateUserHeader.toLowerCase() ||
    lower === ImpersonateGroupHeader.toLowerCase() ||
    lower === ImpersonateUIDHeader.toLowerCase() ||
    lower.startsWith(ImpersonateUserExtraHeaderPrefix.toLowerCase())
  );
}

// hasImpersonationHeaders tells from the header names alone whether parseImpersonation could
// find anything (every impersonation header starts with "Impersonate-"), so that a request
// without them skips the parse and the per-request copy of its headers the parse reads.
export function hasImpersonationHeaders(headers: HeaderMap): boolean {
  for (const name in headers) {
    if (name.length >= impersonatePrefix.length && name.slice(0, impersonatePrefix.length).toLowerCase() === impersonatePrefix) return true;
  }
  return false;
}

const impersonatePrefix = 'impersonate-';

// ImpersonationWithoutUserError is buildImpersonationRequests' refusal of groups, extras or a uid
// without a user. It is no Status: kube-apiserver's impersonation filter answers it with
// responsewriters.InternalError, a plain-text 500.
export class ImpersonationWithoutUserError extends Error {}

// parseImpersonation is buildImpersonationRequests: null when the request impersonates nothing.
// Groups, extras or a uid without a user throw ImpersonationWithoutUserError.
export function parseImpersonation(headers: HeaderMap): ImpersonationRequest | null {
  const targets: ImpersonationTarget[] = [];
  const user = headerValue(headers, ImpersonateUserHeader);
  if (user !== '') {
    const sa = splitServiceAccountUsername(user);
    targets.push(sa ? { kind: 'ServiceAccount', ...sa } : { kind: 'User', name: user });
  }
  const groups = headerValues(headers, ImpersonateGroupHeader);
  for (const name of groups) targets.push({ kind: 'Group', name });

  const extra: Record<string, string[]> = {};
  for (const [rest, values] of headersWithPrefix(headers, ImpersonateUserExtraHeaderPrefix)) {
    const key = unescapeExtraKey(rest);
    for (const value of values) {
      targets.push({ kind: 'UserExtra', key, value });
      (extra[key] ??= []).push(value);
    }
  }

  const uid = headerValue(headers, ImpersonateUIDHeader);
  if (uid !== '') targets.push({ kind: 'UID', uid });

  if (targets.length === 0) return null;
  if (user === '') {
    throw new ImpersonationWithoutUserError(`requested [${targets.map(objectReferenceString).join(' ')}] without impersonating a user`);
  }
  return { user, groups, groupsSpecified: groups.length > 0, uid, extra, targets };
}

// ImpersonationCheck is the authorizer.AttributesRecord asked for one target (the requesting user
// is the one already authenticated).
export interface ImpersonationCheck {
  verb: 'impersonate';
  apiGroup: string;
  apiVersion: string;
  resource: 'users' | 'groups' | 'serviceaccounts' | 'userextras' | 'uids';
  subresource: string;
  namespace: string;
  name: string;
  resourceRequest: true;
}

function check(resource: ImpersonationCheck['resource'], name: string, more: Partial<ImpersonationCheck> = {}): ImpersonationCheck {
  return { verb: 'impersonate', apiGroup: '', apiVersion: '', resource, subresource: '', namespace: '', name, resourceRequest: true, ...more };
}

// impersonationChecks lists the authorization checks, in order; all must be allowed.
export function impersonationChecks(request: ImpersonationRequest): ImpersonationCheck[] {
  return request.targets.map((t) => {
    switch (t.kind) {
      case 'ServiceAccount':
        return check('serviceaccounts', t.name, { namespace: t.namespace });
      case 'User':
        return check('users', t.name);
      case 'Group':
        return check('groups', t.name);
      case 'UserExtra':
        return check('userextras', t.value, { apiGroup: AuthenticationGroup, apiVersion: 'v1', subresource: t.key });
      case 'UID':
        return check('uids', t.uid, { apiGroup: AuthenticationGroup, apiVersion: 'v1' });
    }
  });
}

// impersonatedUser builds the user the request then acts as. A service account without explicit
// groups gets its fixed groups; anyone but system:anonymous gets system:authenticated unless
// system:authenticated or system:unauthenticated is already there; system:anonymous gets
// system:unauthenticated.
export function impersonatedUser(request: ImpersonationRequest): UserInfo {
  const sa = splitServiceAccountUsername(request.user);
  const name = sa ? makeServiceAccountUsername(sa.namespace, sa.name) : request.user;
  const groups = sa && !request.groupsSpecified ? makeServiceAccountGroupNames(sa.namespace) : [...request.groups];
  if (name !== Anonymous) {
    if (!groups.some((g) => g === AllAuthenticated || g === AllUnauthenticated)) groups.push(AllAuthenticated);
  } else if (!groups.includes(AllUnauthenticated)) {
    groups.push(AllUnauthenticated);
  }
  const extra = Object.fromEntries(Object.entries(request.extra).map(([k, v]) => [k, [...v]]));
  return newUserInfo(name, { uid: request.uid, groups, extra });
}

export interface AuthorizationAttributes {
  verb: string;
  apiGroup?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  resourceRequest: boolean;
  path?: string;
}

const sanitize = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

// forbiddenMessage is responsewriters' forbiddenMessage: `User "alice" cannot get resource "pods"
// in API group "" in the namespace "default"`, HTML-sanitized as Forbidden does.
export function forbiddenMessage(attrs: AuthorizationAttributes, username: string): string {
  let message: string;
  if (!attrs.resourceRequest) {
    message = `User ${goQuote(username)} cannot ${attrs.verb} path ${goQuote(attrs.path ?? '')}`;
  } else {
    const resource = attrs.subresource ? `${attrs.resource ?? ''}/${attrs.subresource}` : (attrs.resource ?? '');
    const scope = attrs.namespace ? `in the namespace ${goQuote(attrs.namespace)}` : 'at the cluster scope';
    message = `User ${goQuote(username)} cannot ${attrs.verb} resource ${goQuote(resource)} in API group ${goQuote(attrs.apiGroup ?? '')} ${scope}`;
  }
  return sanitize(message);
}

// impersonationForbidden is the 403 for a denied check: `users "bob" is forbidden: User "alice"
// cannot impersonate resource "users" in API group "" at the cluster scope`, plus the
// authorizer's reason when it gave one.
export function impersonationForbidden(denied: AuthorizationAttributes, requestor: string, reason = ''): StatusError {
  const message = forbiddenMessage(denied, requestor);
  return forbidden({ group: denied.apiGroup ?? '', resource: denied.resource ?? '' }, denied.name ?? '', reason ? `${message}: ${reason}` : message);
}
