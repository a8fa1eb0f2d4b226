// Authentication, impersonation, RBAC authorization, the access reviews and TokenRequest, over
// HTTP against the real pipeline with the in-process authorizer.
import { startTestApiServer, testTokens } from '@plinth/testing-server';
import { ApiRequest, client, suiteServer } from './http';
import { eventually } from '@plinth/testing';

describe('API server: authentication and authorization', () => {
  const server = suiteServer();
  const admin = server.request;
  let alice: ApiRequest;
  let bob: ApiRequest;

  beforeAll(async () => {
    alice = client(server.url, testTokens.alice);
    bob = client(server.url, testTokens.bob);
    await admin('POST', '/api/v1/namespaces', { body: { metadata: { name: 'team' } } });
  });

  // As kube-apiserver's default --anonymous-auth=true: no credentials is system:anonymous, whom
  // the bootstrap policy lets read only the health and version endpoints.
  it('answers a request without credentials as system:anonymous (403), and one with a bad token 401', async () => {
    const none = await client(server.url, null)('GET', '/api/v1/namespaces');
    expect(none.status).toBe(403);
    expect(none.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
      reason: 'Forbidden',
      details: { kind: 'namespaces' },
      code: 403,
    });
    // responsewriters.Forbidden marks its refusal nosniff; the 401 goes without.
    expect(none.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await client(server.url, null)('GET', '/version')).status).toBe(200);
    const wrong = await client(server.url, 'wrong')('GET', '/api/v1/namespaces');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('x-content-type-options')).toBeNull();
    expect(wrong.headers.get('cache-control')).toBe('no-cache, private');
    expect(wrong.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  });

  it('forbids what no binding grants, with Kubernetes\' message', async () => {
    const res = await alice('GET', '/apis/batch/v1/namespaces/default/jobs/x');
    expect(res.status).toBe(403);
    expect(res.json.reason).toBe('Forbidden');
    expect(res.json.message).toBe('jobs.batch "x" is forbidden: User "alice" cannot get resource "jobs" in API group "batch" in the namespace "default"');
    const list = await alice('GET', '/api/v1/namespaces');
    expect(list.json.message).toBe('namespaces is forbidden: User "alice" cannot list resource "namespaces" in API group "" at the cluster scope');
  });

  it('grants through a RoleBinding only in its namespace', async () => {
    await admin('POST', '/apis/rbac.authorization.platform.io/v1/namespaces/team/roles', {
      body: { metadata: { name: 'pod-reader' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }] },
    });
    await admin('POST', '/apis/rbac.authorization.platform.io/v1/namespaces/team/rolebindings', {
      body: {
        metadata: { name: 'alice-reads' },
        roleRef: { apiGroup: 'rbac.authorization.platform.io', kind: 'Role', name: 'pod-reader' },
        subjects: [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.platform.io' }],
      },
    });
    await eventually(() => alice('GET', '/api/v1/namespaces/team/pods'), { until: (answer) => answer.status === 200, what: 'alice may list pods in team' });
    expect((await alice('GET', '/api/v1/namespaces/default/pods')).status).toBe(403);
    expect((await alice('POST', '/api/v1/namespaces/team/pods', { body: { metadata: { name: 'p' } } })).status).toBe(403);
  });

  it('tells users who they are with SelfSubjectReview, in v1 and through the k8s.io alias', async () => {
    const res = await alice('POST', '/apis/authentication.platform.io/v1/selfsubjectreviews', { body: {} });
    expect(res.status).toBe(201);
    expect(res.json.status.userInfo).toEqual({ username: 'alice', uid: 'alice-uid', groups: ['developers', 'system:authenticated'] });
    const alias = await bob('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { body: {} });
    expect(alias.json.apiVersion).toBe('authentication.k8s.io/v1');
    expect(alias.json.status.userInfo.username).toBe('bob');
  });

  it('answers access reviews; anyone may review themself', async () => {
    const self = await bob('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      body: { spec: { resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'team' } } },
    });
    expect(self.status).toBe(201);
    expect(self.json.status.allowed).toBe(false);
    const sar = await admin('POST', '/apis/authorization.platform.io/v1/subjectaccessreviews', {
      body: { spec: { user: 'alice', resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'team' } } },
    });
    expect(sar.json.status.allowed).toBe(true);
    expect(sar.json.status.reason).toBe('RBAC: allowed by RoleBinding "alice-reads/team" of Role "pod-reader" to User "alice"');
    expect((await bob('POST', '/apis/authorization.platform.io/v1/subjectaccessreviews', { body: { spec: { user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods' } } } })).status).toBe(403);
    const mismatch = await admin('POST', '/apis/authorization.platform.io/v1/namespaces/team/localsubjectaccessreviews', {
      body: { metadata: { namespace: 'other' }, spec: { user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'other' } } },
    });
    expect(mismatch.status).toBe(400);
    const rules = await alice('POST', '/apis/authorization.platform.io/v1/selfsubjectrulesreviews', { body: { spec: { namespace: 'team' } } });
    expect(rules.status).toBe(201);
    expect(rules.json.status.resourceRules).toContainEqual({ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] });
    expect(rules.json.status.incomplete).toBe(false);
  });

  it('checks impersonation with the impersonate verb', async () => {
    const asAlice = await admin('POST', '/apis/authentication.platform.io/v1/selfsubjectreviews', { body: {}, headers: { 'impersonate-user': 'alice', 'impersonate-group': 'qa' } });
    expect(asAlice.json.status.userInfo).toEqual({ username: 'alice', groups: ['qa', 'system:authenticated'] });
    const denied = await bob('GET', '/api/v1/namespaces', { headers: { 'impersonate-user': 'alice' } });
    expect(denied.status).toBe(403);
    expect(denied.json.message).toBe('users "alice" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope');
  });

  it('refuses to impersonate a group without a user in plain text, as kube-apiserver\'s impersonation filter', async () => {
    const refused = await admin('GET', '/api/v1/namespaces/team?pretty=1', { headers: { 'impersonate-group': '<qa&dev>' } });
    expect(refused.status).toBe(500);
    expect(refused.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(refused.text).toBe('Internal Server Error: "/api/v1/namespaces/team?pretty=1": requested [{Group  &lt;qa&amp;dev&gt;    }] without impersonating a user\n');
  });

  it('issues service-account tokens that authenticate as the service account', async () => {
    await admin('POST', '/api/v1/namespaces/team/serviceaccounts', { body: { metadata: { name: 'robot' } } });
    const issued = await admin('POST', '/api/v1/namespaces/team/serviceaccounts/robot/token', { body: { spec: {} } });
    expect(issued.status).toBe(201);
    expect(issued.json.kind).toBe('TokenRequest');
    expect(issued.json.spec.expirationSeconds).toBe(3600);
    const robot = client(server.url, issued.json.status.token);
    const who = await robot('POST', '/apis/authentication.platform.io/v1/selfsubjectreviews', { body: {} });
    expect(who.json.status.userInfo.username).toBe('system:serviceaccount:team:robot');
    expect(who.json.status.userInfo.groups).toEqual(['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated']);
  });

  it('answers a TokenRequest as the token REST does: its time, its managed fields, a bound pod looked up', async () => {
    await admin('POST', '/api/v1/namespaces/team/serviceaccounts', { body: { metadata: { name: 'minted' } } });
    const token = (body: unknown) => admin('POST', '/api/v1/namespaces/team/serviceaccounts/minted/token?fieldManager=minter', { body });
    const issued = await token({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['a'] } });
    expect([issued.status, typeof issued.json.metadata.creationTimestamp]).toEqual([201, 'string']);
    expect(issued.json.metadata.managedFields).toEqual([
      expect.objectContaining({ manager: 'minter', operation: 'Update', subresource: 'token', fieldsV1: { 'f:spec': { 'f:audiences': {}, 'f:expirationSeconds': {} } } }),
    ]);
    const unbound = await token({ spec: { expirationSeconds: 60, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'nopod' } } });
    expect([unbound.status, unbound.json.message]).toEqual([422, 'TokenRequest.authentication.platform.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes']);
    const missing = await token({ spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'nopod' } } });
    expect([missing.status, missing.json.message]).toEqual([404, 'pods "nopod" not found']);
    const otherKind = await token({ apiVersion: 'v1', kind: 'Pod' });
    expect([otherKind.status, otherKind.json.message]).toEqual([400, 'Pod in version "v1" cannot be handled as a TokenRequest: converting (v1.Pod) to (authentication.TokenRequest): unknown conversion']);
    const read = await admin('GET', '/api/v1/namespaces/team/serviceaccounts/minted/token');
    expect([read.status, read.json.reason]).toEqual([405, 'MethodNotAllowed']);
  });

  it('aggregates ClusterRoles into view', async () => {
    await admin('POST', '/apis/rbac.authorization.platform.io/v1/clusterroles', {
      body: {
        metadata: { name: 'widgets-view', labels: { 'rbac.authorization.platform.io/aggregate-to-view': 'true' } },
        rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get'] }],
      },
    });
    await eventually(() => admin('GET', '/apis/rbac.authorization.platform.io/v1/clusterroles/view'), {
      until: (view) => JSON.stringify(view.json.rules).includes('{"apiGroups":["example.com"],"resources":["widgets"],"verbs":["get"]}'),
      what: 'widgets aggregated into view',
    });
  });

  // The bootstrap policy is written as kube-apiserver's post-start hook writes it (an Update by
  // kube-apiserver), and an aggregated role's rules by the aggregation controller's forced apply.
  it('records who wrote the bootstrap policy and the aggregated rules in managedFields', async () => {
    const clusterAdmin = await admin('GET', '/apis/rbac.authorization.platform.io/v1/clusterroles/cluster-admin');
    expect(clusterAdmin.json.metadata.managedFields.map(({ time: _, ...entry }: Record<string, unknown>) => entry)).toEqual([
      {
        manager: 'kube-apiserver',
        operation: 'Update',
        apiVersion: 'rbac.authorization.platform.io/v1',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': { 'f:annotations': { '.': {}, 'f:rbac.authorization.platform.io/autoupdate': {} }, 'f:labels': { '.': {}, 'f:platform.io/bootstrapping': {} } },
          'f:rules': {},
        },
      },
    ]);
    const view = await eventually(() => admin('GET', '/apis/rbac.authorization.platform.io/v1/clusterroles/view'), {
      until: (answer) => answer.json.metadata.managedFields?.length === 2,
      what: 'the aggregated rules of view recorded',
    });
    expect(view.json.metadata.managedFields.map(({ manager, operation }: Record<string, unknown>) => `${operation} ${manager}`)).toEqual([
      'Apply clusterrole-aggregation-controller',
      'Update kube-apiserver',
    ]);
    expect(view.json.metadata.managedFields[0].fieldsV1).toEqual({ 'f:rules': {} });
    const lock = await admin('GET', '/apis/rbac.authorization.platform.io/v1/namespaces/kube-system/roles/system::leader-locking-kube-scheduler');
    expect(lock.status).toBe(200);
    expect(lock.json.metadata.managedFields.map(({ manager, operation }: Record<string, unknown>) => `${operation} ${manager}`)).toEqual(['Update kube-apiserver']);
  });
});

describe('API server: RBAC escalation prevention', () => {
  it('needs the permissions a role grants (or escalate), and the role a binding binds (or bind)', async () => {
    const server = await startTestApiServer();
    const admin = client(server.url);
    const alice = client(server.url, testTokens.alice);
    try {
      await admin('POST', '/api/v1/namespaces', { body: { metadata: { name: 'esc' } } });
      await admin('POST', '/apis/rbac.authorization.platform.io/v1/namespaces/esc/roles', {
        body: { metadata: { name: 'rbac-writer' }, rules: [{ apiGroups: ['rbac.authorization.platform.io'], resources: ['roles', 'rolebindings'], verbs: ['create'] }, { apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
      });
      await admin('POST', '/apis/rbac.authorization.platform.io/v1/namespaces/esc/rolebindings', {
        body: { metadata: { name: 'alice-rbac' }, roleRef: { apiGroup: 'rbac.authorization.platform.io', kind: 'Role', name: 'rbac-writer' }, subjects: [{ kind: 'User', name: 'alice' }] },
      });
      const held = { metadata: { name: 'readers' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] };
      await eventually(() => alice('POST', '/apis/rbac.authorization.platform.io/v1/namespaces/esc/roles', { body: held }), { until: (answer) => answer.status === 201, what: 'alice creating a role' });
      const escalating = await alice('POST', '/apis/rbac.authorization.platform.io/v1/namespaces/esc/roles', {
        body: { metadata: { name: 'deleters' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['delete'] }] },
      });
      expect(escalating.status).toBe(403);
      expect(escalating.json.message).toBe(
        'roles.rbac.authorization.platform.io "deleters" is forbidden: user "alice" (groups=["developers" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}',
      );
      const binding = await alice('POST', '/apis/rbac.authorization.platform.io/v1/namespaces/esc/rolebindings', {
        body: { metadata: { name: 'alice-admin' }, roleRef: { apiGroup: 'rbac.authorization.platform.io', kind: 'ClusterRole', name: 'admin' }, subjects: [{ kind: 'User', name: 'alice' }] },
      });
      expect(binding.status).toBe(403);
      expect(binding.json.message).toMatch(/^rolebindings\.rbac\.authorization\.platform\.io "alice-admin" is forbidden: user "alice" .* is attempting to grant RBAC permissions not currently held/);
      await admin('POST', '/apis/rbac.authorization.platform.io/v1/namespaces/esc/roles', {
        body: { metadata: { name: 'escalator' }, rules: [{ apiGroups: ['rbac.authorization.platform.io'], resources: ['roles'], verbs: ['escalate'] }] },
      });
      await admin('POST', '/apis/rbac.authorization.platform.io/v1/namespaces/esc/rolebindings', {
        body: { metadata: { name: 'alice-escalates' }, roleRef: { apiGroup: 'rbac.authorization.platform.io', kind: 'Role', name: 'escalator' }, subjects: [{ kind: 'User', name: 'alice' }] },
      });
      await eventually(() => alice('POST', '/apis/rbac.authorization.platform.io/v1/namespaces/esc/roles', { body: { metadata: { name: 'deleters' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['delete'] }] } }), {
        until: (answer) => answer.status === 201,
        what: 'alice escalating',
      });
    } finally {
      await server.stop();
    }
  });
});
