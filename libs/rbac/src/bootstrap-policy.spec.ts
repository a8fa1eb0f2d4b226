// After plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy_test.go and its golden files:
// the default roles' metadata and shapes, and what the default identities may do with them.
import { pendingAggregations } from './aggregation';
import { nonResourceAttributes, resourceAttributes, UserInfo } from './attributes';
import { authorize } from './authorizer';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles, bootstrapPolicy, bootstrapRoleBindings, bootstrapRoles, nodeRules } from './bootstrap-policy';
import { controllerRoles, controllerUsername } from './controller-policy';
import { RbacPolicy } from './policy-store';
import { roleBinding, who } from './spec-fixtures';
import { ClusterRole } from './types';

function aggregatedPolicy(): RbacPolicy {
  const policy = new RbacPolicy(bootstrapPolicy());
  for (let i = 0; i < 5; i++) {
    const pending = pendingAggregations(policy.listClusterRoles());
    if (pending.length === 0) return policy;
    for (const p of pending) if ('rules' in p) policy.update({ ...(policy.getClusterRole(p.name) as ClusterRole), rules: p.rules });
  }
  throw new Error('aggregation did not converge');
}

describe('bootstrap objects', () => {
  it('lists the default roles, the other components\' and the controllers Plinth runs', () => {
    expect(bootstrapClusterRoles().map((r) => r.metadata.name)).toEqual([
      'cluster-admin',
      'system:discovery',
      'system:monitoring',
      'system:basic-user',
      'system:public-info-viewer',
      'admin',
      'edit',
      'view',
      'system:aggregate-to-admin',
      'system:aggregate-to-edit',
      'system:aggregate-to-view',
      'system:node',
      'system:kube-controller-manager',
      'system:node-simulator',
      'system:heapster',
      'system:node-problem-detector',
      'system:kubelet-api-admin',
      'system:node-bootstrapper',
      'system:auth-delegator',
      'system:kube-aggregator',
      'system:kube-dns',
      'system:persistent-volume-provisioner',
      'system:certificates.platform.io:certificatesigningrequests:nodeclient',
      'system:certificates.platform.io:certificatesigningrequests:selfnodeclient',
      'system:volume-scheduler',
      'system:certificates.platform.io:legacy-unknown-approver',
      'system:certificates.platform.io:kubelet-serving-approver',
      'system:certificates.platform.io:kube-apiserver-client-approver',
      'system:certificates.platform.io:kube-apiserver-client-kubelet-approver',
      'system:service-account-issuer-discovery',
      'system:node-proxier',
      'system:kube-scheduler',
      'system:controller:clusterrole-aggregation-controller',
      'system:controller:daemon-set-controller',
      'system:controller:generic-garbage-collector',
      'system:controller:job-controller',
      'system:controller:namespace-controller',
      'system:controller:service-account-controller',
      'system:controller:ttl-after-finished-controller',
    ]);
  });

  it('labels and annotates every object, and every binding names a bootstrap role', () => {
    const roles = new Set(bootstrapClusterRoles().map((r) => r.metadata.name));
    for (const obj of [...bootstrapClusterRoles(), ...bootstrapClusterRoleBindings()]) {
      expect(obj.apiVersion).toBe('rbac.authorization.platform.io/v1');
      expect(obj.metadata.labels).toMatchObject({ 'platform.io/bootstrapping': 'rbac-defaults' });
      expect(obj.metadata.annotations).toEqual({ 'rbac.authorization.platform.io/autoupdate': 'true' });
    }
    for (const b of bootstrapClusterRoleBindings()) {
      expect(b.roleRef).toEqual({ apiGroup: 'rbac.authorization.platform.io', kind: 'ClusterRole', name: b.metadata.name });
      expect(roles.has(b.roleRef.name)).toBe(true);
    }
  });

  it('binds as Kubernetes does', () => {
    const subjects = Object.fromEntries(bootstrapClusterRoleBindings().map((b) => [b.metadata.name, b.subjects]));
    expect(subjects['cluster-admin']).toEqual([{ kind: 'Group', apiGroup: 'rbac.authorization.platform.io', name: 'system:masters' }]);
    expect(subjects['system:monitoring']).toEqual([{ kind: 'Group', apiGroup: 'rbac.authorization.platform.io', name: 'system:monitoring' }]);
    expect(subjects['system:discovery']).toEqual([{ kind: 'Group', apiGroup: 'rbac.authorization.platform.io', name: 'system:authenticated' }]);
    expect(subjects['system:basic-user']).toEqual([{ kind: 'Group', apiGroup: 'rbac.authorization.platform.io', name: 'system:authenticated' }]);
    expect(subjects['system:public-info-viewer']).toEqual([
      { kind: 'Group', apiGroup: 'rbac.authorization.platform.io', name: 'system:authenticated' },
      { kind: 'Group', apiGroup: 'rbac.authorization.platform.io', name: 'system:unauthenticated' },
    ]);
    expect(subjects['system:node']).toEqual([{ kind: 'Group', apiGroup: 'rbac.authorization.platform.io', name: 'system:nodes' }]);
    expect(subjects['system:kube-controller-manager']).toEqual([{ kind: 'User', apiGroup: 'rbac.authorization.platform.io', name: 'system:kube-controller-manager' }]);
    expect(subjects['system:node-simulator']).toEqual([{ kind: 'ServiceAccount', name: 'node-simulator', namespace: 'kube-system' }]);
    expect(subjects['system:controller:job-controller']).toEqual([{ kind: 'ServiceAccount', name: 'job-controller', namespace: 'kube-system' }]);
    expect(subjects['system:node-proxier']).toEqual([{ kind: 'User', apiGroup: 'rbac.authorization.platform.io', name: 'system:kube-proxy' }]);
    expect(subjects['system:kube-scheduler']).toEqual([{ kind: 'User', apiGroup: 'rbac.authorization.platform.io', name: 'system:kube-scheduler' }]);
    expect(subjects['system:volume-scheduler']).toEqual([{ kind: 'User', apiGroup: 'rbac.authorization.platform.io', name: 'system:kube-scheduler' }]);
    expect(subjects['system:kube-dns']).toEqual([{ kind: 'ServiceAccount', name: 'kube-dns', namespace: 'kube-system' }]);
    expect(subjects['system:service-account-issuer-discovery']).toEqual([{ kind: 'Group', apiGroup: 'rbac.authorization.platform.io', name: 'system:serviceaccounts' }]);
  });

  it('writes the Roles of kube-system and their bindings as Kubernetes does', () => {
    expect(bootstrapRoles().map((r) => [r.metadata.namespace, r.metadata.name, r.rules])).toEqual([
      ['kube-system', 'extension-apiserver-authentication-reader', [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['extension-apiserver-authentication'] }]],
      [
        'kube-system',
        'system::leader-locking-kube-controller-manager',
        [
          { verbs: ['watch'], apiGroups: [''], resources: ['configmaps'] },
          { verbs: ['get', 'update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['kube-controller-manager'] },
        ],
      ],
      [
        'kube-system',
        'system::leader-locking-kube-scheduler',
        [
          { verbs: ['watch'], apiGroups: [''], resources: ['configmaps'] },
          { verbs: ['get', 'update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['kube-scheduler'] },
        ],
      ],
    ]);
    const reader = bootstrapRoleBindings().find((b) => b.metadata.name === 'system::extension-apiserver-authentication-reader');
    expect(reader?.roleRef).toEqual({ apiGroup: 'rbac.authorization.platform.io', kind: 'Role', name: 'extension-apiserver-authentication-reader' });
    expect(reader?.subjects).toEqual([
      { kind: 'User', apiGroup: 'rbac.authorization.platform.io', name: 'system:kube-controller-manager' },
      { kind: 'User', apiGroup: 'rbac.authorization.platform.io', name: 'system:kube-scheduler' },
    ]);
    const scheduler = bootstrapRoleBindings().find((b) => b.metadata.name === 'system::leader-locking-kube-scheduler');
    expect(scheduler?.metadata).toMatchObject({ namespace: 'kube-system', labels: { 'platform.io/bootstrapping': 'rbac-defaults' } });
    expect(scheduler?.subjects).toEqual([
      { kind: 'User', apiGroup: 'rbac.authorization.platform.io', name: 'system:kube-scheduler' },
      { kind: 'ServiceAccount', name: 'kube-scheduler', namespace: 'kube-system' },
    ]);
  });

  // As a kube-apiserver 1.28 writes them (read from one, group names renamed).
  it('writes the other components\' roles as Kubernetes does', () => {
    const byName = Object.fromEntries(bootstrapClusterRoles().map((r) => [r.metadata.name, r.rules]));
    expect(byName['system:certificates.platform.io:kubelet-serving-approver']).toEqual([
      { verbs: ['approve'], apiGroups: ['certificates.platform.io'], resources: ['signers'], resourceNames: ['platform.io/kubelet-serving'] },
    ]);
    expect(byName['system:service-account-issuer-discovery']).toEqual([
      { verbs: ['get'], nonResourceURLs: ['/.well-known/openid-configuration', '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/'] },
    ]);
    expect(byName['system:node-proxier']).toEqual([
      { verbs: ['list', 'watch'], apiGroups: [''], resources: ['endpoints', 'services'] },
      { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['nodes'] },
      { verbs: ['create', 'patch', 'update'], apiGroups: ['', 'events.platform.io'], resources: ['events'] },
      { verbs: ['list', 'watch'], apiGroups: ['discovery.platform.io'], resources: ['endpointslices'] },
    ]);
    expect(byName['system:kube-scheduler']?.slice(0, 6)).toEqual([
      { verbs: ['create', 'patch', 'update'], apiGroups: ['', 'events.platform.io'], resources: ['events'] },
      { verbs: ['create'], apiGroups: ['coordination.platform.io'], resources: ['leases'] },
      { verbs: ['get', 'update'], apiGroups: ['coordination.platform.io'], resources: ['leases'], resourceNames: ['kube-scheduler'] },
      { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['nodes'] },
      { verbs: ['delete', 'get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] },
      { verbs: ['create'], apiGroups: [''], resources: ['bindings', 'pods/binding'] },
    ]);
  });

  it('writes rules as NewRule does: sorted sets', () => {
    const byName = Object.fromEntries(bootstrapClusterRoles().map((r) => [r.metadata.name, r]));
    expect(byName['cluster-admin'].rules).toEqual([
      { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
      { verbs: ['*'], nonResourceURLs: ['*'] },
    ]);
    expect(byName['system:basic-user'].rules).toEqual([
      { verbs: ['create'], apiGroups: ['authorization.platform.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] },
      { verbs: ['create'], apiGroups: ['authentication.platform.io'], resources: ['selfsubjectreviews'] },
    ]);
    expect(byName['system:discovery'].rules).toEqual([
      { verbs: ['get'], nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'] },
    ]);
    expect(byName['system:controller:job-controller'].rules).toEqual([
      { verbs: ['get', 'list', 'patch', 'update', 'watch'], apiGroups: ['batch'], resources: ['jobs'] },
      { verbs: ['update'], apiGroups: ['batch'], resources: ['jobs/status'] },
      { verbs: ['update'], apiGroups: ['batch'], resources: ['jobs/finalizers'] },
      { verbs: ['create', 'delete', 'list', 'patch', 'watch'], apiGroups: [''], resources: ['pods'] },
      { verbs: ['create', 'patch', 'update'], apiGroups: ['', 'events.platform.io'], resources: ['events'] },
    ]);
    expect(byName.admin).toEqual({
      apiVersion: 'rbac.authorization.platform.io/v1',
      kind: 'ClusterRole',
      metadata: {
        name: 'admin',
        labels: { 'platform.io/bootstrapping': 'rbac-defaults' },
        annotations: { 'rbac.authorization.platform.io/autoupdate': 'true' },
      },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.platform.io/aggregate-to-admin': 'true' } }] },
    });
    expect(byName.edit.metadata.labels).toEqual({ 'rbac.authorization.platform.io/aggregate-to-admin': 'true', 'platform.io/bootstrapping': 'rbac-defaults' });
    expect(nodeRules()).toContainEqual({ verbs: ['get', 'list', 'watch'], apiGroups: ['node.platform.io'], resources: ['runtimeclasses'] });
    expect(controllerRoles()).toHaveLength(7);
  });

  it('returns new objects each time', () => {
    const a = bootstrapClusterRoles();
    a[0].rules!.length = 0;
    expect(bootstrapClusterRoles()[0].rules).toHaveLength(2);
  });
});

describe('the default identities', () => {
  const policy = aggregatedPolicy();
  policy.add(roleBinding('team', 'viewers', 'ClusterRole:view', 'User:vera'));
  policy.add(roleBinding('team', 'editors', 'ClusterRole:edit', 'User:ed'));
  policy.add(roleBinding('team', 'admins', 'ClusterRole:admin', 'User:ada'));

  const masters = who('root|system:masters,system:authenticated');
  const authenticated = who('alice|system:authenticated');
  const anonymous = who('system:anonymous|system:unauthenticated');
  const node = who('system:node:n1|system:nodes,system:authenticated');
  const controller = (name: string): UserInfo => who(`${controllerUsername(name)}|system:serviceaccounts,system:serviceaccounts:kube-system,system:authenticated`);

  type Check = [string, UserInfo, string, string, string, string, string?, string?];
  // [label, user, verb, group, resource[/sub], namespace, name]
  const resource: Check[] = [
    ['masters do anything', masters, 'delete', 'batch', 'jobs', 'team', 'pi', 'Allow'],
    ['anyone authenticated reviews their own access', authenticated, 'create', 'authorization.platform.io', 'selfsubjectaccessreviews', '', '', 'Allow'],
    ['and their rules', authenticated, 'create', 'authorization.platform.io', 'selfsubjectrulesreviews', '', '', 'Allow'],
    ['and who they are', authenticated, 'create', 'authentication.platform.io', 'selfsubjectreviews', '', '', 'Allow'],
    ['but may not review others', authenticated, 'create', 'authorization.platform.io', 'subjectaccessreviews', '', '', 'NoOpinion'],
    ['nor list pods', authenticated, 'list', '', 'pods', 'team', '', 'NoOpinion'],
    ['anonymous users may not review their access', anonymous, 'create', 'authorization.platform.io', 'selfsubjectaccessreviews', '', '', 'NoOpinion'],
    ['view reads pods', who('vera'), 'list', '', 'pods', 'team', '', 'Allow'],
    ['view reads jobs/status', who('vera'), 'get', 'batch', 'jobs/status', 'team', 'pi', 'Allow'],
    ['view reads its namespace', who('vera'), 'get', '', 'namespaces', 'team', 'team', 'Allow'],
    ['view does not read secrets', who('vera'), 'get', '', 'secrets', 'team', 's', 'NoOpinion'],
    ['view does not write', who('vera'), 'create', '', 'pods', 'team', '', 'NoOpinion'],
    ['view is for its namespace only', who('vera'), 'list', '', 'pods', 'other', '', 'NoOpinion'],
    ['edit writes jobs', who('ed'), 'create', 'batch', 'jobs', 'team', '', 'Allow'],
    ['edit reads secrets', who('ed'), 'get', '', 'secrets', 'team', 's', 'Allow'],
    ['edit execs into pods', who('ed'), 'create', '', 'pods/exec', 'team', 'p', 'Allow'],
    ['edit writes leases', who('ed'), 'update', 'coordination.platform.io', 'leases', 'team', 'l', 'Allow'],
    ['edit does not write roles', who('ed'), 'create', 'rbac.authorization.platform.io', 'roles', 'team', '', 'NoOpinion'],
    ['admin writes roles', who('ada'), 'create', 'rbac.authorization.platform.io', 'roles', 'team', '', 'Allow'],
    ['admin writes rolebindings', who('ada'), 'delete', 'rbac.authorization.platform.io', 'rolebindings', 'team', 'x', 'Allow'],
    ['admin reviews access in the namespace', who('ada'), 'create', 'authorization.platform.io', 'localsubjectaccessreviews', 'team', '', 'Allow'],
    ['admin does not escalate', who('ada'), 'escalate', 'rbac.authorization.platform.io', 'roles', 'team', 'x', 'NoOpinion'],
    ['the job controller creates pods', controller('job-controller'), 'create', '', 'pods', 'team', '', 'Allow'],
    ['and updates job status', controller('job-controller'), 'update', 'batch', 'jobs/status', 'team', 'pi', 'Allow'],
    ['but does not delete jobs', controller('job-controller'), 'delete', 'batch', 'jobs', 'team', 'pi', 'NoOpinion'],
    ['the daemon set controller writes revisions', controller('daemon-set-controller'), 'create', 'apps', 'controllerrevisions', 'kube-system', '', 'Allow'],
    ['and lists nodes', controller('daemon-set-controller'), 'list', '', 'nodes', '', '', 'Allow'],
    ['and binds pods', controller('daemon-set-controller'), 'create', '', 'pods/binding', 'team', 'p', 'Allow'],
    ['the ttl controller deletes jobs', controller('ttl-after-finished-controller'), 'delete', 'batch', 'jobs', 'team', 'pi', 'Allow'],
    ['the garbage collector deletes anything', controller('generic-garbage-collector'), 'delete', 'example.com', 'widgets', 'team', 'w', 'Allow'],
    ['but does not create', controller('generic-garbage-collector'), 'create', '', 'pods', 'team', '', 'NoOpinion'],
    ['the service-account controller creates service accounts', controller('service-account-controller'), 'create', '', 'serviceaccounts', 'team', '', 'Allow'],
    ['but may not delete them', controller('service-account-controller'), 'delete', '', 'serviceaccounts', 'team', 'default', 'NoOpinion'],
    ['the namespace controller finalizes namespaces', controller('namespace-controller'), 'update', '', 'namespaces/finalize', '', 'team', 'Allow'],
    ['and deletes collections', controller('namespace-controller'), 'deletecollection', 'batch', 'jobs', 'team', '', 'Allow'],
    ['the aggregation controller escalates cluster roles', controller('clusterrole-aggregation-controller'), 'escalate', 'rbac.authorization.platform.io', 'clusterroles', '', 'admin', 'Allow'],
    ['a controller of another namespace is no one', who('system:serviceaccount:default:job-controller'), 'create', '', 'pods', 'team', '', 'NoOpinion'],
    ['nodes report status', node, 'patch', '', 'nodes/status', '', 'n1', 'Allow'],
    ['nodes update pod status', node, 'update', '', 'pods/status', 'team', 'p', 'Allow'],
    ['nodes renew leases', node, 'update', 'coordination.platform.io', 'leases', 'kube-node-lease', 'n1', 'Allow'],
    ['nodes read runtime classes', node, 'list', 'node.platform.io', 'runtimeclasses', '', '', 'Allow'],
    ['nodes do not delete nodes', node, 'delete', '', 'nodes', '', 'n2', 'NoOpinion'],
  ];

  it.each(resource)('%s', (_label, user, verb, apiGroup, res, namespace, name, decision) => {
    const [r, sub = ''] = res.split('/');
    expect(authorize(policy, resourceAttributes({ user, verb, apiGroup, resource: r, subresource: sub, namespace, name: name ?? '' })).decision).toBe(decision);
  });

  it.each<[string, UserInfo, string, 'Allow' | 'NoOpinion']>([
    ['masters', masters, '/metrics', 'Allow'],
    ['authenticated', authenticated, '/apis/batch/v1', 'Allow'],
    ['authenticated', authenticated, '/openapi/v3', 'Allow'],
    ['authenticated', authenticated, '/version/', 'Allow'],
    ['authenticated', authenticated, '/metrics', 'NoOpinion'],
    ['anonymous', anonymous, '/healthz', 'Allow'],
    ['anonymous', anonymous, '/livez', 'Allow'],
    ['anonymous', anonymous, '/readyz', 'Allow'],
    ['anonymous', anonymous, '/version', 'Allow'],
    ['anonymous', anonymous, '/api', 'NoOpinion'],
    ['anonymous', anonymous, '/healthz/etcd', 'NoOpinion'],
  ])('%s get %s', (_who, user, path, decision) => {
    expect(authorize(policy, nonResourceAttributes({ user, verb: 'get', path })).decision).toBe(decision);
  });

  it('says which binding allowed', () => {
    expect(authorize(policy, nonResourceAttributes({ user: anonymous, verb: 'get', path: '/healthz' })).reason).toBe(
      'RBAC: allowed by ClusterRoleBinding "system:public-info-viewer" of ClusterRole "system:public-info-viewer" to Group "system:unauthenticated"',
    );
    expect(authorize(policy, resourceAttributes({ user: controller('job-controller'), verb: 'create', resource: 'pods', namespace: 'team' })).reason).toBe(
      'RBAC: allowed by ClusterRoleBinding "system:controller:job-controller" of ClusterRole "system:controller:job-controller" to ServiceAccount "job-controller/kube-system"',
    );
  });
});
