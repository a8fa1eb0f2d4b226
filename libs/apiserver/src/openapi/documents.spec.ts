import { ResourceCatalog } from '@plinth/registry';
import { documentHash, OpenApiDocuments } from './service';
import { clusterRoleDefinition, configMapDefinition, jobDefinition } from './test-definitions';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function parse(buf: Buffer): Json {
  return JSON.parse(buf.toString('utf8'));
}

// v3 is the serialized document of a group version, which must exist.
function v3(documents: OpenApiDocuments, path: string) {
  const doc = documents.v3(path);
  if (!doc) throw new Error(`no document ${path}`);
  return doc;
}

function operations(doc: Json): Json[] {
  return Object.values(doc['paths'] as Json).flatMap((item: Json) => ['get', 'put', 'post', 'delete', 'patch'].filter((m) => item[m]).map((m) => item[m]));
}

// refs lists every $ref in a document.
function refs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refs(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

describe('OpenAPI v3 documents', () => {
  const catalog = new ResourceCatalog([jobDefinition, clusterRoleDefinition]);
  const documents = new OpenApiDocuments(catalog);
  const batch = parse(v3(documents, 'apis/batch/v1').body);
  const rbac = parse(v3(documents, 'apis/rbac.authorization.platform.io/v1').body);
  const schemas = batch['components']['schemas'] as Json;

  it('lists every group version in the discovery root with the hash of its document', () => {
    const root = parse(documents.v3Root().body);
    expect(Object.keys(root['paths'])).toEqual(['apis/batch/v1', 'apis/rbac.authorization.platform.io/v1']);
    const hash = documentHash(v3(documents, 'apis/batch/v1').body);
    expect(hash).toMatch(/^[0-9A-F]{128}$/);
    expect(root['paths']['apis/batch/v1']).toEqual({ serverRelativeURL: `/openapi/v3/apis/batch/v1?hash=${hash}` });
    expect(batch['openapi']).toBe('3.0.0');
  });

  it('names operations as Kubernetes does', () => {
    expect(operations(batch).map((op) => op['operationId']).sort()).toEqual(
      [
        'createBatchV1NamespacedJob',
        'deleteBatchV1CollectionNamespacedJob',
        'deleteBatchV1NamespacedJob',
        'listBatchV1JobForAllNamespaces',
        'listBatchV1NamespacedJob',
        'patchBatchV1NamespacedJob',
        'patchBatchV1NamespacedJobStatus',
        'readBatchV1NamespacedJob',
        'readBatchV1NamespacedJobStatus',
        'replaceBatchV1NamespacedJob',
        'replaceBatchV1NamespacedJobStatus',
        'watchBatchV1JobListForAllNamespaces',
        'watchBatchV1NamespacedJob',
        'watchBatchV1NamespacedJobList',
      ].sort(),
    );
    const ids = operations(rbac).map((op) => op['operationId']);
    expect(ids).toEqual(expect.arrayContaining(['readRbacAuthorizationV1ClusterRole', 'deleteRbacAuthorizationV1CollectionClusterRole', 'watchRbacAuthorizationV1ClusterRoleList']));
    expect(rbac['paths']['/apis/rbac.authorization.platform.io/v1/clusterroles/{name}']['get']['tags']).toEqual(['rbacAuthorization_v1']);
  });

  it('offers fieldValidation, dryRun, fieldManager and force on PATCH, with the patch media types', () => {
    const patch = batch['paths']['/apis/batch/v1/namespaces/{namespace}/jobs/{name}']['patch'];
    expect(patch['x-kubernetes-action']).toBe('patch');
    expect(patch['x-kubernetes-group-version-kind']).toEqual({ group: 'batch', version: 'v1', kind: 'Job' });
    expect(patch['parameters'].map((p: Json) => `${p['in']}:${p['name']}`)).toEqual(['query:dryRun', 'query:fieldManager', 'query:fieldValidation', 'query:force']);
    expect(Object.keys(patch['requestBody']['content'])).toEqual([
      'application/apply-patch+yaml',
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
    ]);
    expect(patch['requestBody']['content']['application/merge-patch+json']['schema']).toEqual({ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' });
    expect(Object.keys(patch['responses']['200']['content'])).toEqual(['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']);
    const create = batch['paths']['/apis/batch/v1/namespaces/{namespace}/jobs']['post'];
    expect(create['parameters'].map((p: Json) => p['name'])).toEqual(['dryRun', 'fieldManager', 'fieldValidation']);
    expect(Object.keys(create['responses'])).toEqual(['200', '201', '202', '401']);
    const list = batch['paths']['/apis/batch/v1/namespaces/{namespace}/jobs']['get'];
    expect(list['responses']['200']['content']['application/json;stream=watch']['schema']['$ref']).toBe('#/components/schemas/io.k8s.api.batch.v1.JobList');
    expect(batch['paths']['/apis/batch/v1/namespaces/{namespace}/jobs/{name}']['parameters'].map((p: Json) => p['name'])).toEqual(['name', 'namespace', 'pretty']);
  });

  it('marks kinds and list kinds with x-kubernetes-group-version-kind', () => {
    expect(schemas['io.k8s.api.batch.v1.Job']['x-kubernetes-group-version-kind']).toEqual([{ group: 'batch', kind: 'Job', version: 'v1' }]);
    expect(schemas['io.k8s.api.batch.v1.JobList']['x-kubernetes-group-version-kind']).toEqual([{ group: 'batch', kind: 'JobList', version: 'v1' }]);
    expect(schemas['io.k8s.api.batch.v1.JobList']['properties']['items']['items']['allOf']).toEqual([{ $ref: '#/components/schemas/io.k8s.api.batch.v1.Job' }]);
    // A platform group's kind without a ref is named after its *.k8s.io twin's Go package.
    const role = rbac['components']['schemas']['io.k8s.api.rbac.v1.ClusterRole'];
    expect(role['x-kubernetes-group-version-kind']).toEqual([{ group: 'rbac.authorization.platform.io', kind: 'ClusterRole', version: 'v1' }]);
    // Descriptions are Kubernetes' (kube-descriptions.json), not the Schemas' shorter ones.
    expect(role['description']).toBe('ClusterRole is a cluster level, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding or ClusterRoleBinding.');
    expect(schemas['io.k8s.apimachinery.pkg.apis.meta.v1.Status']['x-kubernetes-group-version-kind']).toEqual([{ group: '', kind: 'Status', version: 'v1' }]);
    expect(schemas['io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions']['x-kubernetes-group-version-kind']).toEqual([
      { group: '', kind: 'DeleteOptions', version: 'v1' },
      { group: 'batch', kind: 'DeleteOptions', version: 'v1' },
    ]);
  });

  it('gives the members Kubernetes holds by value their zero value as default, as kube-openapi 3 does', () => {
    const job = schemas['io.k8s.api.batch.v1.Job']['properties'];
    expect(job['metadata']).toMatchObject({ default: {}, allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }] });
    expect(job['apiVersion']).not.toHaveProperty('default');
    const meta = schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']['properties'];
    expect(meta['labels']['additionalProperties']).toEqual({ type: 'string', default: '' });
    expect(meta['finalizers']['items']).toEqual({ type: 'string', default: '' });
    expect(meta['creationTimestamp']['allOf']).toEqual([{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time' }]);
    expect(meta['name']).not.toHaveProperty('default');
  });

  it('writes list, map and patch markers as x-kubernetes-* and x-platform-* extensions', () => {
    const containers = schemas['io.k8s.api.core.v1.PodSpec']['properties']['containers'];
    expect(containers).toMatchObject({ type: 'array', 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge', 'x-platform-patch-merge-key': 'name' });
    const owners = schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']['properties']['ownerReferences'];
    expect(owners).toMatchObject({ 'x-kubernetes-patch-merge-key': 'uid', 'x-kubernetes-patch-strategy': 'merge', 'x-platform-patch-merge-key': 'uid' });
    expect(owners).not.toHaveProperty('x-kubernetes-list-type');
    expect(schemas['io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector']).toMatchObject({ 'x-kubernetes-map-type': 'atomic', 'x-platform-map-type': 'atomic' });
    expect(schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry']['properties']['fieldsV1']['allOf']).toEqual([{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1' }]);
    expect(schemas['io.k8s.api.core.v1.HTTPGetAction']['properties']['port']['allOf']).toEqual([{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrString' }]);
    expect(schemas['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toMatchObject({ format: 'int-or-string', 'x-kubernetes-int-or-string': true });
    expect(schemas['io.k8s.api.batch.v1.JobSpec']['properties']['completionMode']).toMatchObject({
      enum: ['NonIndexed', 'Indexed'],
      description: expect.stringMatching(/^completionMode specifies how Pod completions are tracked\.[\s\S]*\n\nPossible enum values:\n - `"Indexed"`/),
    });
    // The field's own description wins over the type's.
    expect(schemas['io.k8s.api.batch.v1.JobSpec']['properties']['template']['description']).toMatch(/^Describes the pod that will be created when executing a job\. The only allowed/);
  });

  it('defines every schema it refers to', () => {
    for (const doc of [batch, rbac]) {
      const defined = new Set(Object.keys(doc['components']['schemas']).map((name) => `#/components/schemas/${name}`));
      expect(refs(doc).filter((ref) => !defined.has(ref))).toEqual([]);
    }
    for (const name of ['Time', 'ListMeta', 'ObjectMeta', 'WatchEvent']) expect(schemas[`io.k8s.apimachinery.pkg.apis.meta.v1.${name}`]).toBeDefined();
    expect(schemas['io.k8s.apimachinery.pkg.api.resource.Quantity']).toBeDefined();
  });

  it('keeps hashes stable and changes them with the catalog', () => {
    const changing = new ResourceCatalog([jobDefinition, clusterRoleDefinition]);
    const docs = new OpenApiDocuments(changing);
    const before = { root: docs.v3Root().hash, batch: v3(docs, 'apis/batch/v1').hash, v2: docs.v2().hash };
    expect(v3(new OpenApiDocuments(new ResourceCatalog([jobDefinition, clusterRoleDefinition])), 'apis/batch/v1').hash).toBe(before.batch);
    expect(docs.v3Root().hash).toBe(before.root);
    expect(docs.generation).toBe(1);

    docs.invalidate();
    expect(docs.v3Root().hash).toBe(before.root);
    expect(docs.generation).toBe(2);

    changing.add(configMapDefinition);
    const root = parse(docs.v3Root().body);
    expect(Object.keys(root['paths'])).toEqual(['api/v1', 'apis/batch/v1', 'apis/rbac.authorization.platform.io/v1']);
    expect(docs.v3Root().hash).not.toBe(before.root);
    expect(docs.v2().hash).not.toBe(before.v2);
    expect(v3(docs, 'apis/batch/v1').hash).toBe(before.batch);
    expect(docs.generation).toBe(3);

    changing.remove('rbac.authorization.platform.io', 'v1', 'clusterroles');
    expect(docs.v3('apis/rbac.authorization.platform.io/v1')).toBeUndefined();
  });
});

describe('OpenAPI v2 document', () => {
  const documents = new OpenApiDocuments(new ResourceCatalog([jobDefinition, clusterRoleDefinition, configMapDefinition]));
  const swagger = parse(documents.v2().body);

  it('carries every kind with its GVK and every operation', () => {
    expect(swagger['swagger']).toBe('2.0');
    expect(swagger['definitions']['io.k8s.api.core.v1.ConfigMap']['x-kubernetes-group-version-kind']).toEqual([{ group: '', kind: 'ConfigMap', version: 'v1' }]);
    expect(swagger['definitions']['io.k8s.api.batch.v1.Job']['properties']['spec']).toMatchObject({ $ref: '#/definitions/io.k8s.api.batch.v1.JobSpec' });
    const patch = swagger['paths']['/api/v1/namespaces/{namespace}/configmaps/{name}']['patch'];
    expect(patch['operationId']).toBe('patchCoreV1NamespacedConfigMap');
    expect(patch['consumes']).toEqual(['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml']);
    expect(patch['parameters']).toEqual(expect.arrayContaining([{ uniqueItems: true, type: 'string', description: expect.any(String), name: 'fieldValidation', in: 'query' }]));
    expect(patch['parameters'][0]).toEqual({ name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' } });
    expect(swagger['definitions']['io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions']['x-kubernetes-group-version-kind']).toHaveLength(3);
    const defined = new Set(Object.keys(swagger['definitions']).map((name) => `#/definitions/${name}`));
    expect(refs(swagger).filter((ref) => !defined.has(ref))).toEqual([]);
    expect(JSON.stringify(swagger)).not.toMatch(/"(anyOf|oneOf|allOf)"/);
  });
});

describe('OpenAPI patch media types of a custom resource', () => {
  // A custom resource takes no strategic merge patch; kubectl's client-side apply reads v2's
  // consumes to choose its patch, so they must not offer one (kube-apiserver 1.28's order).
  const widgets = { ...configMapDefinition, group: 'example.com', kind: 'Widget', resource: 'widgets', unstructured: true };
  const documents = new OpenApiDocuments(new ResourceCatalog([widgets]));

  it('lists json, merge and apply patches only, in v2 and v3', () => {
    const swagger = parse(documents.v2().body);
    expect(swagger['paths']['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}']['patch']['consumes']).toEqual(['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']);
    const v3doc = parse(v3(documents, 'apis/example.com/v1').body);
    expect(Object.keys(v3doc['paths']['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}']['patch']['requestBody']['content'])).toEqual(['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json']);
  });
});
