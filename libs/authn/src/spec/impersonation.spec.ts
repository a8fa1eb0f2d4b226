import { isForbidden } from '@plinth/machinery';
import {
  hasImpersonationHeaders,
  impersonatedUser,
  impersonationChecks,
  impersonationForbidden,
  ImpersonationWithoutUserError,
  isImpersonationHeader,
  parseImpersonation,
} from '../index';

function parseError(headers: Record<string, string | string[]>): unknown {
  try {
    parseImpersonation(headers);
  } catch (e) {
    return e;
  }
  throw new Error('expected an error');
}

describe('impersonation', () => {
  it('is absent without impersonation headers', () => {
    expect(parseImpersonation({ authorization: 'Bearer x', 'x-remote-user': 'bob' })).toBeNull();
  });

  it('is looked for only where a header name starts with Impersonate-', () => {
    const without = { authorization: 'Bearer x', 'x-remote-user': 'bob', impersonate: 'x', 'x-impersonate-user': 'y' };
    expect(hasImpersonationHeaders(without)).toBe(false);
    expect(parseImpersonation(without)).toBeNull();
    for (const name of ['impersonate-user', 'Impersonate-Group', 'IMPERSONATE-UID', 'impersonate-extra-scopes', 'impersonate-unknown']) {
      expect(hasImpersonationHeaders({ [name]: 'v' })).toBe(true);
    }
  });

  it('parses user, groups, extras (lower-cased, unescaped) and uid', () => {
    const request = parseImpersonation({
      'impersonate-user': 'jane.doe@example.com',
      'impersonate-group': ['developers', 'admins'],
      'impersonate-extra-dn': 'cn=jane,ou=engineers,dc=example,dc=com',
      'impersonate-extra-acme.com%2Fproject': 'some-project',
      'Impersonate-Extra-Scopes': ['view', 'development'],
      'impersonate-uid': '06f6ce97-e2c5-4ab8-7ba5-7654dd08d52b',
    })!;
    expect(request.user).toBe('jane.doe@example.com');
    expect(request.groups).toEqual(['developers', 'admins']);
    expect(request.uid).toBe('06f6ce97-e2c5-4ab8-7ba5-7654dd08d52b');
    expect(request.extra).toEqual({ dn: ['cn=jane,ou=engineers,dc=example,dc=com'], 'acme.com/project': ['some-project'], scopes: ['view', 'development'] });

    expect(impersonationChecks(request)).toEqual([
      { verb: 'impersonate', apiGroup: '', apiVersion: '', resource: 'users', subresource: '', namespace: '', name: 'jane.doe@example.com', resourceRequest: true },
      { verb: 'impersonate', apiGroup: '', apiVersion: '', resource: 'groups', subresource: '', namespace: '', name: 'developers', resourceRequest: true },
      { verb: 'impersonate', apiGroup: '', apiVersion: '', resource: 'groups', subresource: '', namespace: '', name: 'admins', resourceRequest: true },
      { verb: 'impersonate', apiGroup: 'authentication.platform.io', apiVersion: 'v1', resource: 'userextras', subresource: 'dn', namespace: '', name: 'cn=jane,ou=engineers,dc=example,dc=com', resourceRequest: true },
      { verb: 'impersonate', apiGroup: 'authentication.platform.io', apiVersion: 'v1', resource: 'userextras', subresource: 'acme.com/project', namespace: '', name: 'some-project', resourceRequest: true },
      { verb: 'impersonate', apiGroup: 'authentication.platform.io', apiVersion: 'v1', resource: 'userextras', subresource: 'scopes', namespace: '', name: 'view', resourceRequest: true },
      { verb: 'impersonate', apiGroup: 'authentication.platform.io', apiVersion: 'v1', resource: 'userextras', subresource: 'scopes', namespace: '', name: 'development', resourceRequest: true },
      { verb: 'impersonate', apiGroup: 'authentication.platform.io', apiVersion: 'v1', resource: 'uids', subresource: '', namespace: '', name: '06f6ce97-e2c5-4ab8-7ba5-7654dd08d52b', resourceRequest: true },
    ]);

    expect(impersonatedUser(request)).toEqual({
      name: 'jane.doe@example.com',
      uid: '06f6ce97-e2c5-4ab8-7ba5-7654dd08d52b',
      groups: ['developers', 'admins', 'system:authenticated'],
      extra: { dn: ['cn=jane,ou=engineers,dc=example,dc=com'], 'acme.com/project': ['some-project'], scopes: ['view', 'development'] },
    });
  });

  it('refuses groups, extras or a uid without a user, with the error Kubernetes answers in plain text', () => {
    const err = parseError({ 'impersonate-group': 'developers', 'impersonate-extra-scopes': 'v', 'impersonate-uid': '1234' });
    expect(err).toBeInstanceOf(ImpersonationWithoutUserError);
    expect((err as Error).message).toBe(
      'requested [{Group  developers    } {UserExtra  v  authentication.platform.io/v1  scopes} {UID  1234  authentication.platform.io/v1  }] without impersonating a user',
    );
  });

  it('impersonates a service account with its groups, checked on serviceaccounts in its namespace', () => {
    const request = parseImpersonation({ 'impersonate-user': 'system:serviceaccount:kube-system:builder' })!;
    expect(impersonationChecks(request)).toEqual([
      { verb: 'impersonate', apiGroup: '', apiVersion: '', resource: 'serviceaccounts', subresource: '', namespace: 'kube-system', name: 'builder', resourceRequest: true },
    ]);
    expect(impersonatedUser(request)).toEqual({
      name: 'system:serviceaccount:kube-system:builder',
      uid: '',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
      extra: {},
    });
    // explicit groups replace the service account groups
    const withGroups = parseImpersonation({ 'impersonate-user': 'system:serviceaccount:kube-system:builder', 'impersonate-group': 'custom' })!;
    expect(impersonatedUser(withGroups).groups).toEqual(['custom', 'system:authenticated']);
    // a name that is not a valid service account user is an ordinary user
    const odd = parseImpersonation({ 'impersonate-user': 'system:serviceaccount:Bad_NS:x' })!;
    expect(impersonationChecks(odd)[0].resource).toBe('users');
  });

  it('adds system:authenticated unless a system group is given, and system:unauthenticated for anonymous', () => {
    const groupsOf = (headers: Record<string, string | string[]>) => impersonatedUser(parseImpersonation(headers)!).groups;
    expect(groupsOf({ 'impersonate-user': 'bob' })).toEqual(['system:authenticated']);
    expect(groupsOf({ 'impersonate-user': 'bob', 'impersonate-group': ['system:unauthenticated'] })).toEqual(['system:unauthenticated']);
    expect(groupsOf({ 'impersonate-user': 'bob', 'impersonate-group': ['a', 'system:authenticated'] })).toEqual(['a', 'system:authenticated']);
    expect(groupsOf({ 'impersonate-user': 'system:anonymous' })).toEqual(['system:unauthenticated']);
    expect(groupsOf({ 'impersonate-user': 'system:anonymous', 'impersonate-group': 'system:unauthenticated' })).toEqual(['system:unauthenticated']);
  });

  it('builds the Forbidden answer for a denied check', () => {
    const [user, group, extra] = impersonationChecks(parseImpersonation({ 'impersonate-user': 'bob', 'impersonate-group': 'ops', 'impersonate-extra-scopes': 'view' })!);
    const denied = impersonationForbidden(user, 'alice');
    expect(isForbidden(denied)).toBe(true);
    expect(denied.message).toBe('users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope');
    expect(denied.errStatus.details).toEqual({ name: 'bob', kind: 'users' });
    expect(impersonationForbidden(group, 'alice', 'no RBAC policy matched').message).toBe(
      'groups "ops" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope: no RBAC policy matched',
    );
    expect(impersonationForbidden(extra, 'alice').message).toBe(
      'userextras.authentication.platform.io "view" is forbidden: User "alice" cannot impersonate resource "userextras/scopes" in API group "authentication.platform.io" at the cluster scope',
    );
    const [sa] = impersonationChecks(parseImpersonation({ 'impersonate-user': 'system:serviceaccount:ns:robot' })!);
    expect(impersonationForbidden(sa, '<alice>').message).toBe(
      'serviceaccounts "robot" is forbidden: User "&lt;alice&gt;" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "ns"',
    );
  });

  it('recognises the headers it consumes', () => {
    expect(['Impersonate-User', 'impersonate-group', 'Impersonate-Uid', 'impersonate-extra-x'].every(isImpersonationHeader)).toBe(true);
    expect(isImpersonationHeader('Impersonate-New')).toBe(false);
  });
});
