// The authorizer over a real nats-server: the same answers as in process, replicas sharing the
// load, the decision cache and its invalidation, and the failures a gateway turns into 500s.
import { connect, NatsConnection } from 'nats';
import { findBinary, freePort, natsBinary, NatsServer, RunningProcess, startNats, startProcess, waitForPort, eventually } from '@plinth/testing';
import {
  Attributes,
  authorize,
  AuthorizationResult,
  Authorizer,
  checkRoleEscalation,
  ClusterRole,
  ClusterRoleBinding,
  nonResourceAttributes,
  RbacPolicy,
  rbacApiVersion,
  rbacGroup,
  resourceAttributes,
  Role,
  RoleBinding,
  rulesReview,
  Subject,
  SubjectRulesReviewStatus,
  UserInfo,
} from '@plinth/rbac';
import { Registry } from '@plinth/metrics';
import { AuthorizerUnavailableError, AuthzLinkMetrics, encode, NatsAuthorizer, protocolVersion, publishPolicyChanged, subjectsFor } from '@plinth/authz-nats';
import { AuthorizerService, serveAuthorizer } from './serve-authorizer';

const user = (name: string, groups: string[] = [], extra: Record<string, string[]> = {}): UserInfo => ({ name, uid: `${name}-uid`, groups, extra });
const subject = (kind: 'User' | 'Group', name: string): Subject => ({ kind, apiGroup: rbacGroup, name });
const roleRef = (kind: 'Role' | 'ClusterRole', name: string) => ({ apiGroup: rbacGroup, kind, name });

const policyObjects = {
  clusterRoles: [
    { apiVersion: rbacApiVersion, kind: 'ClusterRole', metadata: { name: 'pod-reader' }, rules: [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] }] },
    { apiVersion: rbacApiVersion, kind: 'ClusterRole', metadata: { name: 'healthz' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez'] }] },
  ] as ClusterRole[],
  roles: [
    { apiVersion: rbacApiVersion, kind: 'Role', metadata: { namespace: 'team-a', name: 'job-editor' }, rules: [{ verbs: ['*'], apiGroups: ['batch'], resources: ['jobs', 'jobs/status'] }] },
  ] as Role[],
  clusterRoleBindings: [
    { apiVersion: rbacApiVersion, kind: 'ClusterRoleBinding', metadata: { name: 'readers' }, roleRef: roleRef('ClusterRole', 'pod-reader'), subjects: [subject('Group', 'readers')] },
    { apiVersion: rbacApiVersion, kind: 'ClusterRoleBinding', metadata: { name: 'health' }, roleRef: roleRef('ClusterRole', 'healthz'), subjects: [subject('Group', 'system:authenticated')] },
    { apiVersion: rbacApiVersion, kind: 'ClusterRoleBinding', metadata: { name: 'dangling' }, roleRef: roleRef('ClusterRole', 'missing'), subjects: [subject('User', 'carol')] },
  ] as ClusterRoleBinding[],
  roleBindings: [
    { apiVersion: rbacApiVersion, kind: 'RoleBinding', metadata: { namespace: 'team-a', name: 'alice-jobs' }, roleRef: roleRef('Role', 'job-editor'), subjects: [subject('User', 'alice')] },
  ] as RoleBinding[],
};

// localAuthorizer answers from an RbacPolicy in process: the reference the remote answers must equal.
function localAuthorizer(policy: RbacPolicy): Authorizer {
  return {
    authorize: async (attrs) => authorize(policy.snapshot(), attrs),
    rulesReview: async (u, namespace) => rulesReview(policy.snapshot(), u, namespace),
    checkRbacWrite: async (kind, u, object, old, namespace, requestName) =>
      kind === 'Role' ? checkRoleEscalation(policy.snapshot(), u, object as unknown as Role, { namespace, old: (old ?? undefined) as Role | undefined, requestName }) : null,
  };
}

// counting wraps an authorizer and counts the questions it is asked.
function counting(inner: Authorizer): Authorizer & { calls: number } {
  const counted = {
    calls: 0,
    authorize: (attrs: Attributes) => {
      counted.calls++;
      return inner.authorize(attrs);
    },
    rulesReview: (u: UserInfo, namespace: string) => {
      counted.calls++;
      return inner.rulesReview(u, namespace);
    },
    checkRbacWrite: (...args: Parameters<Authorizer['checkRbacWrite']>) => {
      counted.calls++;
      return inner.checkRbacWrite(...args);
    },
  };
  return counted;
}

describe('authorization over NATS', () => {
  let nats: NatsServer;
  const connections: NatsConnection[] = [];
  const open = async () => {
    const nc = await connect({ servers: nats.url });
    connections.push(nc);
    return nc;
  };
  let policy: RbacPolicy;
  let local: Authorizer;

  beforeAll(async () => {
    nats = await startNats();
    policy = new RbacPolicy(policyObjects);
    local = localAuthorizer(policy);
  });

  afterAll(async () => {
    await Promise.all(connections.map((nc) => nc.close()));
    await nats?.stop();
  });

  describe('answers as the local authorizer', () => {
    let service: AuthorizerService;
    let remote: NatsAuthorizer;

    beforeAll(async () => {
      service = await serveAuthorizer(await open(), local);
      remote = new NatsAuthorizer(await open(), { allowedTtlMs: 0, deniedTtlMs: 0 });
    });

    afterAll(async () => {
      remote.close();
      await service.stop();
    });

    const questions: [string, Attributes][] = [
      ['a group granted cluster-wide', resourceAttributes({ user: user('bob', ['readers']), verb: 'list', resource: 'pods' })],
      ['a group granted, in a namespace', resourceAttributes({ user: user('bob', ['readers']), verb: 'get', resource: 'pods', namespace: 'default', name: 'web' })],
      ['a verb the role lacks', resourceAttributes({ user: user('bob', ['readers']), verb: 'delete', resource: 'pods', namespace: 'default' })],
      ['a role bound in its namespace', resourceAttributes({ user: user('alice'), verb: 'create', apiGroup: 'batch', resource: 'jobs', namespace: 'team-a' })],
      ['a subresource the role names', resourceAttributes({ user: user('alice'), verb: 'update', apiGroup: 'batch', resource: 'jobs', subresource: 'status', namespace: 'team-a', name: 'pi' })],
      ['a role outside its namespace', resourceAttributes({ user: user('alice'), verb: 'create', apiGroup: 'batch', resource: 'jobs', namespace: 'team-b' })],
      ['a non-resource URL', nonResourceAttributes({ user: user('dave', ['system:authenticated']), verb: 'get', path: '/healthz' })],
      ['a non-resource URL not granted', nonResourceAttributes({ user: user('dave', ['system:authenticated']), verb: 'get', path: '/metrics' })],
      ['a binding to a missing role', resourceAttributes({ user: user('carol', [], { scopes: ['a', 'b'] }), verb: 'get', resource: 'pods', namespace: 'default' })],
      ['a user without bindings', resourceAttributes({ user: user('eve'), verb: 'get', resource: 'secrets', namespace: 'default' })],
    ];

    it.each(questions)('authorize: %s', async (_name, attrs) => {
      const expected = await local.authorize(attrs);
      expect(await remote.authorize(attrs)).toEqual(expected);
    });

    it('gives both decisions and the resolution errors among the answers above', async () => {
      const decisions = await Promise.all(questions.map(([, attrs]) => remote.authorize(attrs)));
      expect(new Set(decisions.map((d) => d.decision))).toEqual(new Set(['Allow', 'NoOpinion']));
      const carol = decisions[8];
      expect(carol.reason).toMatch(/^RBAC: clusterrole.* "missing" not found/);
      expect(carol.resolutionErrors).toHaveLength(1);
    });

    it.each([
      ['alice', 'team-a'],
      ['alice', 'team-b'],
      ['bob|readers', 'default'],
      ['carol', ''],
      ['dave|system:authenticated', ''],
    ])('rulesReview: %s in %j', async (who, namespace) => {
      const [name, groups] = who.split('|');
      const u = user(name, groups ? [groups] : []);
      const expected: SubjectRulesReviewStatus = await local.rulesReview(u, namespace);
      expect(await remote.rulesReview(u, namespace)).toEqual(expected);
    });

    it('checks RBAC escalation over NATS with the same answer as in process', async () => {
      const granting = { apiVersion: rbacApiVersion, kind: 'Role', metadata: { name: 'r', namespace: 'team-a' }, rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['delete'] }] };
      const held = { ...granting, rules: [] };
      const alice = user('alice');
      const expected = await local.checkRbacWrite('Role', alice, granting as never, null, 'team-a', '');
      expect(expected).not.toBeNull();
      const refused = await remote.checkRbacWrite('Role', alice, granting as never, null, 'team-a', '');
      expect(refused?.errStatus).toEqual(expected?.errStatus);
      expect(refused?.message).toMatch(/is attempting to grant RBAC permissions not currently held/);
      expect(await remote.checkRbacWrite('Role', alice, held as never, null, 'team-a', '')).toBeNull();
    });

    it('answers an authorizer failure with an error reply', async () => {
      const failing = await serveAuthorizer(
        await open(),
        {
          authorize: async () => {
            throw new Error('policy not loaded');
          },
          rulesReview: async () => {
            throw new Error('policy not loaded');
          },
          checkRbacWrite: async () => {
            throw new Error('policy not loaded');
          },
        },
        { subjectPrefix: 'failing' },
      );
      const client = new NatsAuthorizer(await open(), { subjectPrefix: 'failing' });
      try {
        await expect(client.authorize(questions[0][1])).rejects.toThrow('the authorization service failed: policy not loaded');
        await expect(client.rulesReview(user('x'), 'default')).rejects.toThrow('the authorization service failed: policy not loaded');
        const role = { apiVersion: 'rbac.authorization.platform.io/v1', kind: 'Role', metadata: { name: 'r', namespace: 'default' }, rules: [] };
        await expect(client.checkRbacWrite('Role', user('x'), role, null, 'default', '')).rejects.toThrow('the authorization service failed: policy not loaded');
      } finally {
        client.close();
        await failing.stop();
      }
    });

    it('refuses a request of another protocol version or shape by name', async () => {
      const nc = await open();
      const { authorize: subjectName } = subjectsFor();
      const other = await nc.request(subjectName, encode({ version: protocolVersion + 1, attributes: {} }), { timeout: 2000 });
      expect(JSON.parse(new TextDecoder().decode(other.data))).toEqual({
        version: protocolVersion,
        error: { message: `unsupported protocol version ${protocolVersion + 1}: this end speaks version ${protocolVersion}` },
      });
      const missing = await nc.request(subjectName, encode({ version: protocolVersion, attributes: { verb: 'get' } }), { timeout: 2000 });
      expect(JSON.parse(new TextDecoder().decode(missing.data))).toEqual({ version: protocolVersion, error: { message: 'attributes.user: required' } });
    });
  });

  it('spreads requests over the replicas of the queue group', async () => {
    const [a, b] = [counting(local), counting(local)];
    const replicas = [await serveAuthorizer(await open(), a), await serveAuthorizer(await open(), b)];
    const remote = new NatsAuthorizer(await open(), { allowedTtlMs: 0, deniedTtlMs: 0 });
    try {
      const attrs = resourceAttributes({ user: user('bob', ['readers']), verb: 'get', resource: 'pods', namespace: 'default' });
      for (let i = 0; i < 40; i++) expect((await remote.authorize(attrs)).decision).toBe('Allow');
      // Each request is answered once, and both replicas took some (all 40 on one replica has
      // odds of 2^-39).
      expect(a.calls + b.calls).toBe(40);
      expect(a.calls).toBeGreaterThan(0);
      expect(b.calls).toBeGreaterThan(0);
    } finally {
      remote.close();
      await Promise.all(replicas.map((r) => r.stop()));
    }
  });

  it('asks again, within the timeout, a question the replica that took it never answers', async () => {
    // The dying replica takes its share of the questions and never answers; once its
    // connection is gone, the second try of each question reaches the live replica.
    const dying = await connect({ servers: nats.url });
    let taken = 0;
    dying.subscribe('retry.authorize', { queue: 'plinth-authz', callback: () => taken++ });
    await dying.flush();
    const live = await serveAuthorizer(await open(), local, { subjectPrefix: 'retry' });
    const remote = new NatsAuthorizer(await open(), { subjectPrefix: 'retry', allowedTtlMs: 0, deniedTtlMs: 0, timeoutMs: 20_000, firstAttemptMs: 500 });
    try {
      const questions = Array.from({ length: 20 }, (_, i) => resourceAttributes({ user: user(`user-${i}`, ['readers']), verb: 'get', resource: 'pods', namespace: 'default' }));
      const answers = Promise.all(questions.map((q) => remote.authorize(q)));
      await eventually(async () => taken > 0);
      await dying.close();
      expect((await answers).map((a) => a.decision)).toEqual(Array(20).fill('Allow'));
    } finally {
      remote.close();
      await live.stop();
    }
  });

  it('keeps fresh decisions through a NATS outage, answering them meanwhile without asking', async () => {
    const port = await freePort();
    const url = `nats://127.0.0.1:${port}`;
    const startServer = async (): Promise<RunningProcess> => {
      const proc = startProcess(findBinary(natsBinary), ['-a', '127.0.0.1', '-p', String(port)]);
      await waitForPort(proc, port, 'nats-server');
      return proc;
    };
    let server = await startServer();
    const reconnecting = { servers: url, maxReconnectAttempts: -1, reconnectTimeWait: 50 };
    const [serverSide, clientSide] = [await connect(reconnecting), await connect(reconnecting)];
    const served = counting(local);
    const service = await serveAuthorizer(serverSide, served, { subjectPrefix: 'outage' });
    const remote = new NatsAuthorizer(clientSide, { subjectPrefix: 'outage', allowedTtlMs: 600_000 });
    const seen: string[] = [];
    void (async () => {
      for await (const status of clientSide.status()) seen.push(status.type);
    })();
    try {
      await remote.ready();
      const bob = resourceAttributes({ user: user('bob', ['readers']), verb: 'list', resource: 'pods', namespace: 'default' });
      expect((await remote.authorize(bob)).decision).toBe('Allow');
      await server.stop();
      await eventually(async () => seen.includes('disconnect'));
      expect(remote.cachedDecisions).toBe(1);
      expect((await remote.authorize(bob)).decision).toBe('Allow');
      server = await startServer();
      await eventually(async () => seen.includes('reconnect'), { timeoutMs: 15_000 });
      expect(remote.cachedDecisions).toBe(1);
      expect((await remote.authorize(bob)).decision).toBe('Allow');
      expect(served.calls).toBe(1);
    } finally {
      remote.close();
      await service.stop();
      await Promise.all([serverSide.close(), clientSide.close()]);
      await server.stop();
    }
  }, 30_000);

  describe('the decision cache', () => {
    const prefix = 'cached';
    let served: Authorizer & { calls: number };
    let service: AuthorizerService;
    let serverConnection: NatsConnection;
    let remote: NatsAuthorizer;
    const bob = resourceAttributes({ user: user('bob', ['readers']), verb: 'get', resource: 'pods', namespace: 'default' });

    beforeEach(async () => {
      served = counting(local);
      serverConnection = await open();
      service = await serveAuthorizer(serverConnection, served, { subjectPrefix: prefix });
      remote = new NatsAuthorizer(await open(), { subjectPrefix: prefix });
      await remote.ready();
    });

    afterEach(async () => {
      remote.close();
      await service.stop();
    });

    it('answers a repeated question without asking again, but not one differing in any attribute', async () => {
      const first = await remote.authorize(bob);
      expect(await remote.authorize({ ...bob, user: { ...bob.user } })).toEqual(first);
      expect(served.calls).toBe(1);
      const variants: Attributes[] = [
        { ...bob, user: { ...bob.user, uid: 'other' } },
        { ...bob, user: { ...bob.user, groups: ['readers', 'extra'] } },
        { ...bob, user: { ...bob.user, extra: { scopes: ['x'] } } },
        { ...bob, namespace: 'other' },
        { ...bob, name: 'web' },
      ];
      for (const variant of variants) await remote.authorize(variant);
      expect(served.calls).toBe(1 + variants.length);
      expect(remote.cachedDecisions).toBe(1 + variants.length);
    });

    it('keeps decisions of no opinion too, and never asks the service for a cached one', async () => {
      const eve = resourceAttributes({ user: user('eve'), verb: 'get', resource: 'secrets', namespace: 'default' });
      expect((await remote.authorize(eve)).decision).toBe('NoOpinion');
      expect((await remote.authorize(eve)).decision).toBe('NoOpinion');
      expect(served.calls).toBe(1);
    });

    it('drops every decision when the policy changed', async () => {
      const publisher = publishPolicyChanged(serverConnection, { subjectPrefix: prefix, debounceMs: 10 });
      const watcher = await open();
      let published = 0;
      watcher.subscribe(subjectsFor(prefix).policyChanged, { callback: () => published++ });
      await watcher.flush();
      await remote.authorize(bob);
      // A burst of changes is published once.
      for (let i = 0; i < 5; i++) publisher.changed();
      await eventually(async () => {
        await remote.authorize(bob);
        return served.calls === 2;
      });
      expect(remote.cachedDecisions).toBe(1);
      expect(published).toBe(1);
      publisher.stop();
    });

    it('does not keep an answer the policy changed under while it was in flight', async () => {
      const publisher = publishPolicyChanged(serverConnection, { subjectPrefix: prefix, debounceMs: 0 });
      await service.stop();
      // The replica publishes the change on the connection it answers on, so the client sees
      // the change before the answer that was computed before it.
      let changing = true;
      const racing: Authorizer = {
        authorize: async (attrs): Promise<AuthorizationResult> => {
          served.calls++;
          if (changing) publisher.changed();
          return local.authorize(attrs);
        },
        rulesReview: (u, ns) => local.rulesReview(u, ns),
        checkRbacWrite: (...args) => local.checkRbacWrite(...args),
      };
      service = await serveAuthorizer(serverConnection, racing, { subjectPrefix: prefix });
      await remote.authorize(bob);
      expect(remote.cachedDecisions).toBe(0);
      changing = false;
      await remote.authorize(bob);
      await remote.authorize(bob);
      expect(served.calls).toBe(2);
    });
  });

  describe('without an answer', () => {
    it('fails at once when no replica is subscribed', async () => {
      const remote = new NatsAuthorizer(await open(), { subjectPrefix: 'nobody' });
      try {
        const attrs = nonResourceAttributes({ user: user('x'), verb: 'get', path: '/healthz' });
        const err = await remote.authorize(attrs).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(AuthorizerUnavailableError);
        expect((err as Error).message).toBe('no authorization service is answering on nobody.authorize');
      } finally {
        remote.close();
      }
    });

    it('times out when the replica does not answer in time', async () => {
      const silent = await open();
      silent.subscribe('silent.authorize', { queue: 'plinth-authz', callback: () => undefined });
      await silent.flush();
      const remote = new NatsAuthorizer(await open(), { subjectPrefix: 'silent', timeoutMs: 200 });
      try {
        const attrs = nonResourceAttributes({ user: user('x'), verb: 'get', path: '/healthz' });
        await expect(remote.authorize(attrs)).rejects.toThrow(new AuthorizerUnavailableError('the authorization service did not answer on silent.authorize within 200 ms'));
      } finally {
        remote.close();
      }
    });

    it('allows system:masters without asking, as the privileged-group authorizer', async () => {
      const remote = new NatsAuthorizer(await open(), { subjectPrefix: 'nobody' });
      try {
        const attrs = resourceAttributes({ user: user('root', ['system:masters']), verb: 'delete', resource: 'nodes' });
        expect(await remote.authorize(attrs)).toEqual({ decision: 'Allow', reason: '', evaluationError: '', resolutionErrors: [] });
      } finally {
        remote.close();
      }
    });

    it('fails once the connection is closed', async () => {
      const nc = await open();
      const remote = new NatsAuthorizer(nc);
      await nc.close();
      await expect(remote.rulesReview(user('x'), '')).rejects.toThrow(AuthorizerUnavailableError);
      remote.close();
    });
  });

  it('counts decisions by source and times the questions, an unanswered one as Unavailable', async () => {
    const registry = new Registry();
    const service = await serveAuthorizer(await open(), local, { subjectPrefix: 'measured' });
    const measured = new NatsAuthorizer(await open(), { subjectPrefix: 'measured', metrics: new AuthzLinkMetrics(registry) });
    const unanswered = new NatsAuthorizer(await open(), { subjectPrefix: 'nobody-home', metrics: new AuthzLinkMetrics(registry) });
    try {
      const question = resourceAttributes({ user: user('bob', ['readers']), verb: 'list', resource: 'pods' });
      await measured.authorize(question);
      await measured.authorize(question);
      await measured.authorize(resourceAttributes({ user: user('admin', ['system:masters']), verb: 'delete', resource: 'nodes' }));
      await expect(unanswered.authorize(question)).rejects.toBeInstanceOf(AuthorizerUnavailableError);
      const text = registry.expose();
      expect(text).toMatch(/^plinth_authz_decisions_total\{source="authz"\} 2$/m);
      expect(text).toMatch(/^plinth_authz_decisions_total\{source="cache"\} 1$/m);
      expect(text).toMatch(/^plinth_authz_decisions_total\{source="privileged"\} 1$/m);
      expect(text).toMatch(/^plinth_authz_request_duration_seconds_count\{operation="Authorize",result="OK"\} 1$/m);
      expect(text).toMatch(/^plinth_authz_request_duration_seconds_count\{operation="Authorize",result="Unavailable"\} 1$/m);
    } finally {
      measured.close();
      unanswered.close();
      await service.stop();
    }
  });
});
