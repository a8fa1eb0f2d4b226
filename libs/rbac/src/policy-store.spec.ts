import { authorize } from './authorizer';
import { resourceAttributes } from './attributes';
import { RbacPolicy } from './policy-store';
import { clusterRole, clusterRoleBinding, role, roleBinding, rule, who } from './spec-fixtures';
import { ClusterRole } from './types';

const getPods = (user: string, namespace: string) => resourceAttributes({ user: who(user), verb: 'get', resource: 'pods', namespace });

describe('RbacPolicy', () => {
  it('adds, updates and deletes objects by kind, namespace and name', () => {
    const policy = new RbacPolicy();
    policy.add(clusterRole('reader', rule('get', '""', 'pods')));
    policy.add(roleBinding('ns1', 'read', 'ClusterRole:reader', 'User:alice'));
    expect(authorize(policy, getPods('alice', 'ns1')).decision).toBe('Allow');

    policy.update(clusterRole('reader', rule('list', '""', 'pods')));
    expect(authorize(policy, getPods('alice', 'ns1')).decision).toBe('NoOpinion');

    policy.update(clusterRole('reader', rule('get', '""', 'pods')));
    policy.delete({ kind: 'RoleBinding', metadata: { namespace: 'ns1', name: 'read' } });
    expect(authorize(policy, getPods('alice', 'ns1')).decision).toBe('NoOpinion');
    expect(policy.listRoleBindings()).toEqual([]);

    policy.add(role('ns1', 'reader', rule('get', '""', 'pods')));
    policy.add(roleBinding('ns1', 'read', 'Role:reader', 'User:alice'));
    expect(authorize(policy, getPods('alice', 'ns1')).decision).toBe('Allow');
    // a Role of the same name in another namespace is another object
    policy.delete(role('ns2', 'reader'));
    expect(authorize(policy, getPods('alice', 'ns1')).decision).toBe('Allow');
    policy.delete(role('ns1', 'reader'));
    expect(authorize(policy, getPods('alice', 'ns1')).reason).toBe('RBAC: role.rbac.authorization.platform.io "reader" not found');
  });

  it('keeps its own frozen copies of the objects it is given', () => {
    const cr = clusterRole('reader', rule('get', '""', 'pods'));
    const policy = new RbacPolicy({ clusterRoles: [cr], clusterRoleBindings: [clusterRoleBinding('read', 'reader', 'User:alice')] });
    cr.rules![0].verbs = ['delete'];
    expect(policy.getClusterRole('reader')?.rules?.[0].verbs).toEqual(['get']);
    const stored = policy.getClusterRole('reader') as ClusterRole;
    expect(Object.isFrozen(stored)).toBe(true);
    expect(() => {
      stored.rules![0].verbs!.push('delete');
    }).toThrow(TypeError);
  });

  it('gives snapshots that later changes do not reach', () => {
    const policy = new RbacPolicy({
      clusterRoles: [clusterRole('reader', rule('get', '""', 'pods'))],
      roleBindings: [roleBinding('ns1', 'read', 'ClusterRole:reader', 'User:alice')],
    });
    const before = policy.snapshot();
    expect(policy.snapshot()).toBe(before);

    policy.delete(clusterRole('reader'));
    policy.add(roleBinding('ns1', 'read-bob', 'ClusterRole:reader', 'User:bob'));
    policy.add(roleBinding('ns2', 'read', 'ClusterRole:reader', 'User:alice'));
    policy.add(clusterRoleBinding('everyone', 'reader', 'Group:system:authenticated'));

    expect(authorize(before, getPods('alice', 'ns1')).decision).toBe('Allow');
    expect(before.listRoleBindings('ns1').map((b) => b.metadata.name)).toEqual(['read']);
    expect(before.listRoleBindings('ns2')).toEqual([]);
    expect(before.listClusterRoleBindings()).toEqual([]);

    const after = policy.snapshot();
    expect(after).not.toBe(before);
    expect(authorize(after, getPods('alice', 'ns1')).decision).toBe('NoOpinion');
    expect(after.listRoleBindings('ns1').map((b) => b.metadata.name)).toEqual(['read', 'read-bob']);

    // changes after a second snapshot leave both snapshots alone
    policy.delete(roleBinding('ns1', 'read', 'ClusterRole:reader'));
    expect(before.listRoleBindings('ns1').map((b) => b.metadata.name)).toEqual(['read']);
    expect(after.listRoleBindings('ns1').map((b) => b.metadata.name)).toEqual(['read', 'read-bob']);
    expect(policy.listRoleBindings('ns1').map((b) => b.metadata.name)).toEqual(['read-bob']);
  });

  it('lists in name order, namespaces in order for all namespaces', () => {
    const policy = new RbacPolicy({
      roleBindings: [roleBinding('b', 'z', 'Role:r'), roleBinding('a', 'y', 'Role:r'), roleBinding('b', 'a', 'Role:r')],
      clusterRoleBindings: [clusterRoleBinding('c', 'r'), clusterRoleBinding('B', 'r'), clusterRoleBinding('a', 'r')],
    });
    expect(policy.listRoleBindings().map((b) => `${b.metadata.namespace}/${b.metadata.name}`)).toEqual(['a/y', 'b/a', 'b/z']);
    expect(policy.listClusterRoleBindings().map((b) => b.metadata.name)).toEqual(['B', 'a', 'c']);
  });

  it('replace drops what it held', () => {
    const policy = new RbacPolicy({ clusterRoles: [clusterRole('a')] });
    policy.replace({ clusterRoles: [clusterRole('b')] });
    expect(policy.listClusterRoles().map((r) => r.metadata.name)).toEqual(['b']);
  });

  it.each([
    [{ kind: 'Pod', metadata: { name: 'x' } }, 'RbacPolicy holds Role, ClusterRole, RoleBinding and ClusterRoleBinding objects, not "Pod"'],
    [{ kind: 'Role', metadata: { name: 'x' } }, 'Role "x" without a namespace'],
    [{ kind: 'ClusterRole', metadata: {} }, 'ClusterRole without a name'],
  ])('refuses %j', (obj, message) => {
    expect(() => new RbacPolicy().delete(obj)).toThrow(message);
  });

  it('rulesFor returns the rules and the errors', () => {
    const policy = new RbacPolicy({
      clusterRoles: [clusterRole('a', rule('get', '""', 'pods'), rule('list', '""', 'pods'))],
      clusterRoleBindings: [clusterRoleBinding('a', 'a', 'User:alice'), clusterRoleBinding('b', 'b', 'User:alice')],
    });
    expect(policy.rulesFor(who('alice'), 'ns1')).toEqual({
      rules: [rule('get', '""', 'pods'), rule('list', '""', 'pods')],
      errors: ['clusterrole.rbac.authorization.platform.io "b" not found'],
    });
    expect(policy.rulesFor(who('alice'), 'ns1', 'registry').errors).toEqual(['clusterroles.rbac.authorization.platform.io "b" not found']);
  });

  it('visitRulesFor stops when the visitor says so', () => {
    const policy = new RbacPolicy({
      clusterRoles: [clusterRole('a', rule('get', '""', 'pods'), rule('list', '""', 'pods'))],
      clusterRoleBindings: [clusterRoleBinding('a', 'a', 'User:alice')],
    });
    const seen: string[] = [];
    policy.visitRulesFor(who('alice'), '', (source, r) => {
      seen.push(`${source}: ${r?.verbs}`);
      return false;
    });
    expect(seen).toEqual(['ClusterRoleBinding "a" of ClusterRole "a" to User "alice": get']);
  });
});
