// Discovery, versions, health, aliases and --runtime-config.
import { startTestApiServer } from '@plinth/testing-server';
import { client, suiteServer } from './http';
import { eventually } from '@plinth/testing';

// platformGroups are the built-in groups in kube-apiserver 1.28's order; aliasGroups their
// *.k8s.io aliases, listed after them.
const platformGroups = [
  'apps',
  'authentication.platform.io',
  'authorization.platform.io',
  'batch',
  'rbac.authorization.platform.io',
  'storage.platform.io',
  'apiextensions.platform.io',
  'coordination.platform.io',
  'node.platform.io',
];
const aliasGroups = platformGroups.filter((g) => g.endsWith('.platform.io')).map((g) => g.replace(/\.platform\.io$/, '.k8s.io'));
const aggregatedAccept = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

describe('API server: discovery and health', () => {
  const server = suiteServer();
  const { request } = server;

  it('serves /api, /api/v1 and /apis', async () => {
    const api = await request('GET', '/api');
    expect(api.json).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    const v1 = await request('GET', '/api/v1');
    // kube-apiserver's core resource list has a kind and no apiVersion; a named group's has both.
    expect(v1.json).toMatchObject({ kind: 'APIResourceList', groupVersion: 'v1' });
    expect(v1.json).not.toHaveProperty('apiVersion');
    const names = v1.json.resources.map((r: { name: string }) => r.name);
    expect(names).toEqual(expect.arrayContaining(['namespaces', 'namespaces/status', 'pods', 'pods/status', 'nodes', 'serviceaccounts']));
    const pods = v1.json.resources.find((r: { name: string }) => r.name === 'pods');
    expect(pods).toMatchObject({ singularName: 'pod', namespaced: true, kind: 'Pod', shortNames: ['po'] });
    expect(pods.verbs).toEqual(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    const batch = await request('GET', '/apis/batch/v1');
    expect(batch.json.resources.map((r: { name: string }) => r.name)).toEqual(['jobs', 'jobs/status']);
    expect(batch.json).toMatchObject({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'batch/v1' });
  });

  // The values are kube-apiserver 1.28's for the same types: the hash is of the Kubernetes name.
  it('gives each stored resource kube-apiserver\'s storageVersionHash, and a review or subresource none', async () => {
    const hashes = async (path: string) => Object.fromEntries((await request('GET', path)).json.resources.map((r: { name: string; storageVersionHash?: string }) => [r.name, r.storageVersionHash]));
    expect(await hashes('/api/v1')).toMatchObject({ pods: 'xPOwRZ+Yhw8=', namespaces: 'Q3oi5N2YM8M=', serviceaccounts: 'pbx9ZvyFpBE=', 'pods/status': undefined, 'pods/binding': undefined });
    expect(await hashes('/apis/batch/v1')).toEqual({ jobs: 'mudhfqk/qZY=', 'jobs/status': undefined });
    expect(await hashes('/apis/rbac.authorization.platform.io/v1')).toEqual({ clusterrolebindings: '48tpQ8gZHFc=', clusterroles: 'bYE5ZWDrJ44=', rolebindings: 'eGsCzGH6b1g=', roles: '7FuwZcIIItM=' });
    expect(await hashes('/apis/rbac.authorization.k8s.io/v1')).toEqual(await hashes('/apis/rbac.authorization.platform.io/v1'));
    expect(await hashes('/apis/authorization.platform.io/v1')).toEqual({ localsubjectaccessreviews: undefined, selfsubjectaccessreviews: undefined, selfsubjectrulesreviews: undefined, subjectaccessreviews: undefined });
    const binding = (await request('GET', '/api/v1')).json.resources.find((r: { name: string }) => r.name === 'pods/binding');
    expect(binding).toEqual({ name: 'pods/binding', singularName: '', namespaced: true, kind: 'Binding', verbs: ['create'] });
  });

  it('lists the groups in /apis in kube-apiserver 1.28\'s order, then their *.k8s.io aliases in the same order', async () => {
    const apis = await request('GET', '/apis');
    expect(apis.json.groups.map((g: { name: string }) => g.name)).toEqual([...platformGroups, ...aliasGroups]);
    const rbacAlias = apis.json.groups.find((g: { name: string }) => g.name === 'rbac.authorization.k8s.io');
    expect(rbacAlias).toEqual({
      name: 'rbac.authorization.k8s.io',
      versions: [{ groupVersion: 'rbac.authorization.k8s.io/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'rbac.authorization.k8s.io/v1', version: 'v1' },
    });
    const aggregated = await request('GET', '/apis', { headers: { accept: aggregatedAccept } });
    expect(aggregated.json.items.map((g: { metadata: { name: string } }) => g.metadata.name)).toEqual([...platformGroups, ...aliasGroups]);
    const roles = aggregated.json.items
      .find((g: { metadata: { name: string } }) => g.metadata.name === 'rbac.authorization.k8s.io')
      .versions[0].resources.find((r: { resource: string }) => r.resource === 'roles');
    expect(roles).toMatchObject({ resource: 'roles', responseKind: { group: '', version: '', kind: 'Role' }, scope: 'Namespaced' });
  });

  // As kube-apiserver 1.28 answers (checked against it): go-restful's web services claim /api and
  // each built-in group, so a path under them that no route takes is a NotFound Status; a path
  // under an unknown group, or a custom resources' group, falls through to Go's NotFound.
  it('answers an unknown group with Go\'s plain-text 404, and an unknown version or resource of a built-in group with a Status', async () => {
    await request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      body: {
        metadata: { name: 'widgets.discovery.example.com' },
        spec: {
          group: 'discovery.example.com',
          scope: 'Namespaced',
          names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
          versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
        },
      },
    });
    const widgets = await eventually(() => request('GET', '/apis/discovery.example.com/v1'), { until: (r) => r.status === 200 });
    // apiextensions-apiserver lists a custom resource's verbs in its own order.
    expect(widgets.json.resources).toEqual([
      {
        name: 'widgets',
        singularName: 'widget',
        namespaced: true,
        kind: 'Widget',
        verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
        storageVersionHash: 'l7Sq46qTXgM=',
      },
    ]);
    const plain = [
      '/apis/nosuch.example.com',
      '/apis/nosuch.example.com/v1',
      '/apis/nosuch.example.com/v1/widgets',
      '/apis/discovery.example.com/v9',
      '/apis/discovery.example.com/v1/gadgets',
      '/apis/discovery.example.com/v9/widgets',
    ];
    for (const path of plain) {
      const res = await request('GET', path);
      expect({ path, status: res.status, type: res.headers.get('content-type'), text: res.text }).toEqual({ path, status: 404, type: 'text/plain; charset=utf-8', text: '404 page not found\n' });
    }
    const notFoundStatus = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 };
    for (const path of ['/api/v9', '/api/v1/widgets', '/apis/batch/v9', '/apis/batch/v9/jobs', '/apis/batch/v1/widgets', '/apis/rbac.authorization.k8s.io/v9', '/api/v1/namespaces/default/nodes']) {
      const res = await request('GET', path);
      expect({ path, status: res.status, json: res.json }).toEqual({ path, status: 404, json: notFoundStatus });
    }

    // Another method: go-restful's GET-only routes refuse it, the aggregator's and
    // apiextensions' discovery handlers and the health checks answer it.
    const methodNotAllowed = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server does not allow this method on the requested resource', reason: 'MethodNotAllowed', details: {}, code: 405 };
    for (const path of ['/version', '/api', '/api/v1', '/apis/batch/v1', '/apis/rbac.authorization.k8s.io/v1']) {
      const res = await request('POST', path);
      expect({ path, status: res.status, json: res.json }).toEqual({ path, status: 405, json: methodNotAllowed });
    }
    const answered = { '/apis': 'APIGroupList', '/apis/batch': 'APIGroup', '/apis/discovery.example.com/v1': 'APIResourceList' };
    for (const [path, kind] of Object.entries(answered)) {
      const res = await request('PUT', path);
      expect({ path, status: res.status, kind: res.json?.kind }).toEqual({ path, status: 200, kind });
    }
    expect((await request('DELETE', '/healthz')).text).toBe('ok');
    expect((await request('POST', '/apis/nosuch.example.com')).text).toBe('404 page not found\n');
  });

  it('publishes the aliases in OpenAPI: their own v3 documents, and their kinds on the shared v2 definitions', async () => {
    const root = await request('GET', '/openapi/v3');
    expect(Object.keys(root.json.paths)).toEqual(expect.arrayContaining(['apis/rbac.authorization.platform.io/v1', 'apis/rbac.authorization.k8s.io/v1']));
    const alias = await request('GET', '/openapi/v3/apis/rbac.authorization.k8s.io/v1');
    expect(alias.json.components.schemas['io.k8s.api.rbac.v1.Role']['x-kubernetes-group-version-kind']).toEqual([{ group: 'rbac.authorization.k8s.io', kind: 'Role', version: 'v1' }]);
    expect(Object.keys(alias.json.paths)).toContain('/apis/rbac.authorization.k8s.io/v1/namespaces/{namespace}/roles');
    const v2 = await request('GET', '/openapi/v2');
    expect(v2.json.definitions['io.k8s.api.rbac.v1.Role']['x-kubernetes-group-version-kind']).toEqual([
      { group: 'rbac.authorization.platform.io', kind: 'Role', version: 'v1' },
      { group: 'rbac.authorization.k8s.io', kind: 'Role', version: 'v1' },
    ]);
    // Swagger 2.0 operation ids stay unique: the aliases add no paths there.
    const ids = Object.values(v2.json.paths as Record<string, Record<string, { operationId?: string }>>).flatMap((item) => Object.values(item).flatMap((op) => (op.operationId ? [op.operationId] : [])));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('serves the *.k8s.io groups as aliases in the name the client used', async () => {
    const created = await request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'alias-role' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] },
    });
    expect(created.status).toBe(201);
    expect(created.json.apiVersion).toBe('rbac.authorization.k8s.io/v1');
    const native = await request('GET', '/apis/rbac.authorization.platform.io/v1/clusterroles/alias-role');
    expect(native.json.apiVersion).toBe('rbac.authorization.platform.io/v1');
    // The one cached object, served in turn under each name (its JSON kept for each), answers
    // every time in the name asked for.
    for (const group of ['rbac.authorization.k8s.io', 'rbac.authorization.platform.io', 'rbac.authorization.k8s.io', 'rbac.authorization.platform.io']) {
      const read = await request('GET', `/apis/${group}/v1/clusterroles/alias-role`);
      expect(read.json).toMatchObject({ apiVersion: `${group}/v1`, kind: 'ClusterRole', metadata: { name: 'alias-role' } });
    }
  });

  it('serves aggregated discovery (v2beta1) when asked, and legacy discovery otherwise', async () => {
    const accept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
    const apis = await request('GET', '/apis', { headers: { accept } });
    expect(apis.headers.get('content-type')).toBe('application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList');
    expect(apis.json.kind).toBe('APIGroupDiscoveryList');
    const batch = apis.json.items.find((g: { metadata: { name: string } }) => g.metadata.name === 'batch');
    const jobs = batch.versions[0].resources.find((r: { resource: string }) => r.resource === 'jobs');
    // kube-apiserver 1.28 leaves a responseKind's group and version empty when they are the
    // resource's own.
    expect(jobs).toMatchObject({ responseKind: { group: '', version: '', kind: 'Job' }, scope: 'Namespaced', singularResource: 'job' });
    expect(jobs.subresources).toEqual([{ subresource: 'status', responseKind: { group: '', version: '', kind: 'Job' }, verbs: ['get', 'patch', 'update'] }]);
    const token = (await request('GET', '/api', { headers: { accept } })).json.items[0].versions[0].resources.find((r: { resource: string }) => r.resource === 'serviceaccounts');
    expect(token.subresources).toEqual([{ subresource: 'token', responseKind: { group: 'authentication.platform.io', version: 'v1', kind: 'TokenRequest' }, verbs: ['create'] }]);
    const core = await request('GET', '/api', { headers: { accept } });
    expect(core.json.items.map((g: { metadata: object }) => g.metadata)).toEqual([{ creationTimestamp: null }]);
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

describe('API server: --k8s-aliases=false', () => {
  const server = suiteServer({ k8sAliases: false });
  const { request } = server;

  it('lists, publishes and serves no *.k8s.io group', async () => {
    const apis = await request('GET', '/apis');
    expect(apis.json.groups.map((g: { name: string }) => g.name)).toEqual(platformGroups);
    const aggregated = await request('GET', '/apis', { headers: { accept: aggregatedAccept } });
    expect(aggregated.json.items.map((g: { metadata: { name: string } }) => g.metadata.name)).toEqual(platformGroups);
    const openapi = await request('GET', '/openapi/v3');
    expect(Object.keys(openapi.json.paths).filter((p) => p.includes('k8s.io'))).toEqual([]);
    const v2 = await request('GET', '/openapi/v2');
    expect(v2.json.definitions['io.k8s.api.rbac.v1.Role']['x-kubernetes-group-version-kind']).toEqual([{ group: 'rbac.authorization.platform.io', kind: 'Role', version: 'v1' }]);
    expect((await request('GET', '/apis/rbac.authorization.k8s.io')).text).toBe('404 page not found\n');
    expect((await request('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles')).text).toBe('404 page not found\n');
    expect((await request('GET', '/apis/rbac.authorization.platform.io/v1/clusterroles')).status).toBe(200);
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

  it('keeps alpha versions, and the betas kube-apiserver 1.28 keeps off, off by default', async () => {
    const server = await startTestApiServer();
    try {
      expect((await client(server.url)('GET', '/apis/authentication.platform.io/v1alpha1')).status).toBe(404);
      expect((await client(server.url)('GET', '/apis/authentication.platform.io/v1beta1')).status).toBe(404);
      const group = await client(server.url)('GET', '/apis/authentication.platform.io');
      expect(group.json.versions).toEqual([{ groupVersion: 'authentication.platform.io/v1', version: 'v1' }]);
    } finally {
      await server.stop();
    }
  });

  it('serves such a beta when asked by its group version or api/beta', async () => {
    for (const runtimeConfig of ['authentication.platform.io/v1beta1=true', 'api/beta=true']) {
      const server = await startTestApiServer({ runtimeConfig });
      try {
        const list = await client(server.url)('GET', '/apis/authentication.platform.io/v1beta1');
        expect({ runtimeConfig, resources: list.json?.resources?.map((r: { name: string }) => r.name) }).toEqual({ runtimeConfig, resources: ['selfsubjectreviews'] });
      } finally {
        await server.stop();
      }
    }
  });
});
