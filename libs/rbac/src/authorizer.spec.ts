// Tables after TestAuthorizer of plugin/pkg/auth/authorizer/rbac/rbac_test.go and the rule
// resolver tests of pkg/registry/rbac/validation/rule_test.go, with the reasons, evaluation
// errors, forbidden texts and rules reviews Kubernetes produces.
import { Attributes, nonResourceAttributes, resourceAttributes, UserInfo } from './attributes';
import { authorize, forbiddenError, forbiddenMessage, rulesReview } from './authorizer';
import { PolicyContents, RbacPolicy } from './policy-store';
import { clusterRole, clusterRoleBinding, role, roleBinding, rule, who } from './spec-fixtures';
import { ClusterRoleBinding, RoleBinding } from './types';

// res is "user[|groups] verb resource[/sub] [namespace] [name]" with "-" for an empty part.
function res(spec: string, apiGroup = ''): Attributes {
  const [u, verb, resource, namespace = '', name = ''] = spec.split(' ');
  const [r, sub = ''] = resource.split('/');
  const dash = (s: string) => (s === '-' ? '' : s);
  return resourceAttributes({ user: who(u), verb, apiGroup, resource: r, subresource: sub, namespace: dash(namespace), name: dash(name) });
}

function url(spec: string): Attributes {
  const [u, verb, path] = spec.split(' ');
  return nonResourceAttributes({ user: who(u), verb, path });
}

interface Table {
  name: string;
  policy: PolicyContents;
  shouldPass: Attributes[];
  shouldFail: Attributes[];
}

const tables: Table[] = [
  {
    name: 'cluster role bound in one namespace',
    policy: {
      clusterRoles: [clusterRole('admin', rule('*', '*', '*', '*'))],
      roleBindings: [roleBinding('ns1', 'admin', 'ClusterRole:admin', 'User:admin', 'Group:admins')],
    },
    shouldPass: [res('admin get Pods ns1'), res('admin watch Pods ns1'), res('admin|group1 watch Foobar ns1'), res('joe|admins watch Foobar ns1'), res('joe|group1,admins watch Foobar ns1')],
    shouldFail: [res('admin GET Pods ns2'), res('admin GET Nodes'), res('admin|admins GET Pods ns2'), res('admin|admins GET Nodes'), res('joe|group1 get Pods ns1')],
  },
  {
    name: 'non-resource URLs',
    policy: {
      clusterRoles: [
        clusterRole('non-resource-url-getter', rule('get', '', '', '/apis')),
        clusterRole('non-resource-url', rule('*', '', '', '/apis')),
        clusterRole('non-resource-url-prefix', rule('get', '', '', '/apis/*')),
      ],
      clusterRoleBindings: [
        clusterRoleBinding('getter', 'non-resource-url-getter', 'User:foo', 'Group:bar'),
        clusterRoleBinding('all', 'non-resource-url', 'User:admin', 'Group:admin'),
        clusterRoleBinding('prefix', 'non-resource-url-prefix', 'User:prefixed', 'Group:prefixed'),
      ],
    },
    shouldPass: [
      url('foo get /apis'),
      url('|bar get /apis'),
      url('admin get /apis'),
      url('|admin get /apis'),
      url('admin watch /apis'),
      url('|admin watch /apis'),
      url('prefixed get /apis/v1'),
      url('|prefixed get /apis/v1'),
      url('prefixed get /apis/v1/foobar'),
    ],
    shouldFail: [
      url('foo watch /apis'),
      url('|bar watch /apis'),
      url('foo get /api/v1'),
      url('admin get /api/v1'),
      url('prefixed get /api/v1'),
      url('prefixed get /apis'),
    ],
  },
  {
    name: 'non-resource URLs are granted by ClusterRoleBindings only',
    policy: {
      clusterRoles: [clusterRole('health', rule('get', '', '', '/healthz'))],
      roleBindings: [roleBinding('ns1', 'health', 'ClusterRole:health', 'User:alice')],
    },
    shouldPass: [],
    shouldFail: [url('alice get /healthz')],
  },
  {
    name: 'a resource does not cover its subresources',
    policy: {
      clusterRoles: [clusterRole('admin', rule('*', '*', 'pods', '*'))],
      roleBindings: [roleBinding('ns1', 'admin', 'ClusterRole:admin', 'User:admin', 'Group:admins')],
    },
    shouldPass: [res('admin get pods ns1')],
    shouldFail: [res('admin get pods/status ns1')],
  },
  {
    name: 'a subresource does not cover its resource',
    policy: {
      clusterRoles: [clusterRole('admin', rule('*', '*', 'pods/status', '*'))],
      roleBindings: [roleBinding('ns1', 'admin', 'ClusterRole:admin', 'User:admin', 'Group:admins')],
    },
    shouldPass: [res('admin get pods/status ns1')],
    shouldFail: [res('admin get pods ns1')],
  },
  {
    name: '*/subresource across resources',
    policy: {
      clusterRoles: [clusterRole('scaler', rule('get,update', '*', '*/scale'))],
      clusterRoleBindings: [clusterRoleBinding('scaler', 'scaler', 'User:hpa')],
    },
    shouldPass: [res('hpa update deployments/scale ns1', 'apps'), res('hpa get replicationcontrollers/scale ns2')],
    shouldFail: [res('hpa get deployments ns1', 'apps'), res('hpa get deployments/status ns1', 'apps'), res('hpa delete deployments/scale ns1', 'apps')],
  },
  {
    name: 'roles apply in their namespace only, and not at the cluster scope',
    policy: {
      roles: [role('team', 'pod-reader', rule('get,list,watch', '""', 'pods')), role('other', 'pod-reader', rule('*', '*', '*'))],
      roleBindings: [roleBinding('team', 'read-pods', 'Role:pod-reader', 'User:alice')],
    },
    shouldPass: [res('alice get pods team'), res('alice list pods team')],
    shouldFail: [res('alice delete pods team'), res('alice get pods other'), res('alice list pods'), res('alice get pods team', 'apps')],
  },
  {
    name: 'resource names',
    policy: {
      roles: [role('team', 'one-config', { verbs: ['get', 'update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'] })],
      roleBindings: [roleBinding('team', 'one-config', 'Role:one-config', 'Group:devs')],
    },
    shouldPass: [res('bob|devs get configmaps team settings'), res('bob|devs update configmaps team settings')],
    shouldFail: [res('bob|devs get configmaps team secrets'), res('bob|devs list configmaps team'), res('bob|devs delete configmaps team settings')],
  },
  {
    name: 'service accounts',
    policy: {
      clusterRoles: [clusterRole('jobs', rule('*', 'batch', 'jobs')), clusterRole('edit', rule('*', '""', 'pods'))],
      clusterRoleBindings: [
        clusterRoleBinding('job-controller', 'jobs', 'ServiceAccount:kube-system:job-controller'),
        // without a namespace a ClusterRoleBinding's service account names no one
        clusterRoleBinding('nobody', 'edit', 'ServiceAccount:builder'),
      ],
      roleBindings: [
        // without a namespace a RoleBinding's service account is the one of its namespace
        roleBinding('team', 'builder', 'ClusterRole:edit', 'ServiceAccount:builder'),
        roleBinding('team', 'deployer', 'ClusterRole:edit', 'ServiceAccount:ci:deployer'),
      ],
    },
    shouldPass: [
      res('system:serviceaccount:kube-system:job-controller create jobs team', 'batch'),
      res('system:serviceaccount:kube-system:job-controller list jobs', 'batch'),
      res('system:serviceaccount:team:builder create pods team'),
      res('system:serviceaccount:ci:deployer create pods team'),
    ],
    shouldFail: [
      res('system:serviceaccount:default:job-controller create jobs team', 'batch'),
      res('job-controller create jobs team', 'batch'),
      res('system:serviceaccount:kube-system:job-controller create pods team'),
      res('system:serviceaccount:team:builder create pods other'),
      res('system:serviceaccount:team:builder create pods'),
      res('system:serviceaccount:ci:deployer create pods ci'),
      res('system:serviceaccount:team:deployer create pods team'),
      res('system:serviceaccount::builder create pods'),
    ],
  },
  {
    name: 'many users and groups',
    policy: {
      clusterRoles: [clusterRole('reader', rule('get,list,watch', '*', '*')), clusterRole('writer', rule('create,update,patch,delete', '*', '*'))],
      clusterRoleBindings: [clusterRoleBinding('readers', 'reader', 'Group:readers', 'User:carol')],
      roleBindings: [
        roleBinding('a', 'writers', 'ClusterRole:writer', 'Group:writers-a', 'User:dave'),
        roleBinding('b', 'writers', 'ClusterRole:writer', 'Group:writers-b'),
      ],
    },
    shouldPass: [
      res('alice|readers list pods'),
      res('carol get nodes'),
      res('carol get pods a'),
      res('erin|writers-a create pods a'),
      res('dave delete pods a'),
      res('frank|writers-b,readers get pods b'),
      res('frank|writers-b,readers patch pods b'),
    ],
    shouldFail: [res('alice create pods a'), res('erin|writers-a create pods b'), res('dave delete pods b'), res('frank|writers-b create pods'), res('carol create pods a')],
  },
];

describe('authorize', () => {
  for (const t of tables) {
    describe(t.name, () => {
      const policy = new RbacPolicy(t.policy);
      const label = (a: Attributes) => `${a.user.name}[${a.user.groups}] ${a.verb} ${a.isResourceRequest ? `${a.apiGroup}/${a.resource}/${a.subresource} ns=${a.namespace} name=${a.name}` : a.path}`;
      for (const a of t.shouldPass) it(`allows ${label(a)}`, () => expect(authorize(policy, a).decision).toBe('Allow'));
      for (const a of t.shouldFail) it(`has no opinion on ${label(a)}`, () => expect(authorize(policy, a).decision).toBe('NoOpinion'));
    });
  }
});

describe('authorize reasons', () => {
  const policy = new RbacPolicy({
    roles: [role('ns1', 'r', rule('get', '""', 'pods'))],
    clusterRoles: [clusterRole('cr', rule('list', '""', 'pods')), clusterRole('edit', rule('create', '""', 'pods'))],
    clusterRoleBindings: [clusterRoleBinding('crb', 'cr', 'Group:other', 'User:alice')],
    roleBindings: [roleBinding('ns1', 'rb', 'Role:r', 'Group:devs'), roleBinding('team', 'builder', 'ClusterRole:edit', 'ServiceAccount:builder')],
  });

  it.each([
    [res('alice list pods'), 'RBAC: allowed by ClusterRoleBinding "crb" of ClusterRole "cr" to User "alice"'],
    [res('bob|devs get pods ns1'), 'RBAC: allowed by RoleBinding "rb/ns1" of Role "r" to Group "devs"'],
    [res('system:serviceaccount:team:builder create pods team'), 'RBAC: allowed by RoleBinding "builder/team" of ClusterRole "edit" to ServiceAccount "builder/team"'],
  ])('%#: %s', (attrs, reason) => {
    expect(authorize(policy, attrs)).toEqual({ decision: 'Allow', reason, evaluationError: '', resolutionErrors: [] });
  });

  it('has no opinion and no reason when nothing applies', () => {
    expect(authorize(policy, res('bob get pods ns1'))).toEqual({ decision: 'NoOpinion', reason: '', evaluationError: '', resolutionErrors: [] });
  });
});

describe('evaluation errors', () => {
  const bindings: { crbs: ClusterRoleBinding[]; rbs: RoleBinding[] } = {
    crbs: [
      clusterRoleBinding('a-missing', 'missing', 'User:alice'),
      clusterRoleBinding('b-granting', 'reader', 'User:alice'),
      clusterRoleBinding('c-missing-for-bob', 'gone', 'User:bob'),
    ],
    rbs: [roleBinding('ns1', 'missing-role', 'Role:nope', 'User:alice'), roleBinding('ns1', 'weird', 'Role:r', 'User:carol')],
  };
  bindings.rbs[1].roleRef.kind = 'Policy';
  const policy = new RbacPolicy({
    clusterRoles: [clusterRole('reader', rule('get', '""', 'pods'))],
    clusterRoleBindings: bindings.crbs,
    roleBindings: bindings.rbs,
  });

  it('do not keep other bindings from allowing', () => {
    expect(authorize(policy, res('alice get pods ns1')).decision).toBe('Allow');
  });

  it('are the reason of a NoOpinion, as one message', () => {
    expect(authorize(policy, res('bob get pods ns1'))).toEqual({
      decision: 'NoOpinion',
      reason: 'RBAC: clusterrole.rbac.authorization.platform.io "gone" not found',
      evaluationError: '',
      resolutionErrors: ['clusterrole.rbac.authorization.platform.io "gone" not found'],
    });
  });

  it('are aggregated in visiting order: ClusterRoleBindings by name, then RoleBindings', () => {
    expect(authorize(policy, res('alice delete pods ns1')).reason).toBe(
      'RBAC: [clusterrole.rbac.authorization.platform.io "missing" not found, role.rbac.authorization.platform.io "nope" not found]',
    );
    // at the cluster scope no RoleBinding is read
    expect(authorize(policy, res('alice delete pods')).reason).toBe('RBAC: clusterrole.rbac.authorization.platform.io "missing" not found');
  });

  it('come only from bindings that apply to the user', () => {
    expect(authorize(policy, res('dave get pods ns1')).reason).toBe('');
  });

  it('name an unsupported role reference kind', () => {
    expect(authorize(policy, res('carol get pods ns1')).reason).toBe('RBAC: unsupported role reference kind: "Policy"');
  });
});

describe('subjects the API says the authorizer reports', () => {
  const policy = new RbacPolicy({
    clusterRoles: [clusterRole('reader', rule('get', '""', 'pods'))],
    clusterRoleBindings: [
      { ...clusterRoleBinding('namespaced-user', 'reader', 'User:alice'), subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice', namespace: 'ns1' }] },
      { ...clusterRoleBinding('namespaced-group', 'reader'), subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.platform.io', name: 'devs', namespace: 'ns1' }] },
      { ...clusterRoleBinding('robots', 'reader'), subjects: [{ kind: 'Robot', name: 'r2' }] },
      clusterRoleBinding('valid', 'reader', 'User:erin'),
    ],
  });

  it('a User or Group with a namespace grants nothing and is reported to the user it names', () => {
    expect(authorize(policy, res('alice get pods ns1')).resolutionErrors).toEqual([
      'User subject "alice" of ClusterRoleBinding "namespaced-user" must not have a namespace, got "ns1"',
      'unsupported subject kind: "Robot" in ClusterRoleBinding "robots"',
    ]);
    expect(authorize(policy, res('bob|devs get pods ns1')).resolutionErrors).toEqual([
      'Group subject "devs" of ClusterRoleBinding "namespaced-group" must not have a namespace, got "ns1"',
      'unsupported subject kind: "Robot" in ClusterRoleBinding "robots"',
    ]);
  });

  it('an unknown kind is reported to everyone without keeping valid bindings from allowing', () => {
    expect(authorize(policy, res('zed get pods ns1')).reason).toBe('RBAC: unsupported subject kind: "Robot" in ClusterRoleBinding "robots"');
    expect(authorize(policy, res('erin get pods ns1')).decision).toBe('Allow');
  });

  it('subject apiGroup may be either RBAC group name', () => {
    const p = new RbacPolicy({
      clusterRoles: [clusterRole('reader', rule('get', '""', 'pods'))],
      clusterRoleBindings: [{ ...clusterRoleBinding('k8s', 'reader'), roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'reader' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }] }],
    });
    expect(authorize(p, res('alice get pods ns1')).decision).toBe('Allow');
  });
});

describe('forbiddenMessage', () => {
  const alice = who('alice|system:authenticated');
  const sa: UserInfo = who('system:serviceaccount:ns:sa|system:serviceaccounts');
  it.each([
    [resourceAttributes({ user: alice, verb: 'get', apiGroup: 'batch', resource: 'jobs', namespace: 'default', name: 'pi' }), 'User "alice" cannot get resource "jobs" in API group "batch" in the namespace "default"'],
    [resourceAttributes({ user: alice, verb: 'list', resource: 'nodes' }), 'User "alice" cannot list resource "nodes" in API group "" at the cluster scope'],
    [resourceAttributes({ user: alice, verb: 'create', resource: 'pods', subresource: 'exec', namespace: 'default', name: 'web' }), 'User "alice" cannot create resource "pods/exec" in API group "" in the namespace "default"'],
    [resourceAttributes({ user: alice, verb: 'update', apiGroup: 'apps', resource: 'daemonsets', subresource: 'status' }), 'User "alice" cannot update resource "daemonsets/status" in API group "apps" at the cluster scope'],
    [nonResourceAttributes({ user: alice, verb: 'get', path: '/healthz' }), 'User "alice" cannot get path "/healthz"'],
    [resourceAttributes({ user: sa, verb: 'list', resource: 'pods', namespace: 'ns' }), 'User "system:serviceaccount:ns:sa" cannot list resource "pods" in API group "" in the namespace "ns"'],
    [resourceAttributes({ user: who('system:anonymous'), verb: 'get', resource: 'namespaces', name: 'x' }), 'User "system:anonymous" cannot get resource "namespaces" in API group "" at the cluster scope'],
  ])('%#', (attrs, message) => {
    expect(forbiddenMessage(attrs)).toBe(message);
  });

  it.each([
    [
      resourceAttributes({ user: alice, verb: 'get', apiGroup: 'batch', resource: 'jobs', namespace: 'default', name: 'pi' }),
      '',
      'jobs.batch "pi" is forbidden: User "alice" cannot get resource "jobs" in API group "batch" in the namespace "default"',
    ],
    [
      resourceAttributes({ user: alice, verb: 'list', resource: 'pods', namespace: 'default' }),
      'RBAC: clusterrole.rbac.authorization.platform.io "gone" not found',
      'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default": RBAC: clusterrole.rbac.authorization.platform.io "gone" not found',
    ],
    [
      resourceAttributes({ user: alice, verb: 'create', resource: 'pods', subresource: 'exec', namespace: 'default', name: 'web' }),
      '',
      'pods "web" is forbidden: User "alice" cannot create resource "pods/exec" in API group "" in the namespace "default"',
    ],
    [nonResourceAttributes({ user: alice, verb: 'get', path: '/healthz' }), '', 'forbidden: User "alice" cannot get path "/healthz"'],
    [nonResourceAttributes({ user: alice, verb: 'get', path: '/<b>&' }), '', 'forbidden: User "alice" cannot get path "/&lt;b&gt;&amp;"'],
  ])('forbiddenError %#', (attrs, reason, message) => {
    const err = forbiddenError(attrs, reason);
    expect(err.code).toBe(403);
    expect(err.reason).toBe('Forbidden');
    expect(err.message).toBe(message);
  });
});

describe('rulesReview', () => {
  const policy = new RbacPolicy({
    roles: [role('team', 'cm', { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'] })],
    clusterRoles: [clusterRole('discovery', rule('get', '', '', '/api,/api/*')), clusterRole('both', rule('*', '*', '*', '*')), clusterRole('jobs', rule('list', 'batch', 'jobs'))],
    clusterRoleBindings: [clusterRoleBinding('discovery', 'discovery', 'Group:system:authenticated'), clusterRoleBinding('missing', 'nope', 'User:alice')],
    roleBindings: [
      roleBinding('team', 'cm', 'Role:cm', 'User:alice'),
      roleBinding('team', 'jobs', 'ClusterRole:jobs', 'User:alice'),
      roleBinding('other', 'both', 'ClusterRole:both', 'User:alice'),
    ],
  });

  it('lists the rules of ClusterRoleBindings and of the namespace, with errors as evaluationError', () => {
    expect(rulesReview(policy, who('alice|system:authenticated'), 'team')).toEqual({
      resourceRules: [
        { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'] },
        { verbs: ['list'], apiGroups: ['batch'], resources: ['jobs'] },
      ],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/api', '/api/*'] }],
      incomplete: false,
      evaluationError: 'clusterrole.rbac.authorization.platform.io "nope" not found',
    });
  });

  it('puts a rule with resources and URLs in both lists, and leaves evaluationError out without errors', () => {
    const status = rulesReview(policy, who('bob'), 'other');
    expect(status).toEqual({ resourceRules: [], nonResourceRules: [], incomplete: false });
    const alice = rulesReview(new RbacPolicy({ clusterRoles: [clusterRole('both', rule('*', '*', '*', '*'))], roleBindings: [roleBinding('other', 'both', 'ClusterRole:both', 'User:alice')] }), who('alice'), 'other');
    expect(alice).toEqual({
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    });
  });
});
