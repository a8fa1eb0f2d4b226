// Discovery, versions, health, aliases and --runtime-config.
import { startTestApiServer } from '@plinth/testing-server';
import { client, suiteServer } from './http';

describe('API server: discovery and health', () => {
  const server = suiteServer();
  const { request } = server;

  it('serves /api, /api/v1 and /apis', async () => {
    const api = await request('GET', '/api');
    expect(api.json).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    const v1 = await request('GET', '/api/v1');
    const names = v1.json.resources.map((r: { name: string }) => r.name);
    expect(names).toEqual(expect.arrayContaining(['namespaces', 'namespaces/status', 'pods', 'pods/status', 'nodes', 'serviceaccounts']));
    const pods = v1.json.resources.find((r: { name: string }) => r.name === 'pods');
    expect(pods).toMatchObject({ singularName: 'pod', namespaced: true, kind: 'Pod', shortNames: ['po'] });
    expect(pods.verbs).toEqual(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    const apis = await request('GET', '/apis');
    const groups = apis.json.groups.map((g: { name: string }) => g.name);
    expect(groups).toEqual(expect.arrayContaining(['apps', 'batch', 'rbac.authorization.platform.io', 'storage.platform.io', 'node.platform.io', 'coordination.platform.io', 'authorization.platform.io']));
    // Only apiextensions is advertised under its k8s.io alias too: CRD manifests name it.
    expect(groups.filter((g: string) => g.endsWith('k8s.io'))).toEqual(['apiextensions.k8s.io']);
    const batch = await request('GET', '/apis/batch/v1');
    expect(batch.json.resources.map((r: { name: string }) => r.name)).toEqual(['jobs', 'jobs/status']);
  });

  it('serves the *.k8s.io groups as aliases in the name the client used', async () => {
    const created = await request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'alias-role' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] },
    });
    expect(created.status).toBe(201);
    expect(created.json.apiVersion).toBe('rbac.authorization.k8s.io/v1');
    const native = await request('GET', '/apis/rbac.authorization.platform.io/v1/clusterroles/alias-role');
    expect(native.json.apiVersion).toBe('rbac.authorization.platform.io/v1');
  });

  it('serves aggregated discovery (v2beta1) when asked, and legacy discovery otherwise', async () => {
    const accept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
    const apis = await request('GET', '/apis', { headers: { accept } });
    expect(apis.headers.get('content-type')).toBe('application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList');
    expect(apis.json.kind).toBe('APIGroupDiscoveryList');
    const batch = apis.json.items.find((g: { metadata: { name: string } }) => g.metadata.name === 'batch');
    const jobs = batch.versions[0].resources.find((r: { resource: string }) => r.resource === 'jobs');
    expect(jobs).toMatchObject({ responseKind: { group: 'batch', version: 'v1', kind: 'Job' }, scope: 'Namespaced', singularResource: 'job' });
    expect(jobs.subresources).toEqual([{ subresource: 'status', responseKind: { group: 'batch', version: 'v1', kind: 'Job' }, verbs: ['get', 'patch', 'update'] }]);
    const core = await request('GET', '/api', { headers: { accept } });
    expect(core.json.items.map((g: { metadata: { name: string } }) => g.metadata.name)).toEqual(['']);
    const legacy = await request('GET', '/apis', { headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json' } });
    expect(legacy.json.kind).toBe('APIGroupList');
  });

  it('serves /version', async () => {
    const res = await request('GET', '/version');
    expect(res.json).toMatchObject({ major: '1', minor: '28' });
  });

  it('serves health endpoints with verbose, exclude and per-check paths', async () => {
    const plain = await request('GET', '/readyz');
    expect(plain.status).toBe(200);
    expect(plain.text).toBe('ok');
    const verbose = await request('GET', '/readyz?verbose&exclude=etcd');
    expect(verbose.text).toContain('[+]ping ok');
    expect(verbose.text).toContain('[+]etcd excluded: ok');
    expect(verbose.text).toContain('[+]shutdown ok');
    expect(verbose.text.trim().endsWith('readyz check passed')).toBe(true);
    expect((await request('GET', '/livez/ping')).text).toBe('ok');
    expect((await request('GET', '/livez/nope')).status).toBe(404);
    expect((await request('GET', '/healthz')).text).toBe('ok');
  });

});

describe('API server: --runtime-config', () => {
  it('turns groups and resources off and alpha versions on', async () => {
    const server = await startTestApiServer({ runtimeConfig: 'batch/v1=false,apps/v1/daemonsets=false,api/alpha=true' });
    const request = client(server.url);
    try {
      expect((await request('GET', '/apis/batch/v1/namespaces/default/jobs')).status).toBe(404);
      const apps = await request('GET', '/apis/apps/v1');
      expect(apps.json.resources.map((r: { name: string }) => r.name)).not.toContain('daemonsets');
      expect((await request('GET', '/apis/authentication.platform.io/v1alpha1')).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('keeps alpha versions off by default', async () => {
    const server = await startTestApiServer();
    try {
      expect((await client(server.url)('GET', '/apis/authentication.platform.io/v1alpha1')).status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});
