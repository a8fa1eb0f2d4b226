// After policy_comparator_test.go (Covers), policy_compact_test.go, rule_test.go
// (ConfirmNoEscalation) and the escalation tests of the RBAC registry.
import { newUserInfo } from './attributes';
import {
  bindingAuthorized,
  breakdownRule,
  checkClusterRoleBindingEscalation,
  checkClusterRoleEscalation,
  checkRoleBindingEscalation,
  checkRoleEscalation,
  compactRules,
  compactString,
  confirmNoEscalation,
  covers,
  isOnlyMutatingGCFields,
  roleEscalationAuthorized,
} from './escalation';
import { RbacPolicy } from './policy-store';
import { clusterRole, clusterRoleBinding, role, roleBinding, rule, who } from './spec-fixtures';
import { PolicyRule } from './types';

describe('covers', () => {
  const r = (verbs: string, groups: string, resources: string, names?: string): PolicyRule => ({
    ...rule(verbs, groups, resources),
    ...(names ? { resourceNames: names.split(',') } : {}),
  });
  const u = (verbs: string, urls: string): PolicyRule => rule(verbs, '', '', urls);

  it.each<[string, PolicyRule[], PolicyRule[], PolicyRule[]]>([
    ['exact match', [r('get', '""', 'pods')], [r('get', '""', 'pods')], []],
    ['star verb', [r('*', '""', 'pods')], [r('get,delete', '""', 'pods')], []],
    ['star group', [r('get', '*', 'pods')], [r('get', 'apps,batch', 'pods')], []],
    ['star resource covers subresources', [r('get', '""', '*')], [r('get', '""', 'pods,pods/status')], []],
    ['star subresource', [r('get', '""', '*/status')], [r('get', '""', 'pods/status,nodes/status')], []],
    ['star subresource does not cover the resource', [r('get', '""', '*/status')], [r('get', '""', 'pods')], [r('get', '""', 'pods')]],
    ['resource does not cover its subresource', [r('get', '""', 'pods')], [r('get', '""', 'pods/log')], [r('get', '""', 'pods/log')]],
    ['rules split over owners', [r('get', '""', 'pods'), r('list', '""', 'pods')], [r('get,list', '""', 'pods')], []],
    ['missing verbs one by one', [r('get', '""', 'pods')], [r('get,list,watch', '""', 'pods')], [r('list', '""', 'pods'), r('watch', '""', 'pods')]],
    ['owner without names covers names', [r('get', '""', 'configmaps')], [r('get', '""', 'configmaps', 'a,b')], []],
    ['owner names cover the same names', [r('get', '""', 'configmaps', 'a,b,c')], [r('get', '""', 'configmaps', 'a,c')], []],
    ['owner names do not cover other names', [r('get', '""', 'configmaps', 'a')], [r('get', '""', 'configmaps', 'a,b')], [r('get', '""', 'configmaps', 'b')]],
    ['owner names do not cover all names', [r('get', '""', 'configmaps', 'a')], [r('get', '""', 'configmaps')], [r('get', '""', 'configmaps')]],
    ['exact URL', [u('get', '/healthz')], [u('get', '/healthz')], []],
    ['URL prefix', [u('get', '/apis/*')], [u('get', '/apis/v1,/apis/batch/v1')], []],
    ['URL prefix does not cover its parent', [u('get', '/apis/*')], [u('get', '/apis')], [u('get', '/apis')]],
    ['star URL', [u('*', '*')], [u('get,post', '/anything')], []],
    ['resources do not cover URLs', [r('*', '*', '*')], [u('get', '/healthz')], [u('get', '/healthz')]],
    ['URLs do not cover resources', [u('*', '*')], [r('get', '""', 'pods')], [r('get', '""', 'pods')]],
    ['nothing covers something', [], [r('get', '""', 'pods')], [r('get', '""', 'pods')]],
    ['anything covers nothing', [], [], []],
  ])('%s', (_name, owner, servant, missing) => {
    expect(covers(owner, servant)).toEqual({ covered: missing.length === 0, missing });
  });

  it('breaks rules down to one group, resource, verb and name each', () => {
    expect(breakdownRule({ verbs: ['get', 'list'], apiGroups: ['', 'apps'], resources: ['pods'], resourceNames: ['a'] })).toEqual([
      { apiGroups: [''], resources: ['pods'], verbs: ['get'], resourceNames: ['a'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['list'], resourceNames: ['a'] },
      { apiGroups: ['apps'], resources: ['pods'], verbs: ['get'], resourceNames: ['a'] },
      { apiGroups: ['apps'], resources: ['pods'], verbs: ['list'], resourceNames: ['a'] },
    ]);
  });
});

describe('compactRules and compactString', () => {
  it('merges the verbs of simple rules of one group and resource', () => {
    expect(
      compactRules([
        { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
        { apiGroups: [''], resources: ['configmaps'], verbs: ['get'], resourceNames: ['a'] },
        { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
        { nonResourceURLs: ['/x'], verbs: ['get'] },
      ]),
    ).toEqual([
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get'], resourceNames: ['a'] },
      { nonResourceURLs: ['/x'], verbs: ['get'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
    ]);
  });

  it.each<[PolicyRule, string]>([
    [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }, '{APIGroups:[""], Resources:["pods"], Verbs:["get"]}'],
    [{ apiGroups: ['', 'apps'], resources: ['a', 'b'], resourceNames: ['n'], verbs: ['get', 'list'] }, '{APIGroups:["" "apps"], Resources:["a" "b"], ResourceNames:["n"], Verbs:["get" "list"]}'],
    [{ nonResourceURLs: ['/healthz', '/api/*'], verbs: ['get'] }, '{NonResourceURLs:["/healthz" "/api/*"], Verbs:["get"]}'],
    [{}, '{}'],
  ])('%j', (r, s) => expect(compactString(r)).toBe(s));
});

describe('confirmNoEscalation', () => {
  const policy = new RbacPolicy({
    clusterRoles: [clusterRole('reader', rule('get', '""', 'pods'))],
    clusterRoleBindings: [clusterRoleBinding('read', 'reader', 'Group:system:authenticated')],
  });
  const alice = who('alice|system:authenticated');

  it('passes rules the user holds', () => {
    expect(confirmNoEscalation(policy, alice, 'ns1', [rule('get', '""', 'pods')])).toBeNull();
  });

  it('lists the missing rules, compacted and sorted', () => {
    expect(
      confirmNoEscalation(policy, alice, 'ns1', [
        rule('get,list', '""', 'pods,secrets'),
        { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] },
        rule('get', '', '', '/healthz'),
      ]),
    ).toBe(
      [
        'user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:',
        '{APIGroups:[""], Resources:["configmaps"], ResourceNames:["a"], Verbs:["get"]}',
        '{APIGroups:[""], Resources:["pods"], Verbs:["list"]}',
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}',
        '{NonResourceURLs:["/healthz"], Verbs:["get"]}',
      ].join('\n'),
    );
  });

  it('writes a user without groups as groups=[]', () => {
    expect(confirmNoEscalation(policy, newUserInfo({ name: 'bob' }), '', [rule('get', '""', 'pods')])).toBe(
      'user "bob" (groups=[]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["get"]}',
    );
  });

  it('appends the resolution errors, read as the registry reads roles', () => {
    const p = new RbacPolicy({ clusterRoleBindings: [clusterRoleBinding('a', 'gone', 'User:alice'), clusterRoleBinding('b', 'lost', 'User:alice')] });
    expect(confirmNoEscalation(p, newUserInfo({ name: 'alice' }), '', [rule('get', '""', 'pods')])).toBe(
      'user "alice" (groups=[]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["get"]}' +
        '; resolution errors: [[clusterroles.rbac.authorization.platform.io "gone" not found, clusterroles.rbac.authorization.platform.io "lost" not found]]',
    );
    const one = new RbacPolicy({ clusterRoleBindings: [clusterRoleBinding('a', 'gone', 'User:alice')] });
    expect(confirmNoEscalation(one, newUserInfo({ name: 'alice' }), '', [rule('get', '""', 'pods')])).toMatch(
      /; resolution errors: \[clusterroles.rbac.authorization.platform.io "gone" not found\]$/,
    );
  });
});

describe('escalate and bind', () => {
  const policy = new RbacPolicy({
    clusterRoles: [
      clusterRole('ns-admin', rule('get,list,create,update,patch,delete', '""', 'pods,configmaps'), rule('get,list,watch,create,update,patch,delete', 'rbac.authorization.platform.io', 'roles,rolebindings')),
      clusterRole('escalator', rule('escalate', 'rbac.authorization.platform.io', 'roles,clusterroles')),
      { ...clusterRole('bind-view', rule('bind', 'rbac.authorization.platform.io', 'clusterroles')), rules: [{ verbs: ['bind'], apiGroups: ['rbac.authorization.platform.io'], resources: ['clusterroles'], resourceNames: ['view'] }] },
      clusterRole('view', rule('get,list,watch', '*', '*')),
      clusterRole('cluster-admin', rule('*', '*', '*'), rule('*', '', '', '*')),
      clusterRole('rbac-writer', rule('get,list,watch,create,update,patch,delete', 'rbac.authorization.platform.io', '*')),
    ],
    clusterRoleBindings: [
      clusterRoleBinding('escalators', 'escalator', 'User:eve'),
      clusterRoleBinding('binders', 'bind-view', 'User:bea'),
      clusterRoleBinding('admins', 'cluster-admin', 'User:root'),
      clusterRoleBinding('rbac', 'rbac-writer', 'User:eve', 'User:bea', 'User:alice'),
    ],
    roleBindings: [roleBinding('ns1', 'admin', 'ClusterRole:ns-admin', 'User:alice')],
  });
  const alice = who('alice|system:authenticated');

  it('allows a role the user holds, refuses one they do not', () => {
    expect(checkRoleEscalation(policy, alice, role('ns1', 'r', rule('get,list', '""', 'pods')), { namespace: 'ns1' })).toBeNull();
    const err = checkRoleEscalation(policy, alice, role('ns1', 'r', rule('get,list,watch', '""', 'pods')), { namespace: 'ns1' });
    expect(err?.code).toBe(403);
    expect(err?.message).toBe(
      'roles.rbac.authorization.platform.io "r" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["watch"]}',
    );
    // a RoleBinding's rules do not count in another namespace
    expect(checkRoleEscalation(policy, alice, role('ns2', 'r', rule('get', '""', 'pods')), { namespace: 'ns2' })?.code).toBe(403);
  });

  it('lets system:masters and holders of escalate write any role', () => {
    const big = role('ns1', 'r', rule('*', '*', '*'));
    expect(checkRoleEscalation(policy, who('root2|system:masters'), big, { namespace: 'ns1' })).toBeNull();
    expect(checkRoleEscalation(policy, who('eve'), big, { namespace: 'ns1' })).toBeNull();
    expect(roleEscalationAuthorized(policy, who('eve'), { resource: 'clusterroles', name: '', namespace: '' })).toBe(true);
    expect(roleEscalationAuthorized(policy, who('eve'), { resource: 'rolebindings', name: '', namespace: 'ns1' })).toBe(false);
    expect(roleEscalationAuthorized(policy, alice, { resource: 'roles', name: 'r', namespace: 'ns1' })).toBe(false);
  });

  it('does not check an update that only changes what the garbage collector changes', () => {
    const old = role('ns1', 'r', rule('*', '*', '*'));
    const updated = { ...old, metadata: { ...old.metadata, finalizers: ['x'], ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u' }] } };
    expect(isOnlyMutatingGCFields(updated, old)).toBe(true);
    expect(checkRoleEscalation(policy, alice, updated, { namespace: 'ns1', old })).toBeNull();
    const widened = { ...updated, metadata: { ...updated.metadata, labels: { a: 'b' } } };
    expect(isOnlyMutatingGCFields(widened, old)).toBe(false);
    expect(checkRoleEscalation(policy, alice, widened, { namespace: 'ns1', old })?.code).toBe(403);
    expect(isOnlyMutatingGCFields(updated, undefined)).toBe(false);
  });

  it('requires full authority to set or drop an aggregationRule', () => {
    const aggregated = { ...clusterRole('agg'), aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } };
    const viewer = who('vic');
    const p = new RbacPolicy({ clusterRoles: [clusterRole('view', rule('get,list,watch', '*', '*'))], clusterRoleBindings: [clusterRoleBinding('v', 'view', 'User:vic'), clusterRoleBinding('admins', 'view', 'User:none')] });
    expect(checkClusterRoleEscalation(p, viewer, aggregated)?.message).toBe('clusterroles.rbac.authorization.platform.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule');
    expect(checkClusterRoleEscalation(p, viewer, clusterRole('plain', rule('get', '""', 'pods')))).toBeNull();
    expect(checkClusterRoleEscalation(p, viewer, clusterRole('agg'), { old: aggregated })?.message).toMatch(/must have cluster-admin privileges/);
    expect(checkClusterRoleEscalation(policy, who('root'), aggregated)).toBeNull();
    // the rules are checked before the aggregationRule
    expect(checkClusterRoleEscalation(p, viewer, { ...aggregated, rules: [rule('delete', '""', 'pods')] })?.message).toMatch(/is attempting to grant RBAC permissions not currently held/);
  });

  it('binds a role whose rules the user holds, or that the user may bind', () => {
    expect(checkRoleBindingEscalation(policy, alice, roleBinding('ns1', 'rb', 'ClusterRole:ns-admin', 'User:carl'), { namespace: 'ns1' })).toBeNull();
    const err = checkRoleBindingEscalation(policy, alice, roleBinding('ns1', 'rb', 'ClusterRole:view', 'User:carl'), { namespace: 'ns1' });
    expect(err?.message).toMatch(/^rolebindings.rbac.authorization.platform.io "rb" is forbidden: user "alice" \(groups=\["system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n\{APIGroups:\["\*"\], Resources:\["\*"\], Verbs:\["get" "list" "watch"\]\}$/);

    const bea = who('bea');
    expect(bindingAuthorized(policy, bea, { apiGroup: 'rbac.authorization.platform.io', kind: 'ClusterRole', name: 'view' }, 'ns1')).toBe(true);
    expect(bindingAuthorized(policy, bea, { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, '')).toBe(true);
    expect(bindingAuthorized(policy, bea, { apiGroup: 'rbac.authorization.platform.io', kind: 'ClusterRole', name: 'cluster-admin' }, 'ns1')).toBe(false);
    expect(bindingAuthorized(policy, bea, { apiGroup: 'rbac.authorization.platform.io', kind: 'Thing', name: 'view' }, 'ns1')).toBe(false);
    expect(checkClusterRoleBindingEscalation(policy, bea, clusterRoleBinding('all-view', 'view', 'Group:system:authenticated'))).toBeNull();
    expect(checkClusterRoleBindingEscalation(policy, bea, clusterRoleBinding('all-admin', 'cluster-admin', 'Group:system:authenticated'))?.message).toMatch(
      /^clusterrolebindings.rbac.authorization.platform.io "all-admin" is forbidden: user "bea" \(groups=\[\]\) is attempting to grant RBAC permissions not currently held:\n\{APIGroups:\["\*"\], Resources:\["\*"\], Verbs:\["\*"\]\}\n\{NonResourceURLs:\["\*"\], Verbs:\["\*"\]\}$/,
    );
  });

  it('answers 404 for a binding to a missing role the user may not bind', () => {
    const err = checkRoleBindingEscalation(policy, alice, roleBinding('ns1', 'rb', 'ClusterRole:nope', 'User:carl'), { namespace: 'ns1' });
    expect(err?.code).toBe(404);
    expect(err?.message).toBe('clusterroles.rbac.authorization.platform.io "nope" not found');
    const role404 = checkRoleBindingEscalation(policy, alice, roleBinding('ns1', 'rb', 'Role:nope', 'User:carl'), { namespace: 'ns1' });
    expect(role404?.message).toBe('roles.rbac.authorization.platform.io "nope" not found');
    expect(checkRoleBindingEscalation(policy, who('root|system:masters'), roleBinding('ns1', 'rb', 'ClusterRole:nope'), { namespace: 'ns1' })).toBeNull();
  });

  it('does not count namespace grants at the cluster scope', () => {
    const err = checkClusterRoleBindingEscalation(policy, alice, clusterRoleBinding('mine', 'ns-admin', 'User:alice'));
    expect(err?.code).toBe(403);
  });
});
