// The ServiceAccount admission plugin and the service-account controller through HTTP: every
// namespace gets its "default" ServiceAccount (again after it is deleted), new pods run as it
// with the kube-api-access token volume mounted, and a pod naming a missing account is refused
// with kube-apiserver's 403.
import { podManifest, suiteServer } from './http';
import { eventually } from '@plinth/testing';

const tokenPath = '/var/run/secrets/kubernetes.io/serviceaccount';

describe('API server: service accounts of pods', () => {
  const server = suiteServer();
  const { request } = server;

  it('runs a pod as the default account with the kube-api-access projected volume mounted read-only', async () => {
    const created = await request('POST', '/api/v1/namespaces/default/pods', {
      body: podManifest('plain', { initContainers: [{ name: 'init', image: 'busybox' }] }),
    });
    expect(created.status).toBe(201);
    const spec = created.json.spec;
    expect(spec.serviceAccountName).toBe('default');
    expect(spec.serviceAccount).toBe('default');
    expect(spec.volumes).toHaveLength(1);
    const volumeName: string = spec.volumes[0].name;
    expect(volumeName).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(spec.volumes[0]).toEqual({
      name: volumeName,
      projected: {
        sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
          { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
        ],
        defaultMode: 420,
      },
    });
    const mount = { name: volumeName, readOnly: true, mountPath: tokenPath };
    expect(spec.initContainers[0].volumeMounts).toEqual([mount]);
    expect(spec.containers[0].volumeMounts).toEqual([mount]);
    // The stored pod is the one answered.
    const read = await request('GET', '/api/v1/namespaces/default/pods/plain');
    expect(read.json.spec.volumes).toEqual(spec.volumes);
  });

  it('refuses a pod whose account does not exist, naming it by generateName when it has no name', async () => {
    const missing = await request('POST', '/api/v1/namespaces/default/pods', { body: podManifest('ghostly', { serviceAccountName: 'ghost' }) });
    expect(missing.status).toBe(403);
    expect(missing.json).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message: 'pods "ghostly" is forbidden: error looking up service account default/ghost: serviceaccount "ghost" not found',
      details: { name: 'ghostly', kind: 'pods' },
    });
    const generated = await request('POST', '/api/v1/namespaces/default/pods', {
      body: { ...podManifest(''), metadata: { generateName: 'spooky-' }, spec: { ...podManifest('').spec, serviceAccount: 'ghost' } },
    });
    expect(generated.status).toBe(403);
    expect(generated.json.message).toBe('pods "spooky-" is forbidden: error looking up service account default/ghost: serviceaccount "ghost" not found');
  });

  it('mounts no token when the pod or its account opts out, and copies the account image pull secrets', async () => {
    const optOut = await request('POST', '/api/v1/namespaces/default/pods', { body: podManifest('no-token', { automountServiceAccountToken: false }) });
    expect(optOut.status).toBe(201);
    expect(optOut.json.spec.serviceAccountName).toBe('default');
    expect(optOut.json.spec.volumes).toBeUndefined();
    expect(optOut.json.spec.containers[0].volumeMounts).toBeUndefined();

    const account = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder' }, automountServiceAccountToken: false, imagePullSecrets: [{ name: 'registry' }] };
    expect((await request('POST', '/api/v1/namespaces/default/serviceaccounts', { body: account })).status).toBe(201);
    const builder = await request('POST', '/api/v1/namespaces/default/pods', { body: podManifest('builder', { serviceAccountName: 'builder' }) });
    expect(builder.status).toBe(201);
    expect(builder.json.spec).toMatchObject({ serviceAccountName: 'builder', serviceAccount: 'builder', imagePullSecrets: [{ name: 'registry' }] });
    expect(builder.json.spec.volumes).toBeUndefined();
    // The pod's own choice wins over its account's.
    const wanted = await request('POST', '/api/v1/namespaces/default/pods', { body: podManifest('wanted', { serviceAccountName: 'builder', automountServiceAccountToken: true }) });
    expect(wanted.status).toBe(201);
    expect(wanted.json.spec.containers[0].volumeMounts).toEqual([{ name: wanted.json.spec.volumes[0].name, readOnly: true, mountPath: tokenPath }]);
  });

  it('leaves mirror pods without an account and refuses those that reference one', async () => {
    const mirror = { 'platform.io/config.mirror': 'hash' };
    const plain = await request('POST', '/api/v1/namespaces/default/pods', { body: { ...podManifest('mirror'), metadata: { name: 'mirror', annotations: mirror } } });
    expect(plain.status).toBe(201);
    expect(plain.json.spec.serviceAccountName).toBeUndefined();
    expect(plain.json.spec.volumes).toBeUndefined();
    const named = await request('POST', '/api/v1/namespaces/default/pods', {
      body: { ...podManifest('mirror-sa', { serviceAccountName: 'default' }), metadata: { name: 'mirror-sa', annotations: mirror } },
    });
    expect(named.status).toBe(403);
    expect(named.json.message).toBe('pods "mirror-sa" is forbidden: mirror pods may not reference service accounts');
  });

  it('gives a new namespace its default account, so that a pod created right after it is admitted', async () => {
    expect((await request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fresh' } } })).status).toBe(201);
    const created = await request('POST', '/api/v1/namespaces/fresh/pods', { body: podManifest('first') });
    expect(created.status).toBe(201);
    expect(created.json.spec.serviceAccountName).toBe('default');
    const account = await request('GET', '/api/v1/namespaces/fresh/serviceaccounts/default');
    expect(account.status).toBe(200);
    expect(account.json.metadata).toMatchObject({ name: 'default', namespace: 'fresh' });
  });

  it('creates the default account again after it is deleted', async () => {
    expect((await request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'again' } } })).status).toBe(201);
    const first = await eventually(() => request('GET', '/api/v1/namespaces/again/serviceaccounts/default'), { until: (r) => r.status === 200, what: 'the default account' });
    expect((await request('DELETE', '/api/v1/namespaces/again/serviceaccounts/default')).status).toBe(200);
    const second = await eventually(() => request('GET', '/api/v1/namespaces/again/serviceaccounts/default'), { until: (r) => r.status === 200 && r.json.metadata.uid !== first.json.metadata.uid, what: 'the default account coming back' });
    expect(second.json.metadata.name).toBe('default');
  });
});
