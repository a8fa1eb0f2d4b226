// AuthzNatsTransport's own duties, on a real nats-server: its stop lets the questions it has
// received be answered and takes no new ones, and a request that came without a reply subject
// is reported instead of answered into the void.
import { connect, NatsConnection } from 'nats';
import { AuthorizerUnavailableError, NatsAuthorizer, subjectsFor } from '@plinth/authz-nats';
import { Authorizer, AuthorizationResult, resourceAttributes } from '@plinth/rbac';
import { NatsServer, startNats } from '@plinth/testing';
import { serveAuthorizer } from './serve-authorizer';

const bob = resourceAttributes({ user: { name: 'bob', uid: '', groups: [], extra: {} }, verb: 'get', resource: 'pods', namespace: 'default' });
const allowed: AuthorizationResult = { decision: 'Allow', reason: 'held', evaluationError: '', resolutionErrors: [] };

// heldAuthorizer answers every question once released, and says when it was asked.
function heldAuthorizer(): Authorizer & { asked: Promise<void>; release(): void } {
  let release!: () => void;
  let asked!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const askedOnce = new Promise<void>((resolve) => (asked = resolve));
  return {
    asked: askedOnce,
    release,
    authorize: async () => {
      asked();
      await released;
      return allowed;
    },
    rulesReview: async () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
    checkRbacWrite: async () => null,
  };
}

describe('AuthzNatsTransport', () => {
  let nats: NatsServer;
  const connections: NatsConnection[] = [];
  const open = async () => {
    const nc = await connect({ servers: nats.url });
    connections.push(nc);
    return nc;
  };

  beforeAll(async () => {
    nats = await startNats();
  });

  afterAll(async () => {
    await Promise.all(connections.map((nc) => nc.close()));
    await nats?.stop();
  });

  it('answers the questions it received before its stop resolves, and takes no new ones', async () => {
    const held = heldAuthorizer();
    const service = await serveAuthorizer(await open(), held, { subjectPrefix: 'held' });
    const remote = new NatsAuthorizer(await open(), { subjectPrefix: 'held', allowedTtlMs: 0, timeoutMs: 1000, firstAttemptMs: 1000 });
    try {
      const answer = remote.authorize(bob);
      await held.asked;
      let stopped = false;
      const stopping = service.stop().then(() => (stopped = true));
      // The subscription is drained once the server confirms it; the answer is still held.
      await new Promise((resolve) => setImmediate(resolve));
      expect(stopped).toBe(false);
      held.release();
      expect(await answer).toEqual(allowed);
      await stopping;
      await expect(remote.authorize({ ...bob, name: 'another' })).rejects.toThrow(new AuthorizerUnavailableError('no authorization service is answering on held.authorize'));
    } finally {
      remote.close();
      await service.stop();
    }
  });

  it('reports a request without a reply subject to onError', async () => {
    let reported!: (message: string) => void;
    const report = new Promise<string>((resolve) => (reported = resolve));
    const allowAll: Authorizer = { ...heldAuthorizer(), authorize: async () => allowed };
    const service = await serveAuthorizer(await open(), allowAll, {
      subjectPrefix: 'noreply',
      onError: (err) => reported(err instanceof Error ? err.message : String(err)),
    });
    try {
      // serveAuthorizer resolves once the server has the subscriptions.
      (await open()).publish(subjectsFor('noreply').authorize, new TextEncoder().encode(JSON.stringify({ version: 1, attributes: bob })));
      expect(await report).toBe('a request on noreply.authorize came without a reply subject');
    } finally {
      await service.stop();
    }
  });
});
