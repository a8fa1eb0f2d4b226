// CEL optional types over HTTP, as Kubernetes 1.28 has them: a CRD write refuses them (it
// compiles new rules in the 1.27-compatible environment), while a rule already stored (written
// by a server of another version) compiles in the full environment and validates objects.
import { eventually } from '@plinth/testing';
import { namespacedCrd, suiteServer } from './http';

const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const dials = '/apis/example.com/v1/namespaces/default/dials';

const dialCrd = (rule: string) =>
  namespacedCrd({ plural: 'dials', kind: 'Dial' }, {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: { label: { type: 'string' }, limits: { type: 'object', additionalProperties: { type: 'integer' } } },
      'x-kubernetes-validations': [{ rule, message: 'a label, or a max limit of at most 10' }],
    },
  },
});

const optionalRule = "self.?label.hasValue() || self.limits[?'max'].orValue(0) <= 10";
const dial = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'example.com/v1', kind: 'Dial', metadata: { name }, spec });

describe('API server: CEL optional types', () => {
  const server = suiteServer();
  const { request } = server;

  it('refuses them in a rule a CRD write adds, with kube-apiserver\'s message', async () => {
    const refused = await request('POST', crdPath, { body: dialCrd(optionalRule) });
    expect(refused.status).toBe(422);
    expect(refused.json.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule',
        message:
          `Invalid value: apiextensions.ValidationRule{Rule:${JSON.stringify(optionalRule)}, Message:"a label, or a max limit of at most 10", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:""}: ` +
          `compilation failed: ERROR: <input>:1:5: unsupported syntax '.?'\n | ${optionalRule}\n | ....^\n` +
          `ERROR: <input>:1:38: unsupported syntax '[?'\n | ${optionalRule}\n | .....................................^`,
      },
    ]);
  });

  it('validates objects with a rule already stored', async () => {
    expect((await request('POST', crdPath, { body: dialCrd('true') })).status).toBe(201);
    await eventually(() => request('GET', dials), { until: (r) => r.status === 200 });
    // the stored CRD holds the rule, as a server with optional types in its new rules wrote it
    const key = (await server.store.list({ prefix: '/registry/' })).items.map((kv) => kv.key).find((k) => k.endsWith('/customresourcedefinitions/dials.example.com'));
    expect(key).toBeDefined();
    const stored = await server.store.get(key as string);
    const crd = JSON.parse(Buffer.from(stored.value).toString('utf8'));
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec['x-kubernetes-validations'][0].rule = optionalRule;
    await server.store.update(key as string, Buffer.from(JSON.stringify(crd)), stored.revision);

    const refused = await eventually(() => request('POST', dials, { body: dial('too-high', { limits: { max: 11 } }) }), {
      until: (r) => r.status === 422,
      what: 'the stored rule to validate',
    });
    expect(refused.json.details.causes).toEqual([{ reason: 'FieldValueInvalid', field: 'spec', message: 'Invalid value: "object": a label, or a max limit of at most 10' }]);
    expect((await request('POST', dials, { body: dial('labelled', { label: 'x', limits: { max: 11 } }) })).status).toBe(201);
    expect((await request('POST', dials, { body: dial('unlimited', { limits: {} }) })).status).toBe(201);
    expect((await request('POST', dials, { body: dial('low', { limits: { max: 10 } }) })).status).toBe(201);
  });
});
