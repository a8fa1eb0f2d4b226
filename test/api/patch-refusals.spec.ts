// Patches Kubernetes refuses are refused with its code and message, and change nothing: a patch
// that loses the object's name, repeated keys under fieldValidation=Strict, an apply
// configuration without apiVersion and kind (issue 11).
import { suiteServer } from './http';

const accounts = '/api/v1/namespaces/default/serviceaccounts';

describe('API server: refused patches', () => {
  const server = suiteServer();
  const { request } = server;

  beforeAll(async () => {
    expect((await request('POST', accounts, { body: { metadata: { name: 'target', labels: { a: 'b' } } } })).status).toBe(201);
  });

  const patch = (contentType: string, raw: string, query = '') => request('PATCH', `${accounts}/target${query}`, { raw, headers: { 'content-type': contentType } });

  // unchanged checks that the object is as it was before the refused patch.
  async function unchanged(): Promise<void> {
    const now = await request('GET', `${accounts}/target`);
    expect(now.status).toBe(200);
    expect(now.json.metadata.labels).toEqual({ a: 'b' });
  }

  it.each([
    ['a JSON patch removing metadata', 'application/json-patch+json', '[{"op":"remove","path":"/metadata"}]'],
    ['a merge patch nulling metadata', 'application/merge-patch+json', '{"metadata":null}'],
    ['a strategic merge patch with a top-level $patch: delete', 'application/strategic-merge-patch+json', '{"$patch":"delete"}'],
    ['a strategic merge patch with a top-level $patch: replace', 'application/strategic-merge-patch+json', '{"$patch":"replace"}'],
  ])('refuses %s: the object would lose its name', async (_what, contentType, body) => {
    const res = await patch(contentType, body);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ kind: 'Status', reason: 'BadRequest', message: 'the name of the object () does not match the name on the URL (target)' });
    await unchanged();
  });

  it('refuses a patch that renames the object', async () => {
    const res = await patch('application/merge-patch+json', '{"metadata":{"name":"other"}}');
    expect(res.json).toMatchObject({ code: 400, message: 'the name of the object (other) does not match the name on the URL (target)' });
    await unchanged();
  });

  it('refuses $retainKeys that is not a list', async () => {
    const res = await patch('application/strategic-merge-patch+json', '{"metadata":{"$retainKeys":"labels"}}');
    expect(res.json).toMatchObject({ code: 400, reason: 'BadRequest', message: 'invalid patch format of retainKeys' });
    await unchanged();
  });

  it('ignores $deleteFromPrimitiveList on a map, as strategic merge patch skips a deletion list of another type', async () => {
    const res = await patch('application/strategic-merge-patch+json', '{"metadata":{"$deleteFromPrimitiveList/labels":["a"]}}');
    expect(res.status).toBe(200);
    await unchanged();
  });

  describe('repeated keys', () => {
    // jsonPatcher: the patch's strict errors refuse the patched object, quoted as evanphx wrote it
    // (the objects it opened sorted, the rest as encoded), in a 422 on the field "patch".
    async function refusedPatchedObject(res: { status: number; json: Record<string, unknown> }, patchedMetadata: string, error: string): Promise<void> {
      expect(res.status).toBe(422);
      expect(res.json).toMatchObject({ code: 422, reason: 'Invalid', details: { causes: [{ reason: 'FieldValueInvalid', field: 'patch' }] } });
      const account = (await request('GET', `${accounts}/target`)).json.metadata;
      const metadata = patchedMetadata.replace('<uid>', account.uid).replace('<rv>', account.resourceVersion).replace('<time>', account.creationTimestamp).replace('<managedFields>', JSON.stringify(account.managedFields));
      const patched = `{"apiVersion":"v1","kind":"ServiceAccount","metadata":${metadata}}`;
      expect(res.json.message).toBe(` "" is invalid: patch: Invalid value: ${JSON.stringify(patched)}: strict decoding error: ${error}`);
    }

    it('are a 422 on the patched object in a merge patch under Strict', async () => {
      const res = await patch('application/merge-patch+json', '{"metadata":{"labels":{"a":"1","a":"2"}}}', '?fieldValidation=Strict');
      await refusedPatchedObject(res, '{"creationTimestamp":"<time>","labels":{"a":"2"},"managedFields":<managedFields>,"name":"target","namespace":"default","resourceVersion":"<rv>","uid":"<uid>"}', 'duplicate field "metadata.labels.a"');
      await unchanged();
    });

    it('are a 422 on the patched object in a JSON patch under Strict, named as such', async () => {
      const res = await patch('application/json-patch+json', '[{"op":"add","op":"add","path":"/metadata/labels/x","value":"y"}]', '?fieldValidation=Strict');
      expect(res.status).toBe(422);
      expect(res.json).toMatchObject({ code: 422, reason: 'Invalid', details: { causes: [{ reason: 'FieldValueInvalid', field: 'patch' }] } });
      expect(res.json.message).toMatch(/^ "" is invalid: patch: Invalid value: "\{.*\}": strict decoding error: json patch duplicate field "\[0\]\.op"$/);
      await unchanged();
    });

    it('are a 422 on the patch in a strategic merge patch under Strict', async () => {
      const res = await patch('application/strategic-merge-patch+json', '{"metadata":{"labels":{"a":"1","a":"2"}}}', '?fieldValidation=Strict');
      expect(res.status).toBe(422);
      expect(res.json.reason).toBe('Invalid');
      expect(res.json.message).toBe(' "" is invalid: patch: Invalid value: "map[metadata:map[labels:map[a:2]]]": strict decoding error: duplicate field "metadata.labels.a"');
      await unchanged();
    });

    it('join the patched object\'s unknown fields in a strategic merge patch\'s 422 under Strict', async () => {
      const res = await patch('application/strategic-merge-patch+json', '{"metadata":{"labels":{"a":"1","a":"2"}},"bogus":1}', '?fieldValidation=Strict');
      expect(res.json.message).toBe(' "" is invalid: patch: Invalid value: "map[bogus:1 metadata:map[labels:map[a:2]]]": strict decoding error: duplicate field "metadata.labels.a", unknown field "bogus"');
      await unchanged();
    });

    it('name a merge patch\'s unknown fields in the order of the patched object Go writes', async () => {
      const res = await patch('application/merge-patch+json', '{"metadata":{"bogus":1},"automountServiceAccountToken":false,"extra":2}', '?fieldValidation=Strict');
      expect(res.json.message).toMatch(/: strict decoding error: unknown field "extra", unknown field "metadata.bogus"$/);
      await unchanged();
    });

    it('are warnings under Warn, and the last value wins', async () => {
      const res = await patch('application/merge-patch+json', '{"metadata":{"labels":{"c":"1","c":"2"}}}');
      expect(res.status).toBe(200);
      expect(res.headers.get('warning')).toBe('299 - "duplicate field \\"metadata.labels.c\\""');
      expect(res.json.metadata.labels).toEqual({ a: 'b', c: '2' });
      expect((await patch('application/json-patch+json', '[{"op":"remove","path":"/metadata/labels/c"}]')).status).toBe(200);
    });
  });

  describe('members a JSON patch operation does not declare', () => {
    it('are warnings under Warn, and the patch applies', async () => {
      const res = await patch('application/json-patch+json', '[{"op":"add","path":"/metadata/labels/d","value":"1","extra":2}]');
      expect(res.status).toBe(200);
      expect(res.headers.get('warning')).toBe('299 - "json patch unknown field \\"[0].extra\\""');
      expect(res.json.metadata.labels).toEqual({ a: 'b', d: '1' });
      expect((await patch('application/json-patch+json', '[{"op":"remove","path":"/metadata/labels/d"}]')).status).toBe(200);
    });

    it('refuse the patched object under Strict', async () => {
      const res = await patch('application/json-patch+json', '[{"op":"add","path":"/metadata/labels/d","value":"1","extra":2}]', '?fieldValidation=Strict');
      expect(res.status).toBe(422);
      expect(res.json.message).toMatch(/: strict decoding error: json patch unknown field "\[0\]\.extra"$/);
      await unchanged();
    });
  });

  describe('server-side apply', () => {
    it.each([
      ['without apiVersion and kind', '{"metadata":{"name":"target","labels":{"x":"y"}}}', 'invalid object type: /, Kind='],
      ['without apiVersion', '{"kind":"ServiceAccount","metadata":{"name":"target","labels":{"x":"y"}}}', 'invalid object type: /, Kind=ServiceAccount'],
      ['of another kind', '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"target","labels":{"x":"y"}}}', 'invalid object type: /v1, Kind=Pod'],
    ])('refuses a configuration %s', async (_what, body, message) => {
      const res = await patch('application/apply-patch+yaml', body, '?fieldManager=tester');
      expect(res.json).toMatchObject({ code: 400, reason: 'BadRequest', message });
      await unchanged();
    });

    it('refuses a configuration with .inf as sigs.k8s.io/yaml does', async () => {
      const res = await patch('application/apply-patch+yaml', 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: target\n  labels:\n    a: .inf\n', '?fieldManager=tester');
      expect(res.json).toMatchObject({ code: 400, reason: 'BadRequest', message: 'error decoding YAML: error converting YAML to JSON: json: unsupported value: +Inf' });
      await unchanged();
    });

    it('refuses repeated keys under fieldValidation=Strict, as applyPatcher reads the configuration strictly', async () => {
      const res = await patch('application/apply-patch+yaml', 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: target\n  labels:\n    a: b\n    a: c\n', '?fieldManager=tester&fieldValidation=Strict');
      expect(res.json).toMatchObject({ code: 400, reason: 'BadRequest', message: 'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 7: key "a" already set in map' });
      await unchanged();
    });

    it('takes a configuration with both', async () => {
      const res = await patch('application/apply-patch+yaml', '{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"target","labels":{"a":"b"}}}', '?fieldManager=tester');
      expect(res.status).toBe(200);
      await unchanged();
    });
  });

  it('answers a merge patch making unknown fields under Strict with the patched object, as Go writes it', async () => {
    await request('POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', { body: { metadata: { name: 'strict-merge' } } });
    const res = await request('PATCH', '/apis/coordination.k8s.io/v1/namespaces/default/leases/strict-merge?fieldValidation=Strict', {
      body: { spec: { nope: 1, holderIdentity: 'x' } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(res.status).toBe(422);
    expect(res.json.message).toMatch(
      /^ "" is invalid: patch: Invalid value: "\{\\"apiVersion\\":\\"coordination.k8s.io\/v1\\",\\"kind\\":\\"Lease\\",\\"metadata\\":\{\\"name\\":\\"strict-merge\\",\\"namespace\\":\\"default\\",\\"uid\\":.*\\"spec\\":\{\\"holderIdentity\\":\\"x\\",\\"nope\\":1\}\}": strict decoding error: unknown field "spec.nope"$/,
    );
    expect(res.json.details.causes).toEqual([{ reason: 'FieldValueInvalid', field: 'patch', message: expect.stringMatching(/^Invalid value: /) }]);
  });

  it('refuses a merge patch that is no object, as the strict patch decoder does', async () => {
    const res = await request('PATCH', '/apis/coordination.k8s.io/v1/namespaces/default/leases/strict-merge', { raw: '[1]', headers: { 'content-type': 'application/merge-patch+json' } });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}');
  });

  it('refuses an apply configuration with undeclared fields as the field manager does, whatever fieldValidation says', async () => {
    for (const query of ['', '&fieldValidation=Ignore']) {
      const res = await request('PATCH', `/apis/coordination.k8s.io/v1/namespaces/default/leases/typed-patch?fieldManager=applier${query}`, {
        raw: 'apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: typed-patch\nspec:\n  nope: 1\n  holderIdentity: x\n',
        headers: { 'content-type': 'application/apply-patch+yaml' },
      });
      expect(res.status).toBe(500);
      expect(res.json.message).toBe('failed to create typed patch object (/typed-patch; coordination.k8s.io/v1, Kind=Lease): .spec.nope: field not declared in schema');
      expect(res.headers.get('warning')).toBeNull();
    }
    expect((await request('GET', '/apis/coordination.k8s.io/v1/namespaces/default/leases/typed-patch')).status).toBe(404);
  });
});

