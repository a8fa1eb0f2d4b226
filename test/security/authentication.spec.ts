// Every authentication path of the real all-in-one process, over real TLS connections that
// verify the serving certificate against the cluster CA: client certificates (the cluster CA's
// and a stranger's), the static token file, service-account tokens, impersonation and the
// request-header front proxy.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlinthProcess, startPlinth } from '@plinth/testing-server';
import { eventually } from '@plinth/testing';
import {
  CertificateAuthority,
  clusterCertificateAuthority,
  issueClientCertificate,
  KeyPair,
  newCertificateAuthority,
  TlsRequestOptions,
  tlsRequest,
  writePem,
} from './tls';

const unauthorizedStatus = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };
const selfSubjectReviews = '/apis/authentication.k8s.io/v1/selfsubjectreviews';

describe('authentication over TLS against the all-in-one process', () => {
  let plinth: PlinthProcess;
  let configDir: string;
  let ca: string;
  let admin: KeyPair;
  let clusterCA: CertificateAuthority;
  let frontProxyCA: CertificateAuthority;

  const call = (method: string, path: string, options: Omit<TlsRequestOptions, 'ca'> = {}) => tlsRequest(plinth.url, method, path, { ca, ...options });
  const whoami = async (options: Omit<TlsRequestOptions, 'ca'>) => {
    const res = await call('POST', selfSubjectReviews, { ...options, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
    expect({ status: res.status, text: res.status === 201 ? '' : res.text }).toEqual({ status: 201, text: '' });
    expect(res.json.kind).toBe('SelfSubjectReview');
    return res.json.status.userInfo;
  };

  beforeAll(async () => {
    configDir = mkdtempSync(join(tmpdir(), 'plinth-security-'));
    const tokenFile = join(configDir, 'tokens.csv');
    writePem(tokenFile, ['erin-token,erin,erin-uid,"g1,g2"', 'frank-token,frank,frank-uid'].join('\n') + '\n');
    frontProxyCA = newCertificateAuthority('front-proxy-ca');
    const frontProxyCAFile = writePem(join(configDir, 'front-proxy-ca.crt'), frontProxyCA.certPem);
    plinth = await startPlinth([
      `--token-auth-file=${tokenFile}`,
      `--requestheader-client-ca-file=${frontProxyCAFile}`,
      '--requestheader-allowed-names=front-proxy',
      '--requestheader-username-headers=X-Remote-User',
      '--requestheader-group-headers=X-Remote-Group',
      '--requestheader-extra-headers-prefix=X-Remote-Extra-',
      '--anonymous-auth=false',
    ], { timeoutMs: 60000 });
    const pkiDir = join(plinth.dataDir, 'pki');
    ca = readFileSync(join(pkiDir, 'ca.crt'), 'utf8');
    admin = { certPem: readFileSync(join(pkiDir, 'admin.crt'), 'utf8'), keyPem: readFileSync(join(pkiDir, 'admin.key'), 'utf8') };
    clusterCA = clusterCertificateAuthority(plinth.dataDir);
  }, 90000);

  afterAll(async () => {
    await plinth?.stop();
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  });

  describe('client certificates', () => {
    it('authenticates the generated admin certificate as plinth-admin in system:masters', async () => {
      expect(await whoami({ clientCert: admin })).toEqual({ username: 'plinth-admin', groups: ['system:masters', 'system:authenticated'] });
      expect((await call('GET', '/api/v1/namespaces', { clientCert: admin })).status).toBe(200);
    });

    it('takes the user from the CN and the groups from O of a certificate the cluster CA signed', async () => {
      const carol = issueClientCertificate(clusterCA, 'carol', ['qa']);
      expect(await whoami({ clientCert: carol })).toEqual({ username: 'carol', groups: ['qa', 'system:authenticated'] });
      // The authorizer sees the same identity: carol has no grants.
      const list = await call('GET', '/api/v1/namespaces', { clientCert: carol });
      expect(list.status).toBe(403);
      expect(list.json.message).toBe('namespaces is forbidden: User "carol" cannot list resource "namespaces" in API group "" at the cluster scope');
    });

    it('rejects a certificate from an unknown CA with 401, even with a valid-looking subject', async () => {
      const stranger = newCertificateAuthority('plinth-ca');
      const forged = issueClientCertificate(stranger, 'plinth-admin', ['system:masters']);
      const res = await call('GET', '/api/v1/namespaces', { clientCert: forged });
      expect(res.status).toBe(401);
      expect(res.json).toEqual(unauthorizedStatus);
    });
  });

  describe('no credentials', () => {
    it('answers 401 with the Unauthorized Status when anonymous requests are disabled', async () => {
      const res = await call('GET', '/api/v1/namespaces');
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.json).toEqual(unauthorizedStatus);
      expect((await call('GET', '/healthz')).status).toBe(401);
    });
  });

  describe('static token file', () => {
    it('authenticates the token of a CSV line as its user, uid and groups', async () => {
      expect(await whoami({ token: 'erin-token' })).toEqual({ username: 'erin', uid: 'erin-uid', groups: ['g1', 'g2', 'system:authenticated'] });
      expect(await whoami({ token: 'frank-token' })).toEqual({ username: 'frank', uid: 'frank-uid', groups: ['system:authenticated'] });
    });

    it('rejects an unknown token with 401', async () => {
      const res = await call('GET', '/api/v1/namespaces', { token: 'erin-token-not' });
      expect(res.status).toBe(401);
      expect(res.json).toEqual(unauthorizedStatus);
    });
  });

  describe('service-account tokens', () => {
    it('issues a token with TokenRequest that authenticates as the service account', async () => {
      expect((await call('POST', '/api/v1/namespaces', { clientCert: admin, body: { metadata: { name: 'robots' } } })).status).toBe(201);
      const sa = await call('POST', '/api/v1/namespaces/robots/serviceaccounts', { clientCert: admin, body: { metadata: { name: 'builder' } } });
      expect(sa.status).toBe(201);
      const issued = await call('POST', '/api/v1/namespaces/robots/serviceaccounts/builder/token', {
        clientCert: admin,
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
      });
      expect(issued.status).toBe(201);
      const token: string = issued.json.status.token;
      expect(token.split('.')).toHaveLength(3);
      expect(await whoami({ token })).toEqual({
        username: 'system:serviceaccount:robots:builder',
        uid: sa.json.metadata.uid,
        groups: ['system:serviceaccounts', 'system:serviceaccounts:robots', 'system:authenticated'],
      });
      const list = await call('GET', '/api/v1/namespaces/robots/pods', { token });
      expect(list.status).toBe(403);
      expect(list.json.message).toBe('pods is forbidden: User "system:serviceaccount:robots:builder" cannot list resource "pods" in API group "" in the namespace "robots"');
    });

    it('rejects a token whose signature was tampered with', async () => {
      const issued = await call('POST', '/api/v1/namespaces/robots/serviceaccounts/builder/token', { clientCert: admin, body: { spec: {} } });
      const [header, payload, signature] = (issued.json.status.token as string).split('.');
      const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BB' : 'AA');
      const res = await call('GET', '/api/v1/namespaces', { token: `${header}.${payload}.${flipped}` });
      expect(res.status).toBe(401);
      expect(res.json).toEqual(unauthorizedStatus);
    });

    it('stops authenticating a token once its service account is deleted (--service-account-lookup)', async () => {
      expect((await call('POST', '/api/v1/namespaces/robots/serviceaccounts', { clientCert: admin, body: { metadata: { name: 'ephemeral' } } })).status).toBe(201);
      const issued = await call('POST', '/api/v1/namespaces/robots/serviceaccounts/ephemeral/token', { clientCert: admin, body: { spec: {} } });
      const token: string = issued.json.status.token;
      expect((await whoami({ token })).username).toBe('system:serviceaccount:robots:ephemeral');
      expect((await call('DELETE', '/api/v1/namespaces/robots/serviceaccounts/ephemeral', { clientCert: admin })).status).toBe(200);
      const res = await call('POST', selfSubjectReviews, { token, body: {} });
      expect(res.status).toBe(401);
      expect(res.json).toEqual(unauthorizedStatus);
    });
  });

  describe('impersonation', () => {
    it('acts as the impersonated user, groups and extras (keys lower-cased) when the requester may impersonate', async () => {
      const userInfo = await whoami({
        clientCert: admin,
        headers: {
          'Impersonate-User': 'grace',
          'Impersonate-Group': ['devs', 'ops'],
          'Impersonate-Extra-Foo': 'bar',
          'Impersonate-Extra-Example.com%2FReason': ['audit', 'debug'],
        },
      });
      expect(userInfo).toEqual({
        username: 'grace',
        groups: ['devs', 'ops', 'system:authenticated'],
        extra: { foo: ['bar'], 'example.com/reason': ['audit', 'debug'] },
      });
    });

    it('impersonates a service account with its groups', async () => {
      expect(await whoami({ clientCert: admin, headers: { 'Impersonate-User': 'system:serviceaccount:robots:builder' } })).toEqual({
        username: 'system:serviceaccount:robots:builder',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:robots', 'system:authenticated'],
      });
    });

    it('forbids impersonation to a user without the impersonate verb', async () => {
      const res = await call('GET', '/api/v1/namespaces', { token: 'erin-token', headers: { 'Impersonate-User': 'plinth-admin' } });
      expect(res.status).toBe(403);
      expect(res.json.reason).toBe('Forbidden');
      expect(res.json.message).toBe('users "plinth-admin" is forbidden: User "erin" cannot impersonate resource "users" in API group "" at the cluster scope');
      const group = await call('GET', '/api/v1/namespaces', { clientCert: issueClientCertificate(clusterCA, 'carol', ['qa']), headers: { 'Impersonate-User': 'carol', 'Impersonate-Group': 'system:masters' } });
      expect(group.status).toBe(403);
      expect(group.json.message).toBe('users "carol" is forbidden: User "carol" cannot impersonate resource "users" in API group "" at the cluster scope');
    });

    it('grants impersonation of exactly what a ClusterRole names', async () => {
      const role = await call('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
        clientCert: admin,
        body: { metadata: { name: 'impersonate-henry' }, rules: [{ apiGroups: [''], resources: ['users'], resourceNames: ['henry'], verbs: ['impersonate'] }] },
      });
      expect(role.status).toBe(201);
      const binding = await call('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
        clientCert: admin,
        body: {
          metadata: { name: 'erin-impersonates-henry' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'impersonate-henry' },
          subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'erin' }],
        },
      });
      expect(binding.status).toBe(201);
      await eventually(() => whoami({ token: 'erin-token', headers: { 'Impersonate-User': 'henry' } }), { until: (user) => user?.username === 'henry', what: 'erin impersonating henry' });
      expect(await whoami({ token: 'erin-token', headers: { 'Impersonate-User': 'henry' } })).toEqual({ username: 'henry', groups: ['system:authenticated'] });
      const group = await call('POST', selfSubjectReviews, { token: 'erin-token', headers: { 'Impersonate-User': 'henry', 'Impersonate-Group': 'system:masters' }, body: {} });
      expect(group.status).toBe(403);
      expect(group.json.message).toBe('groups "system:masters" is forbidden: User "erin" cannot impersonate resource "groups" in API group "" at the cluster scope');
    });
  });

  describe('request-header authentication (front proxy)', () => {
    let proxy: KeyPair;
    beforeAll(() => {
      proxy = issueClientCertificate(frontProxyCA, 'front-proxy');
    });

    it('trusts the user, groups and extras a proxy with an allowed name asserts', async () => {
      expect(
        await whoami({
          clientCert: proxy,
          headers: { 'X-Remote-User': 'dave', 'X-Remote-Group': ['devs', 'admins'], 'X-Remote-Extra-Acme.com%2FProject': 'apollo', 'X-Remote-Extra-Scopes': ['a', 'b'] },
        }),
      ).toEqual({ username: 'dave', groups: ['devs', 'admins', 'system:authenticated'], extra: { 'acme.com/project': ['apollo'], scopes: ['a', 'b'] } });
      const list = await call('GET', '/api/v1/namespaces', { clientCert: proxy, headers: { 'X-Remote-User': 'dave' } });
      expect(list.status).toBe(403);
      expect(list.json.message).toBe('namespaces is forbidden: User "dave" cannot list resource "namespaces" in API group "" at the cluster scope');
    });

    it('does not trust the headers from a certificate of the cluster CA: the request is the certificate\'s user', async () => {
      const carol = issueClientCertificate(clusterCA, 'carol', ['qa']);
      expect(await whoami({ clientCert: carol, headers: { 'X-Remote-User': 'dave', 'X-Remote-Group': 'system:masters' } })).toEqual({
        username: 'carol',
        groups: ['qa', 'system:authenticated'],
      });
      // Even the admin's certificate does not make the headers count.
      expect(await whoami({ clientCert: admin, headers: { 'X-Remote-User': 'dave' } })).toEqual({ username: 'plinth-admin', groups: ['system:masters', 'system:authenticated'] });
    });

    it('rejects a proxy certificate whose CN is not an allowed name with 401', async () => {
      const intruder = issueClientCertificate(frontProxyCA, 'not-the-proxy');
      const res = await call('GET', '/api/v1/namespaces', { clientCert: intruder, headers: { 'X-Remote-User': 'dave', 'X-Remote-Group': 'system:masters' } });
      expect(res.status).toBe(401);
      expect(res.json).toEqual(unauthorizedStatus);
    });

    it('rejects an allowed proxy that asserts no user with 401', async () => {
      const res = await call('GET', '/api/v1/namespaces', { clientCert: proxy, headers: { 'X-Remote-Group': 'system:masters' } });
      expect(res.status).toBe(401);
      expect(res.json).toEqual(unauthorizedStatus);
    });
  });
});
