// Anonymous requests (--anonymous-auth=true, the default, as kube-apiserver's) against the real
// all-in-one process over TLS: a request without credentials is system:anonymous in
// system:unauthenticated, which the bootstrap policy lets read the health and version endpoints
// and nothing else (discovery is for authenticated users); a credential that fails is still a
// 401, never anonymous. Answers as kube-apiserver 1.28 gives them (checked against it).
// test/security/authentication.spec.ts runs with --anonymous-auth=false.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PlinthProcess, startPlinth } from '@plinth/testing-server';
import { eventually } from '@plinth/testing';
import { issueClientCertificate, KeyPair, newCertificateAuthority, TlsRequestOptions, tlsRequest } from './tls';

const unauthorizedStatus = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };

describe('anonymous requests over TLS against the all-in-one process with its default flags', () => {
  let plinth: PlinthProcess;
  let ca: string;
  let admin: KeyPair;
  const call = (method: string, path: string, options: Omit<TlsRequestOptions, 'ca'> = {}) => tlsRequest(plinth.url, method, path, { ca, ...options });

  beforeAll(async () => {
    plinth = await startPlinth([], { timeoutMs: 60000 });
    const pkiDir = join(plinth.dataDir, 'pki');
    ca = readFileSync(join(pkiDir, 'ca.crt'), 'utf8');
    admin = { certPem: readFileSync(join(pkiDir, 'admin.crt'), 'utf8'), keyPem: readFileSync(join(pkiDir, 'admin.key'), 'utf8') };
  }, 90000);

  afterAll(() => plinth?.stop());

  it('lets system:anonymous read /healthz, /readyz and /version through system:public-info-viewer', async () => {
    const healthz = await call('GET', '/healthz');
    expect({ status: healthz.status, text: healthz.text }).toEqual({ status: 200, text: 'ok' });
    expect((await call('GET', '/readyz')).status).toBe(200);
    expect((await call('GET', '/livez')).status).toBe(200);
    const version = await call('GET', '/version');
    expect(version.status).toBe(200);
    expect(version.json.major).toBe('1');
  });

  it('forbids system:anonymous to list namespaces, with Kubernetes\' message', async () => {
    const res = await call('GET', '/api/v1/namespaces');
    expect(res.status).toBe(403);
    expect(res.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
      reason: 'Forbidden',
      details: { kind: 'namespaces' },
      code: 403,
    });
  });

  it('forbids system:anonymous discovery, OpenAPI, metrics and health checks by name, as system:discovery is for authenticated users', async () => {
    for (const path of ['/api', '/apis', '/openapi/v2', '/metrics', '/healthz/etcd']) {
      const res = await call('GET', path);
      expect({ path, status: res.status, json: res.json }).toEqual({
        path,
        status: 403,
        json: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `forbidden: User "system:anonymous" cannot get path "${path}"`, reason: 'Forbidden', details: {}, code: 403 },
      });
    }
  });

  it('is system:anonymous in group system:unauthenticated, as SelfSubjectReview tells once that group may ask', async () => {
    // basic-user (which allows SelfSubjectReview) is bound to system:authenticated only.
    const denied = await call('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { body: {} });
    expect(denied.status).toBe(403);
    // The k8s.io alias is authorized as the platform group it serves.
    expect(denied.json.message).toBe(
      'selfsubjectreviews.authentication.platform.io is forbidden: User "system:anonymous" cannot create resource "selfsubjectreviews" in API group "authentication.platform.io" at the cluster scope',
    );
    await call('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      clientCert: admin,
      body: { metadata: { name: 'self-review' }, rules: [{ apiGroups: ['authentication.platform.io'], resources: ['selfsubjectreviews'], verbs: ['create'] }] },
    });
    const bound = await call('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      clientCert: admin,
      body: {
        metadata: { name: 'unauthenticated-self-review' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'self-review' },
        subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:unauthenticated' }],
      },
    });
    expect(bound.status).toBe(201);
    const review = await eventually(() => call('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { body: {} }), { until: (answer) => answer.status === 201, what: 'the anonymous review allowed' });
    expect(review.json.status.userInfo).toEqual({ username: 'system:anonymous', groups: ['system:unauthenticated'] });
  });

  it('answers 401, not anonymous, to a bad token or a certificate from an unknown CA', async () => {
    const token = await call('GET', '/healthz', { token: 'no-such-token' });
    expect(token.status).toBe(401);
    expect(token.json).toEqual(unauthorizedStatus);
    const stranger = issueClientCertificate(newCertificateAuthority('stranger-ca'), 'mallory');
    const cert = await call('GET', '/healthz', { clientCert: stranger });
    expect(cert.status).toBe(401);
    expect(cert.json).toEqual(unauthorizedStatus);
  });
});
