// CustomResourceDefinitions over HTTP: the CRD's own validation and status, then its custom
// resources served from the catalog (discovery, OpenAPI, Table columns, schema validation,
// pruning, defaulting, validation rules), and deletion of a CRD taking its resources along.
import { startTestApiServer } from '@plinth/testing-server';
import { client, HttpResponse, openWatch, suiteServer } from './http';
import { eventually, gone } from '@plinth/testing';

const crd = (overrides: Record<string, unknown> = {}) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', kind: 'Widget', shortNames: ['wd'], categories: ['all'] },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        additionalPrinterColumns: [{ name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' }],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            'x-kubernetes-validations': [{ rule: "self.metadata.name != 'forbidden'", message: 'that name is forbidden' }],
            properties: {
              metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 12 } } },
              spec: {
                type: 'object',
                required: ['size'],
                'x-kubernetes-validations': [{ rule: 'self.replicas <= self.maxReplicas', message: 'replicas must not exceed maxReplicas', fieldPath: '.replicas' }],
                properties: {
                  size: { type: 'string', enum: ['small', 'large'] },
                  replicas: { type: 'integer', minimum: 0, maximum: 100, default: 1 },
                  maxReplicas: { type: 'integer', default: 10 },
                  port: { 'x-kubernetes-int-or-string': true },
                  name: { type: 'string', maxLength: 5, 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'name is immutable' }] },
                  tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
                  args: { type: 'array', items: { type: 'string' } },
                  selector: { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'atomic' },
                  labels: { type: 'object', additionalProperties: { type: 'string' } },
                  ports: {
                    type: 'array',
                    'x-kubernetes-list-type': 'map',
                    'x-kubernetes-list-map-keys': ['name'],
                    items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } },
                  },
                },
              },
              status: { type: 'object', properties: { ready: { type: 'boolean' } } },
            },
          },
        },
      },
    ],
    ...overrides,
  },
});

const widget = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec });

describe('API server: custom resource definitions', () => {
  const server = suiteServer();
  const { request } = server;

  it('rejects an invalid CRD with one cause per field, as Kubernetes', async () => {
    const bad = crd({ group: 'example', scope: 'Galaxy', versions: [{ name: 'v1', served: true, storage: false }] });
    (bad.metadata as { name: string }).name = 'gadgets.example';
    const res = await request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: bad });
    expect(res.status).toBe(422);
    expect(res.json.reason).toBe('Invalid');
    const causes = res.json.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
    expect(causes).toEqual(
      expect.arrayContaining([
        'metadata.name: Invalid value: "gadgets.example": must be spec.names.plural+"."+spec.group',
        'spec.group: Invalid value: "example": should be a domain with at least one dot',
        'spec.scope: Unsupported value: "Galaxy": supported values: "Cluster", "Namespaced"',
        'spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required',
      ]),
    );
    expect(causes.some((c: string) => c.startsWith('spec.versions: Invalid value:') && c.endsWith('must have exactly one version marked as storage version'))).toBe(true);
  });

  it('rejects a non-structural schema and a rule that does not compile', async () => {
    const bad = crd();
    const schema = (bad.spec.versions as { schema: { openAPIV3Schema: { properties: Record<string, unknown> } } }[])[0].schema.openAPIV3Schema;
    schema.properties.extra = { properties: { a: { type: 'string' } } };
    schema.properties.rule = { type: 'string', 'x-kubernetes-validations': [{ rule: 'self.size() >' }] };
    const res = await request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: bad });
    expect(res.status).toBe(422);
    expect(res.json.message).toContain('spec.validation.openAPIV3Schema.properties[extra].type: Required value: must not be empty for specified object fields');
  });

  it('type-checks and costs rules when the CRD is written, with kube-apiserver\'s messages', async () => {
    const withRules = (spec: Record<string, unknown>) => {
      const bad = crd();
      (bad.metadata as { name: string }).name = 'typos.example.com';
      bad.spec.names = { plural: 'typos', kind: 'Typo', shortNames: [], categories: [] };
      const schema = (bad.spec.versions as { schema: { openAPIV3Schema: { properties: Record<string, unknown> } } }[])[0].schema.openAPIV3Schema;
      schema.properties.spec = spec;
      return bad;
    };
    const path = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
    const mistyped = await request('POST', path, {
      body: withRules({ type: 'object', properties: { name: { type: 'string', maxLength: 10 } }, 'x-kubernetes-validations': [{ rule: 'self.name == 201' }] }),
    });
    expect(mistyped.status).toBe(422);
    expect(mistyped.json.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule',
        message:
          'Invalid value: apiextensions.ValidationRule{Rule:"self.name == 201", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:""}: ' +
          "compilation failed: ERROR: <input>:1:11: found no matching overload for '_==_' applied to '(string, int)'\n | self.name == 201\n | ..........^",
      },
    ]);
    const costly = await request('POST', path, {
      body: withRules({ type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } }, 'x-kubernetes-validations': [{ rule: 'self.tags.all(a, self.tags.all(b, a == b))' }] }),
    });
    expect(costly.status).toBe(422);
    expect(costly.json.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`)).toContain(
      'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x ' +
        '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
    );
    expect((await request('GET', `${path}/typos.example.com`)).status).toBe(404);
  });

  it('compiles the rules a stored CRD already holds in the full CEL environment, new ones in the 1.27-compatible one', async () => {
    const path = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
    const withRule = (rule: string) => {
      const body = crd();
      (body.metadata as { name: string }).name = 'gauges.example.com';
      body.spec.names = { plural: 'gauges', kind: 'Gauge', shortNames: [], categories: [] };
      const schema = (body.spec.versions as { schema: { openAPIV3Schema: { properties: Record<string, unknown> } } }[])[0].schema.openAPIV3Schema;
      schema.properties.spec = { type: 'object', properties: { i: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule }] };
      return body;
    };
    const crossComparisonRefused =
      'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: ' +
      'apiextensions.ValidationRule{Rule:"self.i < 1.5", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:""}: ' +
      "compilation failed: ERROR: <input>:1:8: found no matching overload for '_<_' applied to '(int, double)'\n | self.i < 1.5\n | .......^";
    const causes = (res: HttpResponse) => res.json.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);

    // an int/double cross comparison compiles only in the full environment: no write adds it
    const created = await request('POST', path, { body: withRule('self.i < 1.5') });
    expect(created.status).toBe(422);
    expect(causes(created)).toEqual([crossComparisonRefused]);
    expect((await request('POST', path, { body: withRule('self.i < 2') })).status).toBe(201);
    const current = (await request('GET', `${path}/gauges.example.com`)).json;
    const added = await request('PUT', `${path}/gauges.example.com`, { body: { ...withRule('self.i < 1.5'), metadata: current.metadata } });
    expect(added.status).toBe(422);
    expect(causes(added)).toEqual([crossComparisonRefused]);

    // a CRD that already stores it (written around the API, as an older server compiled it)
    const key = (await server.store.list({ prefix: '/registry/' })).items.map((kv) => kv.key).find((k) => k.endsWith('/customresourcedefinitions/gauges.example.com'));
    expect(key).toBeDefined();
    const stored = await server.store.get(key as string);
    const object = JSON.parse(Buffer.from(stored.value).toString('utf8'));
    object.spec.versions[0].schema.openAPIV3Schema.properties.spec['x-kubernetes-validations'][0].rule = 'self.i < 1.5';
    await server.store.update(key as string, Buffer.from(JSON.stringify(object)), stored.revision);

    const relabelled = await request('PATCH', `${path}/gauges.example.com`, {
      body: { metadata: { labels: { tier: 'gold' } } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(relabelled.status).toBe(200);
    expect(relabelled.json.metadata.labels).toEqual({ tier: 'gold' });
    expect(relabelled.json.spec.versions[0].schema.openAPIV3Schema.properties.spec['x-kubernetes-validations']).toEqual([{ rule: 'self.i < 1.5' }]);
    const statusWritten = await request('PUT', `${path}/gauges.example.com/status`, { body: relabelled.json });
    expect(statusWritten.status).toBe(200);
    // a rule beside it that is new is still checked in the compatible environment
    const beside = structuredClone(relabelled.json);
    beside.spec.versions[0].schema.openAPIV3Schema.properties.spec['x-kubernetes-validations'].push({ rule: 'self.i > 0.5' });
    const besideRes = await request('PUT', `${path}/gauges.example.com`, { body: beside });
    expect(besideRes.status).toBe(422);
    expect(causes(besideRes)).toEqual([expect.stringContaining("x-kubernetes-validations[1].rule: Invalid value: apiextensions.ValidationRule{Rule:\"self.i > 0.5\"")]);
    expect((await request('DELETE', `${path}/gauges.example.com`)).status).toBe(200);
  });

  it('establishes a CRD and serves its resources', async () => {
    const created = await request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd() });
    expect(created.status).toBe(201);
    expect(created.json.apiVersion).toBe('apiextensions.k8s.io/v1');
    expect(created.json.spec.names).toMatchObject({ singular: 'widget', listKind: 'WidgetList' });
    expect(created.json.status.storedVersions).toEqual(['v1']);

    const established = await eventually(() => request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com'), { until: (r) => r.json?.status?.conditions?.some((c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True') });
    expect(established.json.status.acceptedNames).toMatchObject({ plural: 'widgets', kind: 'Widget' });
    expect(established.json.status.conditions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' }),
        expect.objectContaining({ type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }),
      ]),
    );

    const discovery = await eventually(() => request('GET', '/apis/example.com/v1'), { until: (r) => r.status === 200 });
    expect(discovery.json.resources).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'widgets', kind: 'Widget', namespaced: true, shortNames: ['wd'], categories: ['all'] }),
        expect.objectContaining({ name: 'widgets/status' }),
      ]),
    );
    const aggregated = await request('GET', '/apis', { headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList' } });
    const group = aggregated.json.items.find((g: { metadata: { name: string } }) => g.metadata.name === 'example.com');
    expect(group.versions[0].resources[0]).toMatchObject({
      resource: 'widgets',
      responseKind: { group: 'example.com', version: 'v1', kind: 'Widget' },
      scope: 'Namespaced',
      singularResource: 'widget',
      shortNames: ['wd'],
      categories: ['all'],
    });
    expect(aggregated.json.items.map((g: { metadata: { name: string } }) => g.metadata.name)).toContain('apiextensions.k8s.io');
    const openapi = await request('GET', '/openapi/v3/apis/example.com/v1');
    expect(openapi.status).toBe(200);
    expect(JSON.stringify(openapi.json)).toContain('replicas');
  });

  it('reports a name conflict with another CRD of the group instead of establishing', async () => {
    const clash = crd({ names: { plural: 'gizmos', kind: 'Widget' } });
    (clash.metadata as { name: string }).name = 'gizmos.example.com';
    expect((await request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: clash })).status).toBe(201);
    const rejected = await eventually(() => request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gizmos.example.com'), { until: (r) => r.json?.status?.conditions?.some((c: { type: string }) => c.type === 'NamesAccepted') });
    expect(rejected.json.status.conditions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'NamesAccepted', status: 'False', reason: 'KindConflict', message: '"Widget" is already in use' }),
        expect.objectContaining({ type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' }),
      ]),
    );
    expect((await request('GET', '/apis/example.com/v1/namespaces/default/gizmos')).status).toBe(404);
    await request('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gizmos.example.com');
    await gone(() => request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gizmos.example.com'));
  });

  it('accepts names once the CRD holding them is gone', async () => {
    const first = crd({ group: 'other.example.com', names: { plural: 'tools', kind: 'Tool' } });
    (first.metadata as { name: string }).name = 'tools.other.example.com';
    const second = crd({ group: 'other.example.com', names: { plural: 'utensils', kind: 'Tool' } });
    (second.metadata as { name: string }).name = 'utensils.other.example.com';
    const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
    const condition = (r: HttpResponse, type: string) => r.json?.status?.conditions?.find((c: { type: string }) => c.type === type);
    await request('POST', crdPath, { body: first });
    await eventually(() => request('GET', `${crdPath}/tools.other.example.com`), { until: (r) => condition(r, 'Established')?.status === 'True' });
    await request('POST', crdPath, { body: second });
    await eventually(() => request('GET', `${crdPath}/utensils.other.example.com`), { until: (r) => condition(r, 'NamesAccepted')?.status === 'False' });
    await request('DELETE', `${crdPath}/tools.other.example.com`);
    const accepted = await eventually(() => request('GET', `${crdPath}/utensils.other.example.com`), { until: (r) => condition(r, 'Established')?.status === 'True' });
    expect(condition(accepted, 'NamesAccepted')).toMatchObject({ status: 'True', reason: 'NoConflicts' });
    await request('DELETE', `${crdPath}/utensils.other.example.com`);
  });

  it('warns on every request to a deprecated version', async () => {
    const old = crd({ names: { plural: 'relics', kind: 'Relic' } });
    (old.metadata as { name: string }).name = 'relics.example.com';
    const version = (old.spec.versions as Record<string, unknown>[])[0];
    version.deprecated = true;
    expect((await request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: old })).status).toBe(201);
    const list = await eventually(() => request('GET', '/apis/example.com/v1/namespaces/default/relics'), { until: (r) => r.status === 200 });
    expect(list.headers.get('warning')).toBe('299 - "example.com/v1 Relic is deprecated"');
    await request('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/relics.example.com');
    await gone(() => request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/relics.example.com'));
  });

  it('defaults, prunes and validates custom resources', async () => {
    const created = await request('POST', '/apis/example.com/v1/namespaces/default/widgets', { body: widget('w1', { size: 'small', unknown: 1 }) });
    expect(created.status).toBe(201);
    expect(created.json.spec).toEqual({ size: 'small', replicas: 1, maxReplicas: 10 });
    expect(created.json.metadata.generation).toBe(1);

    const strict = await request('POST', '/apis/example.com/v1/namespaces/default/widgets?fieldValidation=Strict', { body: widget('w2', { size: 'small', foo: 1 }) });
    expect(strict.status).toBe(400);
    expect(strict.json.message).toContain('unknown field "spec.foo"');
    const warned = await request('POST', '/apis/example.com/v1/namespaces/default/widgets?fieldValidation=Warn', { body: widget('w2', { size: 'small', foo: 1 }) });
    expect(warned.status).toBe(201);
    expect(warned.headers.get('warning')).toBe('299 - "unknown field \\"spec.foo\\""');
    expect(warned.json.spec.foo).toBeUndefined();

    // A non-nullable null is dropped, as kube-apiserver drops it, or defaulted where it has a default.
    const nullPort = await request('POST', '/apis/example.com/v1/namespaces/default/widgets', { body: widget('w-port', { size: 'small', port: null, args: null, replicas: null }) });
    expect(nullPort.status).toBe(201);
    expect(nullPort.json.spec).toEqual({ size: 'small', replicas: 1, maxReplicas: 10 });

    const invalid = await request('POST', '/apis/example.com/v1/namespaces/default/widgets', { body: widget('w3', { size: 'medium', replicas: 'x', name: 'toolongname' }) });
    expect(invalid.status).toBe(422);
    const causes = invalid.json.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
    expect(causes).toEqual([
      'spec.size: Unsupported value: "medium": supported values: "small", "large"',
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
      'spec.name: Too long: may not be longer than 5',
      // a blocking schema error (wrong type, too long) keeps the rules from running, as kube-apiserver says
      '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);

    // an error that does not block them (a value out of its enum) lets the rules run
    const forbidden = await request('POST', '/apis/example.com/v1/namespaces/default/widgets', { body: widget('forbidden', { size: 'medium' }) });
    expect(forbidden.json.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`)).toEqual([
      'spec.size: Unsupported value: "medium": supported values: "small", "large"',
      '<nil>: Invalid value: "object": that name is forbidden',
    ]);

    const longName = await request('POST', '/apis/example.com/v1/namespaces/default/widgets', { body: widget('a-rather-long-name', { size: 'large' }) });
    expect(longName.status).toBe(422);
    expect(longName.json.message).toBe(
      'Widget.example.com "a-rather-long-name" is invalid: [metadata.name: Too long: may not be longer than 12, ' +
        '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]',
    );

    const root = await request('POST', '/apis/example.com/v1/namespaces/default/widgets', { body: widget('forbidden', { size: 'large' }) });
    expect(root.status).toBe(422);
    expect(root.json.message).toBe('Widget.example.com "forbidden" is invalid: <nil>: Invalid value: "object": that name is forbidden');

    const rule = await request('POST', '/apis/example.com/v1/namespaces/default/widgets', { body: widget('w4', { size: 'large', replicas: 20, maxReplicas: 5 }) });
    expect(rule.status).toBe(422);
    expect(rule.json.message).toBe('Widget.example.com "w4" is invalid: spec.replicas: Invalid value: "object": replicas must not exceed maxReplicas');
  });

  it('reads a custom resource\'s metadata into ObjectMeta as Go does: null is the zero value, a wrong type a 400', async () => {
    const nulls = await request('POST', '/apis/example.com/v1/namespaces/default/widgets', { body: { ...widget('w-null', { size: 'small' }), metadata: { name: 'w-null', labels: { a: null }, ownerReferences: [null] } } });
    expect(nulls.status).toBe(422);
    expect(nulls.json.details.causes.map((c: { field: string }) => c.field)).toEqual(['metadata.ownerReferences.apiVersion', 'metadata.ownerReferences.kind', 'metadata.ownerReferences.name', 'metadata.ownerReferences.uid']);
    const labels = await request('POST', '/apis/example.com/v1/namespaces/default/widgets', { body: { ...widget('w-label', { size: 'small' }), metadata: { name: 'w-label', labels: { a: null } } } });
    expect(labels.status).toBe(201);
    expect(labels.json.metadata.labels).toEqual({ a: '' });
    const wrong = await request('POST', '/apis/example.com/v1/namespaces/default/widgets', { body: { ...widget('w-wrong', { size: 'small' }), metadata: { name: 'w-wrong', finalizers: 'x' } } });
    expect(wrong.json).toMatchObject({ code: 400, message: 'Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal string into Go struct field ObjectMeta.finalizers of type []string' });
    expect((await request('GET', '/apis/example.com/v1/namespaces/default/widgets/w-wrong')).status).toBe(404);
  });

  it('refuses metadata that is no object, and a patch that gives metadata a wrong type, with 400', async () => {
    const path = '/apis/example.com/v1/namespaces/default/widgets';
    const scalar = await request('POST', path, { body: { ...widget('w-scalar', { size: 'small' }), metadata: 'w-scalar' } });
    expect(scalar.json).toMatchObject({ code: 400, message: 'Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal string into Go value of type v1.ObjectMeta' });
    expect((await request('POST', path, { body: widget('w-patched', { size: 'small' }) })).status).toBe(201);
    const patched = await request('PATCH', `${path}/w-patched`, { raw: '{"metadata":{"labels":{"app":100}}}', headers: { 'content-type': 'application/merge-patch+json' } });
    expect(patched.json).toMatchObject({ code: 400, message: 'Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string' });
  });

  it('runs transition rules on update and bumps generation on spec changes only', async () => {
    await request('POST', '/apis/example.com/v1/namespaces/default/widgets', { body: widget('w5', { size: 'small', name: 'abc' }) });
    const renamed = await request('PATCH', '/apis/example.com/v1/namespaces/default/widgets/w5', {
      body: { spec: { name: 'xyz' } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(renamed.status).toBe(422);
    expect(renamed.json.message).toContain('spec.name: Invalid value: "string": name is immutable');

    const status = await request('PATCH', '/apis/example.com/v1/namespaces/default/widgets/w5/status', {
      body: { status: { ready: true } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(status.status).toBe(200);
    expect(status.json.status).toEqual({ ready: true });
    expect(status.json.metadata.generation).toBe(1);

    // a status write keeps only the status (metadata as stored), and validates the status alone
    const relabelled = await request('PATCH', '/apis/example.com/v1/namespaces/default/widgets/w5/status', {
      body: { metadata: { labels: { a: 'b' } }, status: { ready: false } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect([relabelled.json.metadata.labels, relabelled.json.status]).toEqual([undefined, { ready: false }]);
    const mistyped = await request('PATCH', '/apis/example.com/v1/namespaces/default/widgets/w5/status', {
      body: { status: { ready: 'yes' } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(mistyped.json.details.causes[0]).toEqual({ reason: 'FieldValueTypeInvalid', field: 'ready', message: 'Invalid value: "string": ready in body must be of type boolean: "string"' });
    // custom resources are updated conditionally only (AllowUnconditionalUpdate false)
    const unconditional = await request('PUT', '/apis/example.com/v1/namespaces/default/widgets/w5/status', { body: { ...widget('w5', { size: 'small', name: 'abc' }), status: { ready: true } } });
    expect(unconditional.json.message).toBe('widgets.example.com "w5" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update');

    const scaled = await request('PATCH', '/apis/example.com/v1/namespaces/default/widgets/w5', {
      body: { spec: { replicas: 3 } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(scaled.status).toBe(200);
    expect(scaled.json.metadata.generation).toBe(2);
  });

  it('gives list-type set and map lists set and map semantics in validation rules', async () => {
    const stringSet = { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' };
    const portMap = {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } },
    };
    const gizmos = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gizmos.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'gizmos', kind: 'Gizmo' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    required: ['tags', 'extraTags', 'ports', 'portSets'],
                    // Two lists concatenate only when they have one type: two fields' items are
                    // two object types to Kubernetes' checker, two values of one map are not.
                    'x-kubernetes-validations': [
                      { rule: 'self.tags + self.extraTags == self.tags', message: 'extraTags must be a subset of tags' },
                      { rule: "size(self.portSets['base'] + self.portSets['overrides']) == size(self.portSets['base'])", message: 'overrides may only name existing ports' },
                      { rule: "(self.portSets['base'] + self.portSets['overrides']).exists(p, p.name == 'dns' && p.port == 5353)", message: 'the dns override wins' },
                    ],
                    properties: {
                      tags: { ...stringSet, 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'tags are immutable' }] },
                      extraTags: stringSet,
                      ports: { ...portMap, 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'ports are immutable' }] },
                      portSets: { type: 'object', required: ['base', 'overrides'], maxProperties: 2, additionalProperties: { ...portMap, maxItems: 16 } },
                    },
                  },
                },
              },
            },
          },
        ],
      },
    };
    expect((await request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: gizmos })).status).toBe(201);
    await eventually(() => request('GET', '/apis/example.com/v1/namespaces/default/gizmos'), { until: (r) => r.status === 200 });
    const gizmo = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'example.com/v1', kind: 'Gizmo', metadata: { name }, spec });
    const ports = [
      { name: 'http', port: 80 },
      { name: 'dns', port: 53 },
    ];
    const good = { tags: ['a', 'b', 'c'], extraTags: ['c', 'a'], ports, portSets: { base: ports, overrides: [{ name: 'dns', port: 5353 }] } };
    const path = '/apis/example.com/v1/namespaces/default/gizmos';
    expect((await request('POST', path, { body: gizmo('g1', good) })).status).toBe(201);

    const notSubset = await request('POST', path, { body: gizmo('g2', { ...good, extraTags: ['d'] }) });
    expect(notSubset.status).toBe(422);
    expect(notSubset.json.message).toBe('Gizmo.example.com "g2" is invalid: spec: Invalid value: "object": extraTags must be a subset of tags');
    const newPort = await request('POST', path, { body: gizmo('g3', { ...good, portSets: { base: ports, overrides: [{ name: 'ssh', port: 22 }] } }) });
    expect(newPort.status).toBe(422);
    expect(newPort.json.details.causes.map((c: { message: string }) => c.message)).toEqual([
      'Invalid value: "object": overrides may only name existing ports',
      'Invalid value: "object": the dns override wins',
    ]);

    const patch = (spec: Record<string, unknown>) =>
      request('PATCH', `${path}/g1`, { body: { spec }, headers: { 'content-type': 'application/merge-patch+json' } });
    const reordered = await patch({ tags: ['c', 'a', 'b'], ports: [...ports].reverse() });
    expect(reordered.status).toBe(200);
    expect(reordered.json.spec.tags).toEqual(['c', 'a', 'b']);
    const retagged = await patch({ tags: ['a', 'b', 'd'], extraTags: [] });
    expect(retagged.status).toBe(422);
    expect(retagged.json.message).toBe('Gizmo.example.com "g1" is invalid: spec.tags: Invalid value: "array": tags are immutable');
    const reported = await patch({ ports: [{ name: 'dns', port: 53 }, { name: 'http', port: 8080 }] });
    expect(reported.status).toBe(422);
    expect(reported.json.message).toBe('Gizmo.example.com "g1" is invalid: spec.ports: Invalid value: "array": ports are immutable');
  });

  it('serves cluster-scoped custom resources and follows CRD updates', async () => {
    const cluster = crd({ scope: 'Cluster', names: { plural: 'realms', kind: 'Realm' } });
    (cluster.metadata as { name: string }).name = 'realms.example.com';
    const created = await request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: cluster });
    expect(created.status).toBe(201);
    await eventually(() => request('GET', '/apis/example.com/v1/realms'), { until: (r) => r.status === 200 });
    const realm = await request('POST', '/apis/example.com/v1/realms', { body: { apiVersion: 'example.com/v1', kind: 'Realm', metadata: { name: 'r1' }, spec: { size: 'small' } } });
    expect(realm.status).toBe(201);
    expect(realm.json.metadata.namespace).toBeUndefined();
    // a path out of a custom resource's scope is passed on by its handler to Go's plain 404
    const outOfScope = await request('GET', '/apis/example.com/v1/namespaces/default/realms/r1');
    expect([outOfScope.status, outOfScope.text]).toEqual([404, '404 page not found\n']);

    const current = await request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/realms.example.com');
    const updated = structuredClone(current.json);
    updated.spec.versions[0].additionalPrinterColumns = [{ name: 'Size', type: 'string', jsonPath: '.spec.size' }];
    expect((await request('PUT', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/realms.example.com', { body: updated })).status).toBe(200);
    const table = await eventually(() => request('GET', '/apis/example.com/v1/realms', { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }), { until: (r) => r.json?.columnDefinitions?.some((c: { name: string }) => c.name === 'Size') });
    expect(table.json.rows[0].cells).toEqual(['r1', 'small']);
    expect(table.json.columnDefinitions[1].description).toBe('Custom resource definition column (in JSONPath format): .spec.size');

    const rescoped = structuredClone(updated);
    rescoped.spec.scope = 'Namespaced';
    delete rescoped.metadata.resourceVersion;
    const immutable = await request('PUT', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/realms.example.com', { body: rescoped });
    expect(immutable.status).toBe(422);
    expect(immutable.json.message).toContain('spec.scope: Invalid value: "Namespaced": field is immutable');
    await request('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/realms.example.com');
    await gone(() => request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/realms.example.com'));
  });

  it('serves every served version of one stored object (conversion None)', async () => {
    const versioned = crd({ names: { plural: 'engines', kind: 'Engine' } });
    (versioned.metadata as { name: string }).name = 'engines.example.com';
    const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { power: { type: 'integer' } } } } } };
    versioned.spec.versions = [
      { name: 'v1beta1', served: true, storage: false, schema },
      { name: 'v1', served: true, storage: true, schema },
      { name: 'v1alpha1', served: false, storage: false, schema },
    ] as never;
    const created = await request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: versioned });
    expect(created.status).toBe(201);
    expect(created.json.status.storedVersions).toEqual(['v1']);
    await eventually(() => request('GET', '/apis/example.com/v1beta1/namespaces/default/engines'), { until: (r) => r.status === 200 });
    expect((await request('POST', '/apis/example.com/v1/namespaces/default/engines', { body: { apiVersion: 'example.com/v1', kind: 'Engine', metadata: { name: 'e' }, spec: { power: 3 } } })).status).toBe(201);
    const old = await request('GET', '/apis/example.com/v1beta1/namespaces/default/engines/e');
    expect(old.json).toMatchObject({ apiVersion: 'example.com/v1beta1', kind: 'Engine', spec: { power: 3 } });
    expect((await request('GET', '/apis/example.com/v1alpha1/namespaces/default/engines/e')).status).toBe(404);
    const group = await request('GET', '/apis/example.com');
    expect(group.json.preferredVersion).toEqual({ groupVersion: 'example.com/v1', version: 'v1' });
    await request('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/engines.example.com');
    await gone(() => request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/engines.example.com'));
  });

  it('bumps generation on any non-metadata change without a status subresource', async () => {
    const plain = crd({ names: { plural: 'plains', kind: 'Plain' } });
    (plain.metadata as { name: string }).name = 'plains.example.com';
    delete (plain.spec.versions as Record<string, unknown>[])[0].subresources;
    expect((await request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: plain })).status).toBe(201);
    await eventually(() => request('GET', '/apis/example.com/v1/namespaces/default/plains'), { until: (r) => r.status === 200 });
    const created = await request('POST', '/apis/example.com/v1/namespaces/default/plains', { body: { ...widget('p', { size: 'small' }), kind: 'Plain', status: { ready: false } } });
    expect(created.status).toBe(201);
    expect(created.json.status).toEqual({ ready: false });
    const patched = await request('PATCH', '/apis/example.com/v1/namespaces/default/plains/p', { body: { status: { ready: true } }, headers: { 'content-type': 'application/merge-patch+json' } });
    expect(patched.json.status).toEqual({ ready: true });
    expect(patched.json.metadata.generation).toBe(2);
    // an unserved subresource of a custom resource is the resource's NotFound
    const unserved = await request('GET', '/apis/example.com/v1/namespaces/default/plains/p/status');
    expect([unserved.status, unserved.json.message]).toEqual([404, 'plains.example.com "p" not found']);
    await request('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/plains.example.com');
    await gone(() => request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/plains.example.com'));
  });

  it('prints additionalPrinterColumns in Table output', async () => {
    const table = await request('GET', '/apis/example.com/v1/namespaces/default/widgets', { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    expect(table.status).toBe(200);
    expect(table.json.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Replicas']);
    expect(table.json.rows.find((r: { cells: unknown[] }) => r.cells[0] === 'w1').cells).toEqual(['w1', 1]);
  });

  it('watches custom resources', async () => {
    const list = await request('GET', '/apis/example.com/v1/namespaces/default/widgets');
    const watch = await openWatch(server.url, `/apis/example.com/v1/namespaces/default/widgets?watch=true&resourceVersion=${list.json.metadata.resourceVersion}`);
    try {
      await request('POST', '/apis/example.com/v1/namespaces/default/widgets', { body: widget('watched', { size: 'small' }) });
      await request('DELETE', '/apis/example.com/v1/namespaces/default/widgets/watched');
      const events = await watch.waitFor(2);
      expect(events.map((e) => [e.type, e.object.kind, e.object.apiVersion, e.object.metadata.name])).toEqual([
        ['ADDED', 'Widget', 'example.com/v1', 'watched'],
        ['DELETED', 'Widget', 'example.com/v1', 'watched'],
      ]);
    } finally {
      watch.close();
    }
  });

  it('lists with label and field selectors', async () => {
    await request('POST', '/apis/example.com/v1/namespaces/default/widgets', { body: { ...widget('labelled', { size: 'small' }), metadata: { name: 'labelled', labels: { tier: 'a' } } } });
    const byLabel = await request('GET', '/apis/example.com/v1/namespaces/default/widgets?labelSelector=tier%3Da');
    expect(byLabel.json.items[0].metadata.labels).toEqual({ tier: 'a' });
    expect(byLabel.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['labelled']);
    const byField = await request('GET', '/apis/example.com/v1/widgets?fieldSelector=metadata.name%3Dw1');
    expect(byField.json.kind).toBe('WidgetList');
    expect(byField.json.items[0]).toMatchObject({ apiVersion: 'example.com/v1', kind: 'Widget' });
    expect(byField.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['w1']);
    // apiextensions-apiserver words the refusal of any other field label its own way
    const bySpec = await request('GET', '/apis/example.com/v1/widgets?fieldSelector=spec.size%3Dsmall');
    expect([bySpec.status, bySpec.json.message]).toEqual([400, 'field label not supported: spec.size']);
  });

  it('applies RBAC to custom resources as to any resource', async () => {
    const denied = await client(server.url, 'alice-token')('GET', '/apis/example.com/v1/namespaces/default/widgets');
    expect(denied.status).toBe(403);
    expect(denied.json.message).toBe('widgets.example.com is forbidden: User "alice" cannot list resource "widgets" in API group "example.com" in the namespace "default"');
  });

  it('serves the scale subresource from the paths the CRD names', async () => {
    const scalable = crd({
      names: { plural: 'pools', kind: 'Pool' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: { type: 'object', properties: { replicas: { type: 'integer' } } },
                status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } },
              },
            },
          },
        },
      ],
    });
    (scalable.metadata as { name: string }).name = 'pools.example.com';
    expect((await request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: scalable })).status).toBe(201);
    const resources = await eventually(() => request('GET', '/apis/example.com/v1'), { until: (r) => r.json?.resources?.some((x: { name: string }) => x.name === 'pools/scale') });
    expect(resources.json.resources.find((x: { name: string }) => x.name === 'pools/scale')).toMatchObject({ kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] });
    await request('POST', '/apis/example.com/v1/namespaces/default/pools', { body: { apiVersion: 'example.com/v1', kind: 'Pool', metadata: { name: 'p' }, spec: { replicas: 2 } } });
    await request('PATCH', '/apis/example.com/v1/namespaces/default/pools/p/status', {
      body: { status: { replicas: 2, selector: 'app=p' } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });

    const got = await request('GET', '/apis/example.com/v1/namespaces/default/pools/p/scale');
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 'p', namespace: 'default' }, spec: { replicas: 2 }, status: { replicas: 2, selector: 'app=p' } });

    const patched = await request('PATCH', '/apis/example.com/v1/namespaces/default/pools/p/scale', { body: { spec: { replicas: 5 } }, headers: { 'content-type': 'application/merge-patch+json' } });
    expect(patched.status).toBe(200);
    expect(patched.json.spec).toEqual({ replicas: 5 });
    expect((await request('GET', '/apis/example.com/v1/namespaces/default/pools/p')).json.spec.replicas).toBe(5);

    const negative = await request('PUT', '/apis/example.com/v1/namespaces/default/pools/p/scale', { body: { ...got.json, metadata: { name: 'p', namespace: 'default' }, spec: { replicas: -1 } } });
    expect(negative.status).toBe(422);
    // the custom resource's validation judges the replicas a Scale writes (ValidateScaleSpec)
    expect(negative.json.message).toBe('Pool.example.com "p" is invalid: .spec.replicas: Invalid value: -1: should be a non-negative integer');
    // the Scale's writer owns the replicas, on the custom resource, as the ScaleHandler maps them
    const scaled = (await request('GET', '/apis/example.com/v1/namespaces/default/pools/p')).json;
    expect(scaled.metadata.managedFields.find((e: { subresource?: string }) => e.subresource === 'scale')).toEqual({
      manager: 'node',
      operation: 'Update',
      apiVersion: 'example.com/v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:replicas': {} } },
      subresource: 'scale',
    });
    const renamed = await request('PUT', '/apis/example.com/v1/namespaces/default/pools/p/scale', { body: { ...got.json, metadata: { name: 'q', namespace: 'default' }, spec: { replicas: 1 } } });
    expect(renamed.json).toMatchObject({ code: 400, message: 'the name of the object (q) does not match the name on the URL (p)' });

    // the Scale is read as Go reads it into autoscaling/v1 Scale: replicas is an int32
    const overflow = await request('PUT', '/apis/example.com/v1/namespaces/default/pools/p/scale', { body: { ...got.json, metadata: { name: 'p', namespace: 'default' }, spec: { replicas: 2 ** 31 } } });
    expect(overflow.json).toMatchObject({ code: 400, message: 'Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal number 2147483648 into Go struct field ScaleSpec.spec.replicas of type int32' });
    const patchedOverflow = await request('PATCH', '/apis/example.com/v1/namespaces/default/pools/p/scale', { raw: '{"spec":{"replicas":1.5}}', headers: { 'content-type': 'application/merge-patch+json' } });
    expect(patchedOverflow.json).toMatchObject({ code: 400, message: 'Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal number 1.5 into Go struct field ScaleSpec.spec.replicas of type int32' });
    expect((await request('GET', '/apis/example.com/v1/namespaces/default/pools/p')).json.spec.replicas).toBe(5);

    const stale = await request('PUT', '/apis/example.com/v1/namespaces/default/pools/p/scale', { body: { ...got.json, spec: { replicas: 1 } } });
    expect(stale.status).toBe(409);
    await request('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/pools.example.com');
  });

  it('merges by the schema in server-side apply: list-type map by key, other lists atomic, maps granular unless atomic', async () => {
    const apply = (manager: string, spec: Record<string, unknown>) =>
      request('PATCH', `/apis/example.com/v1/namespaces/default/widgets/applied?fieldManager=${manager}&force=true`, {
        raw: JSON.stringify(widget('applied', spec)),
        headers: { 'content-type': 'application/apply-patch+yaml' },
      });
    expect((await apply('alpha', { size: 'small', ports: [{ name: 'a', port: 1 }], args: ['x'], selector: { a: '1' }, labels: { a: '1' } })).status).toBe(201);
    const second = await apply('beta', { size: 'small', ports: [{ name: 'b', port: 2 }], args: ['y'], selector: { b: '2' }, labels: { b: '2' } });
    expect(second.status).toBe(200);
    expect(second.json.spec.ports).toEqual([
      { name: 'a', port: 1 },
      { name: 'b', port: 2 },
    ]);
    expect(second.json.spec.args).toEqual(['y']);
    expect(second.json.spec.selector).toEqual({ b: '2' });
    expect(second.json.spec.labels).toEqual({ a: '1', b: '2' });
  });

  it('reads the x-platform-* spelling of the schema markers (Document 1) as x-kubernetes-*', async () => {
    const gadgets = {
      apiVersion: 'apiextensions.platform.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'gadgets', kind: 'Gadget' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    properties: {
                      ports: {
                        type: 'array',
                        'x-platform-list-type': 'map',
                        'x-platform-list-map-keys': ['name'],
                        items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } },
                      },
                      extra: { type: 'object', 'x-platform-preserve-unknown-fields': true },
                    },
                  },
                },
              },
            },
          },
        ],
      },
    };
    const created = await request('POST', '/apis/apiextensions.platform.io/v1/customresourcedefinitions', { body: gadgets });
    expect(created.status).toBe(201);
    const ports = created.json.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.ports;
    expect(ports).toMatchObject({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] });
    expect(ports).not.toHaveProperty('x-platform-list-type');
    await eventually(() => request('GET', '/apis/example.com/v1/namespaces/default/gadgets'), { until: (r) => r.status === 200 });
    const apply = (manager: string, spec: Record<string, unknown>) =>
      request('PATCH', `/apis/example.com/v1/namespaces/default/gadgets/g?fieldManager=${manager}`, {
        raw: JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g' }, spec }),
        headers: { 'content-type': 'application/apply-patch+yaml' },
      });
    expect((await apply('alpha', { ports: [{ name: 'a', port: 1 }], extra: { kept: { deep: true } } })).status).toBe(201);
    const second = await apply('beta', { ports: [{ name: 'b', port: 2 }] });
    expect(second.status).toBe(200);
    expect(second.json.spec.ports).toEqual([
      { name: 'a', port: 1 },
      { name: 'b', port: 2 },
    ]);
    expect(second.json.spec.extra).toEqual({ kept: { deep: true } });
  });

  it('empties a deleted namespace of its custom resources', async () => {
    await request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'crd-ns' } } });
    expect((await request('POST', '/apis/example.com/v1/namespaces/crd-ns/widgets', { body: widget('inside', { size: 'small' }) })).status).toBe(201);
    await request('DELETE', '/api/v1/namespaces/crd-ns');
    await gone(() => request('GET', '/api/v1/namespaces/crd-ns'));
    expect((await request('GET', '/apis/example.com/v1/namespaces/crd-ns/widgets')).json.items).toEqual([]);
  });

  it('deletes the custom resources with their CRD and stops serving them', async () => {
    const held = { ...widget('held', { size: 'small' }), metadata: { name: 'held', finalizers: ['example.com/hold'] } };
    expect((await request('POST', '/apis/example.com/v1/namespaces/default/widgets', { body: held })).status).toBe(201);
    const deleted = await request('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com');
    expect([200, 202]).toContain(deleted.status);
    expect(deleted.json.status.conditions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending', message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon' }),
      ]),
    );
    const inProgress = await eventually(() => request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com'), { until: (r) => r.json?.status?.conditions?.some((c: { reason?: string }) => c.reason === 'InstanceDeletionInProgress') });
    expect(inProgress.json.metadata.finalizers).toEqual(['customresourcecleanup.apiextensions.k8s.io']);
    const refused = await eventually(() => request('POST', '/apis/example.com/v1/namespaces/default/widgets', { body: widget('late', { size: 'small' }) }), { until: (r) => r.status === 405 });
    expect(refused.json).toMatchObject({ reason: 'MethodNotAllowed', message: 'create not allowed while custom resource definition is terminating' });
    const release = await request('PATCH', '/apis/example.com/v1/namespaces/default/widgets/held', {
      body: { metadata: { finalizers: null } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(release.status).toBe(200);
    await gone(() => request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com'));
    await gone(() => request('GET', '/apis/example.com/v1/namespaces/default/widgets'));
    const stored = await server.store.list({ prefix: '/registry/example.com/widgets/' });
    expect(stored.items).toHaveLength(0);
  });
});

describe('API servers sharing one storage', () => {
  it('each serves the custom resources of a CRD another one created', async () => {
    const first = await startTestApiServer();
    const second = await startTestApiServer({}, { store: first.store });
    try {
      const created = await client(first.url)('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd() });
      expect(created.status).toBe(201);
      const request = client(second.url);
      const listed = await eventually(() => request('GET', '/apis/example.com/v1/namespaces/default/widgets'), { until: (r) => r.status === 200, what: 'the second server serving widgets' });
      expect(listed.json.kind).toBe('WidgetList');
      const made = await request('POST', '/apis/example.com/v1/namespaces/default/widgets', { body: widget('shared', { size: 'large', replicas: 50 }) });
      expect(made.status).toBe(422);
      expect(made.json.message).toBe('Widget.example.com "shared" is invalid: spec.replicas: Invalid value: "object": replicas must not exceed maxReplicas');
    } finally {
      await second.stop();
      await first.stop();
    }
  });
});
