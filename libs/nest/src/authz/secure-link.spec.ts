// NATS with TLS and identities, on a real nats-server configured with natsPermissions: a
// client without credentials, or without TLS, cannot connect; the gateway's identity cannot
// listen on the authorization subjects nor announce policy changes (so it cannot play authz);
// and a gateway and an authz service, each under its own user, still work end to end.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect, NatsConnection, NatsError } from 'nats';
import { Authorizer, resourceAttributes } from '@plinth/rbac';
import { LinkPki, makeLinkPki, NatsServer, startNats, eventually } from '@plinth/testing';
import { NatsAuthorizer, NatsLinkError, natsPermissions, natsSecurityOptions, natsServerAuthorization, publishPolicyChanged, subjectsFor } from '@plinth/authz-nats';
import { AuthorizerService, serveAuthorizer } from './serve-authorizer';

const subjects = subjectsFor();
const allowAlice: Authorizer = {
  authorize: async (attrs) => ({ decision: attrs.user.name === 'alice' ? 'Allow' : 'NoOpinion', reason: 'test policy', evaluationError: '', resolutionErrors: [] }),
  rulesReview: async () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
  checkRbacWrite: async () => null,
};

// firstError resolves with the error the server reports on the connection (nats.js
// reports a permissions violation asynchronously, on the subscription or the status stream).
async function firstError(nc: NatsConnection): Promise<string> {
  for await (const status of nc.status()) {
    if (status.type === 'error') return String(status.data);
  }
  return 'the connection closed without an error';
}

describe('NATS link with TLS and identities', () => {
  let pki: LinkPki;
  let nats: NatsServer;
  const passwords = { gateway: randomBytes(16).toString('hex'), authz: randomBytes(16).toString('hex') };
  const connections: NatsConnection[] = [];

  const connectAs = async (who: 'gateway' | 'authz') => {
    const passwordFile = join(pki.dir, `${who}.password`);
    writeFileSync(passwordFile, `${passwords[who]}\n`);
    const nc = await connect({ servers: nats.url, name: `plinth-${who}`, ...natsSecurityOptions({ url: nats.url, caFile: pki.internalCaFile, user: who, passwordFile, insecure: false }) });
    connections.push(nc);
    return nc;
  };

  beforeAll(async () => {
    pki = makeLinkPki();
    const permissions = natsPermissions();
    nats = await startNats({
      tls: pki.natsServer,
      authorization: natsServerAuthorization([
        { user: 'gateway', password: passwords.gateway, permissions: permissions.gateway },
        { user: 'authz', password: passwords.authz, permissions: permissions.authz },
      ]),
    });
  });

  afterAll(async () => {
    for (const nc of connections) if (!nc.isClosed()) await nc.close();
    await nats?.stop();
    pki?.remove();
  });

  it('refuses a client without credentials, with a wrong password, or without TLS', async () => {
    expect(nats.url).toMatch(/^tls:\/\//);
    const anonymous = connect({ servers: nats.url, tls: { caFile: pki.internalCaFile }, reconnect: false });
    await expect(anonymous).rejects.toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
    const guessed = connect({ servers: nats.url, tls: { caFile: pki.internalCaFile }, user: 'gateway', pass: 'guess', reconnect: false });
    await expect(guessed).rejects.toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
    const plaintext = connect({ servers: nats.url.replace('tls://', 'nats://'), user: 'gateway', pass: passwords.gateway, reconnect: false });
    // The server requires TLS: the client must upgrade, and without the CA cannot.
    await expect(plaintext).rejects.toThrow(/certificate/);
  });

  it('does not let the gateway\'s identity subscribe to the authorization subjects', async () => {
    const gateway = await connectAs('gateway');
    const refused = new Promise<NatsError | null>((resolve) => gateway.subscribe(subjects.authorize, { queue: 'plinth-authz', callback: (err) => resolve(err) }));
    const err = await refused;
    expect(err?.message).toMatch(/permissions violation for subscription to "plinth\.authz\.authorize"/i);
  });

  it('does not let the gateway\'s identity announce a policy change, nor authz ask questions', async () => {
    const gateway = await connectAs('gateway');
    const reported = firstError(gateway);
    gateway.publish(subjects.policyChanged, new Uint8Array());
    expect(await reported).toBe('PERMISSIONS_VIOLATION');
    const authz = await connectAs('authz');
    await expect(authz.request(subjects.authorize, new Uint8Array(), { timeout: 2000 })).rejects.toThrow(/permissions violation/i);
  });

  it('carries a gateway\'s questions to authz and authz\'s answers and policy changes back', async () => {
    const authz = await connectAs('authz');
    const service: AuthorizerService = await serveAuthorizer(authz, allowAlice);
    const publisher = publishPolicyChanged(authz, { debounceMs: 0 });
    const gateway = await connectAs('gateway');
    const authorizer = new NatsAuthorizer(gateway);
    try {
      await authorizer.ready();
      const attrs = (name: string) => resourceAttributes({ user: { name, uid: '', groups: [], extra: {} }, verb: 'get', resource: 'pods', namespace: 'default' });
      expect((await authorizer.authorize(attrs('alice'))).decision).toBe('Allow');
      expect((await authorizer.authorize(attrs('bob'))).decision).toBe('NoOpinion');
      expect(authorizer.cachedDecisions).toBe(2);
      publisher.changed();
      await eventually(() => authorizer.cachedDecisions === 0, { what: 'the decision cache emptied' });
    } finally {
      authorizer.close();
      publisher.stop();
      await service.stop();
    }
  });

  it('refuses a password file without a user and a user without one', () => {
    expect(() => natsSecurityOptions({ url: nats.url, caFile: '/ca', user: 'gateway', passwordFile: '', insecure: false })).toThrow(new NatsLinkError('--nats-user needs --nats-password-file'));
    expect(() => natsSecurityOptions({ url: nats.url, caFile: '/ca', user: '', passwordFile: '/p', insecure: false })).toThrow(new NatsLinkError('--nats-password-file needs --nats-user'));
  });

  it('refuses plaintext NATS unless --nats-insecure says so', () => {
    expect(() => natsSecurityOptions({ url: 'nats://127.0.0.1:4222', caFile: '', user: '', passwordFile: '', insecure: false })).toThrow(
      new NatsLinkError('NATS is reached over TLS only: set --nats-ca-file (with --nats-user and --nats-password-file), or --nats-insecure for local development only'),
    );
    expect(natsSecurityOptions({ url: 'nats://127.0.0.1:4222', caFile: '', user: '', passwordFile: '', insecure: true })).toEqual({});
  });
});
