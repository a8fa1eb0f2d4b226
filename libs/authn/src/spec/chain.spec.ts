import { generateKeyPairSync } from 'node:crypto';
import { FakeClock } from '@plinth/testing';
import { authenticate, authenticateRequest, AuthenticationConfig, CertPool, issueServiceAccountToken, parseTokenFile, unauthorizedError } from '../index';
import { issueCertificate, Issued, newCA } from './pki';

const issuer = 'https://kubernetes.default.svc';

describe('the authentication chain', () => {
  const clock = new FakeClock(Date.now());
  const signing = generateKeyPairSync('rsa', { modulusLength: 2048 });
  let clientCA: Issued;
  let frontProxyCA: Issued;
  let proxy: Issued;
  let admin: Issued;
  let config: AuthenticationConfig;

  beforeAll(() => {
    clientCA = newCA('client-ca');
    frontProxyCA = newCA('front-proxy-ca');
    proxy = issueCertificate({ cn: 'front-proxy-client', issuer: frontProxyCA });
    admin = issueCertificate({ cn: 'admin', orgs: ['system:masters'], issuer: clientCA });
    config = {
      requestHeader: { clientCA: CertPool.fromPem(frontProxyCA.certPem), allowedNames: ['front-proxy-client'] },
      clientCA: CertPool.fromPem(clientCA.certPem),
      tokenFile: parseTokenFile('static-token,ops,42,"ops,system:unauthenticated"\nplain-token,carol,7\n'),
      serviceAccountTokens: { publicKeys: [signing.publicKey], issuers: [issuer], audiences: [issuer] },
      anonymous: true,
      clock,
    };
  });

  const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

  it('authenticates a client certificate and adds system:authenticated', async () => {
    const result = await authenticateRequest({ headers: {}, peerCertificate: [admin.der] }, config);
    expect(result.authenticator).toBe('x509');
    expect(result.user).toEqual({ name: 'admin', uid: '', groups: ['system:masters', 'system:authenticated'], extra: {} });
  });

  it('prefers request-header authentication from the front proxy, with lower-cased extra keys', async () => {
    const headers = { 'x-remote-user': 'dana', 'x-remote-group': ['dev'], 'X-Remote-Extra-Acme.com%2FProject': 'plinth', authorization: 'Bearer plain-token' };
    const result = await authenticateRequest({ headers, peerCertificate: [proxy.der] }, config);
    expect(result.authenticator).toBe('requestheader');
    expect(result.user).toEqual({ name: 'dana', uid: '', groups: ['dev', 'system:authenticated'], extra: { 'acme.com/project': ['plinth'] } });
  });

  it('authenticates static tokens, keeping an explicit system:unauthenticated', async () => {
    expect(await authenticate(bearer('plain-token'), config)).toEqual({ name: 'carol', uid: '7', groups: ['system:authenticated'], extra: {} });
    expect((await authenticate(bearer('static-token'), config))?.groups).toEqual(['ops', 'system:unauthenticated']);
  });

  it('authenticates service account tokens', async () => {
    const { token } = issueServiceAccountToken({ namespace: 'ci', name: 'runner', uid: 'u1', issuer, privateKey: signing.privateKey, now: clock.now() });
    const result = await authenticateRequest({ headers: { authorization: `bearer ${token}` } }, config);
    expect(result.authenticator).toBe('serviceaccount');
    expect(result.user).toEqual({
      name: 'system:serviceaccount:ci:runner',
      uid: 'u1',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:ci', 'system:authenticated'],
      extra: {},
    });
  });

  it('says which of the requested audiences a token is good for', async () => {
    const { token } = issueServiceAccountToken({ namespace: 'ci', name: 'runner', uid: 'u1', issuer, audiences: ['a', 'b'], privateKey: signing.privateKey, now: clock.now() });
    expect((await authenticateRequest({ ...bearer(token), audiences: ['b', 'c'] }, config)).audiences).toEqual(['b']);
    const elsewhere = await authenticateRequest({ ...bearer(token), audiences: ['c'] }, config);
    expect({ user: elsewhere.user, errors: elsewhere.errors.map((e) => e.message) }).toEqual({ user: null, errors: ['token audiences ["a" "b"] is invalid for the target audiences ["c"]'] });
  });

  it('takes a static token for the API audiences among those requested, and for no others', async () => {
    const withAudiences = { ...config, apiAudiences: [issuer] };
    const asked = await authenticateRequest({ ...bearer('plain-token'), audiences: ['x', issuer] }, withAudiences);
    expect({ name: asked.user?.name, audiences: asked.audiences }).toEqual({ name: 'carol', audiences: [issuer] });
    const other = await authenticateRequest({ ...bearer('plain-token'), audiences: ['x'] }, withAudiences);
    expect({ user: other.user, errors: other.errors.map((e) => e.message) }).toEqual({ user: null, errors: ['invalid bearer token'] });
  });

  it('uses the injected clock for token expiry', async () => {
    const { token } = issueServiceAccountToken({ namespace: 'ci', name: 'runner', uid: 'u1', issuer, privateKey: signing.privateKey, now: clock.now(), expirationSeconds: 600 });
    const later = new FakeClock(clock.now() + 3600_000);
    const result = await authenticateRequest(bearer(token), { ...config, clock: later });
    expect(result.user).toBeNull();
    expect(result.errors.map((e) => e.message)).toEqual(['service account token has expired']);
  });

  it('falls back to anonymous only when no credential was presented', async () => {
    const result = await authenticateRequest({ headers: {} }, config);
    expect(result).toEqual({ user: { name: 'system:anonymous', uid: '', groups: ['system:unauthenticated'], extra: {} }, authenticator: 'anonymous', errors: [], warnings: [] });
    expect(await authenticate({ headers: {} }, { ...config, anonymous: false })).toBeNull();
    const rejected = await authenticateRequest(bearer('nope'), config);
    expect(rejected.user).toBeNull();
    expect(rejected.errors.map((e) => e.message)).toEqual(['invalid bearer token']);
  });

  it('refuses a certificate from the wrong CA, but lets a valid token through', async () => {
    const stranger = issueCertificate({ cn: 'stranger', issuer: newCA('other-ca') });
    const refused = await authenticateRequest({ headers: {}, peerCertificate: [stranger.der] }, config);
    expect(refused.user).toBeNull();
    // both the request-header verifier and the x509 authenticator refuse it
    expect(refused.errors.map((e) => e.message)).toEqual([
      'x509: certificate signed by unknown authority',
      expect.stringMatching(/^verifying certificate SN=\d+, .* failed: x509: certificate signed by unknown authority$/),
    ]);
    const withToken = await authenticateRequest({ headers: { authorization: 'Bearer plain-token' }, peerCertificate: [stranger.der] }, config);
    expect(withToken.user?.name).toBe('carol');
  });

  it('does not take request headers from an ordinary client certificate', async () => {
    const result = await authenticateRequest({ headers: { 'x-remote-user': 'system:admin', 'x-remote-group': 'system:masters' }, peerCertificate: [admin.der] }, config);
    expect(result.user?.name).toBe('admin');
    expect(result.errors[0].message).toContain('x509: certificate signed by unknown authority');
  });

  it('reports the warning for a space before the bearer token', async () => {
    const result = await authenticateRequest({ headers: { authorization: 'Bearer  plain-token' } }, config);
    expect(result.warnings).toEqual(['the provided Authorization header contains extra space before the bearer token, and is ignored']);
    expect(result.user?.name).toBe('system:anonymous');
  });

  it('answers 401 with the message Unauthorized', () => {
    const err = unauthorizedError();
    expect(err.code).toBe(401);
    expect(err.errStatus).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  });
});
