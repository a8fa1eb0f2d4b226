// Bodies are read as kube-apiserver reads them into the kind's Go struct: null is Go's zero
// value, numbers and times must fit their Go type, and what Go refuses is a 400 that stores
// nothing (issue 11, "values Kubernetes would refuse").
import { suiteServer } from './http';

const jobBody = (name: string, spec: string) =>
  `{"metadata":{"name":"${name}"},"spec":{${spec}${spec ? ',' : ''}"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}}`;

describe('API server: decoding values as Go does', () => {
  const server = suiteServer();
  const { request } = server;

  const post = (path: string, raw: string, contentType = 'application/json') => request('POST', path, { raw, headers: { 'content-type': contentType } });

  // expectRefused checks a 400 Status with the message, and that nothing was stored.
  async function expectRefused(res: { status: number; json: { reason: string; message: string; kind: string } }, message: string, objectPath: string) {
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ kind: 'Status', reason: 'BadRequest', message });
    expect((await request('GET', objectPath)).status).toBe(404);
  }

  describe('null', () => {
    it('is an empty string in a label, an annotation and a finalizer, which validation then judges', async () => {
      const created = await post('/api/v1/namespaces/default/serviceaccounts', '{"metadata":{"name":"null-labels","labels":{"a":null},"annotations":{"b":null}}}');
      expect(created.status).toBe(201);
      expect(created.json.metadata.labels).toEqual({ a: '' });
      expect(created.json.metadata.annotations).toEqual({ b: '' });

      const finalizer = await post('/api/v1/namespaces/default/serviceaccounts', '{"metadata":{"name":"null-finalizer","finalizers":[null]}}');
      expect(finalizer.status).toBe(422);
      expect(finalizer.json.reason).toBe('Invalid');
      // As kube-apiserver 1.28: apimachinery's qualified-name checks on the list's path, the core
      // group's standard-name check on the element's.
      expect(finalizer.json.details.causes.map((c: { field: string }) => c.field)).toEqual(['metadata.finalizers', 'metadata.finalizers', 'metadata.finalizers[0]']);
      expect(finalizer.json.details.causes[0]).toEqual({ reason: 'FieldValueInvalid', message: 'Invalid value: "": name part must be non-empty', field: 'metadata.finalizers' });
      expect(finalizer.json.details.causes[2].message).toBe('Invalid value: "": name is neither a standard finalizer name nor is it fully qualified');
      expect((await request('GET', '/api/v1/namespaces/default/serviceaccounts/null-finalizer')).status).toBe(404);
    });

    it('leaves a struct field at its zero value', async () => {
      const created = await post('/apis/batch/v1/namespaces/default/jobs', jobBody('null-fields', '"parallelism":null,"activeDeadlineSeconds":null,"selector":null'));
      expect(created.status).toBe(201);
      expect(created.json.spec.parallelism).toBe(1);
      expect(created.json.spec).not.toHaveProperty('activeDeadlineSeconds');

      const pod = await post('/api/v1/namespaces/default/pods', '{"metadata":{"name":"null-spec"},"spec":null}');
      expect(pod.status).toBe(422);
      expect(pod.json.details.causes).toContainEqual({ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers' });
    });
  });

  describe('numbers', () => {
    it.each([
      ['2147483648', 'number 2147483648'],
      ['1e2', 'number 1e2'],
      ['15.0', 'number 15.0'],
      ['"2"', 'string'],
    ])('refuses %s for an int32 field', async (literal, what) => {
      const res = await post('/apis/batch/v1/namespaces/default/jobs', jobBody('int32', `"parallelism":${literal}`));
      await expectRefused(res, `Job in version "v1" cannot be handled as a Job: json: cannot unmarshal ${what} into Go struct field JobSpec.spec.parallelism of type int32`, '/apis/batch/v1/namespaces/default/jobs/int32');
    });

    it('refuses an int64 beyond its range, and takes its largest value', async () => {
      const res = await post('/apis/batch/v1/namespaces/default/jobs', jobBody('int64', '"activeDeadlineSeconds":9223372036854775808'));
      await expectRefused(res, 'Job in version "v1" cannot be handled as a Job: json: cannot unmarshal number 9223372036854775808 into Go struct field JobSpec.spec.activeDeadlineSeconds of type int64', '/apis/batch/v1/namespaces/default/jobs/int64');
      const ok = await post('/apis/batch/v1/namespaces/default/jobs', jobBody('int32-max', '"parallelism":2147483647'));
      expect(ok.status).toBe(201);
      expect(ok.json.spec.parallelism).toBe(2147483647);
    });

    it('refuses an update with such a number and keeps the object', async () => {
      const created = await post('/apis/batch/v1/namespaces/default/jobs', jobBody('int-update', ''));
      expect(created.status).toBe(201);
      const body = JSON.stringify({ ...created.json, spec: { ...created.json.spec, parallelism: 0 } }).replace('"parallelism":0', '"parallelism":1e0');
      const res = await request('PUT', '/apis/batch/v1/namespaces/default/jobs/int-update', { raw: body, headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.json.message).toBe('Job in version "v1" cannot be handled as a Job: json: cannot unmarshal number 1e0 into Go struct field JobSpec.spec.parallelism of type int32');
      const after = await request('GET', '/apis/batch/v1/namespaces/default/jobs/int-update');
      expect(after.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
    });
  });

  describe('quantities', () => {
    const pod = (name: string, cpu: string) => `{"metadata":{"name":"${name}"},"spec":{"containers":[{"name":"c","image":"busybox","resources":{"limits":{"cpu":${cpu}}}}]}}`;

    it('refuses text ParseQuantity refuses when decoding, as resource.Quantity.UnmarshalJSON does', async () => {
      const res = await post('/api/v1/namespaces/default/pods', pod('bad-quantity', '"abc"'));
      await expectRefused(res, "Pod in version \"v1\" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'", '/api/v1/namespaces/default/pods/bad-quantity');
      const bool = await post('/api/v1/namespaces/default/pods', pod('bool-quantity', 'true'));
      await expectRefused(bool, "Pod in version \"v1\" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'", '/api/v1/namespaces/default/pods/bool-quantity');
    });

    it('stores a number as the quantity\'s string, and text without the space around it', async () => {
      const res = await post('/api/v1/namespaces/default/pods', pod('number-quantity', '1e2'));
      expect(res.status).toBe(201);
      expect(res.json.spec.containers[0].resources.limits.cpu).toBe('100');
      const spaced = await post('/api/v1/namespaces/default/pods', pod('spaced-quantity', '" 250m "'));
      expect(spaced.status).toBe(201);
      expect(spaced.json.spec.containers[0].resources.limits.cpu).toBe('250m');
    });

    it('stores text in canonical form, and canonical text as written', async () => {
      const half = await post('/api/v1/namespaces/default/pods', pod('half-quantity', '"0.5"'));
      expect(half.status).toBe(201);
      expect(half.json.spec.containers[0].resources.limits.cpu).toBe('500m');
      const exponent = await post('/api/v1/namespaces/default/pods', pod('exponent-quantity', '"1E3"'));
      expect(exponent.json.spec.containers[0].resources.limits.cpu).toBe('1E3');
    });
  });

  describe('numbers in patches', () => {
    const patches: Record<string, (literal: string) => string> = {
      'application/merge-patch+json': (literal) => `{"spec":{"parallelism":${literal}}}`,
      'application/strategic-merge-patch+json': (literal) => `{"spec":{"parallelism":${literal}}}`,
      'application/json-patch+json': (literal) => `[{"op":"replace","path":"/spec/parallelism","value":${literal}}]`,
    };

    it.each([
      ['application/merge-patch+json', '1e2'],
      ['application/strategic-merge-patch+json', '15.0'],
      ['application/merge-patch+json', '2147483648'],
      ['application/json-patch+json', '1E1'],
      ['application/json-patch+json', '9223372036854775808'],
    ])('refuses %s with parallelism %s and keeps the object', async (contentType, literal) => {
      const name = `patch-number-${literal.replace(/\W/g, '').toLowerCase()}-${contentType.length}`;
      const created = await post('/apis/batch/v1/namespaces/default/jobs', jobBody(name, ''));
      expect(created.status).toBe(201);
      const res = await request('PATCH', `/apis/batch/v1/namespaces/default/jobs/${name}`, { raw: patches[contentType](literal), headers: { 'content-type': contentType } });
      const decodeError = `json: cannot unmarshal number ${literal} into Go struct field JobSpec.spec.parallelism of type int32`;
      if (contentType === 'application/strategic-merge-patch+json') {
        expect(res.status).toBe(400);
        expect(res.json).toMatchObject({ reason: 'BadRequest', message: `Job in version "v1" cannot be handled as a Job: ${decodeError}` });
      } else {
        // A JSON or merge patch's result that does not decode is a 422 on "patch", its value the
        // patched object (kube-apiserver 1.28.7 answers so whatever fieldValidation says).
        expect(res.status).toBe(422);
        expect(res.json).toMatchObject({ reason: 'Invalid', details: { causes: [{ field: 'patch', reason: 'FieldValueInvalid' }] } });
        expect(res.json.message).toMatch(new RegExp(`^ "" is invalid: patch: Invalid value: "\\{\\\\"apiVersion\\\\":\\\\"batch/v1\\\\",.*": ${decodeError.replace(/\./g, '\\.')}$`));
      }
      const after = await request('GET', `/apis/batch/v1/namespaces/default/jobs/${name}`);
      expect(after.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
    });
    it('takes an exact number written plainly in a patch', async () => {
      const created = await post('/apis/batch/v1/namespaces/default/jobs', jobBody('patch-number-ok', ''));
      expect(created.status).toBe(201);
      const res = await request('PATCH', '/apis/batch/v1/namespaces/default/jobs/patch-number-ok', { raw: '[{"op":"replace","path":"/spec/parallelism","value":3}]', headers: { 'content-type': 'application/json-patch+json' } });
      expect(res.status).toBe(200);
      expect(res.json.spec.parallelism).toBe(3);
    });
  });

  describe('times', () => {
    it('refuses a time Go cannot parse with time.Parse\'s message, so that nothing unreadable is stored', async () => {
      const res = await post('/apis/coordination.k8s.io/v1/namespaces/default/leases', '{"metadata":{"name":"bad-time"},"spec":{"acquireTime":"2020-13-45T99:99:99Z"}}');
      await expectRefused(res, 'Lease in version "v1" cannot be handled as a Lease: parsing time "2020-13-45T99:99:99Z": month out of range', '/apis/coordination.k8s.io/v1/namespaces/default/leases/bad-time');

      const protobufList = await request('GET', '/apis/coordination.k8s.io/v1/namespaces/default/leases', { headers: { accept: 'application/vnd.kubernetes.protobuf' } });
      expect(protobufList.status).toBe(200);
    });

    it('stores a time Go accepts as Go writes it back, which every encoding can then carry', async () => {
      const res = await post('/apis/coordination.k8s.io/v1/namespaces/default/leases', '{"metadata":{"name":"odd-time"},"spec":{"acquireTime":"2020-01-01T1:00:00.500000+01:00"}}');
      expect(res.status).toBe(201);
      expect(res.json.spec.acquireTime).toBe('2020-01-01T00:00:00.500000Z');
      const protobufList = await request('GET', '/apis/coordination.k8s.io/v1/namespaces/default/leases', { headers: { accept: 'application/vnd.kubernetes.protobuf' } });
      expect(protobufList.status).toBe(200);
    });

    it('refuses a number for a time as metav1.Time does', async () => {
      const res = await post('/apis/coordination.k8s.io/v1/namespaces/default/leases', '{"metadata":{"name":"number-time"},"spec":{"acquireTime":5}}');
      await expectRefused(res, 'Lease in version "v1" cannot be handled as a Lease: json: cannot unmarshal number into Go value of type string', '/apis/coordination.k8s.io/v1/namespaces/default/leases/number-time');
    });
  });

  describe('YAML bodies', () => {
    const yamlPost = (path: string, text: string) => post(path, text, 'application/yaml');

    it.each([
      ['.inf', '+Inf'],
      ['-.inf', '-Inf'],
      ['.nan', 'NaN'],
    ])('refuse %s, which JSON cannot hold, and store nothing', async (literal, shown) => {
      const body = `metadata:\n  name: yaml-inf\nspec:\n  parallelism: ${literal}\n`;
      const res = await yamlPost('/apis/batch/v1/namespaces/default/jobs', body);
      // the summary of a body that is not JSON is its first 30 bytes in hex
      const summary = `${Buffer.from(body).subarray(0, 30).toString('hex')} ...`;
      await expectRefused(res, `the object provided is unrecognized (must be of type Job): json: unsupported value: ${shown} (${summary})`, '/apis/batch/v1/namespaces/default/jobs/yaml-inf');
    });

    it('summarizes the YAML as sent when it is no object', async () => {
      const body = '- a\n- b\n';
      const res = await yamlPost('/api/v1/namespaces/default/serviceaccounts', body);
      expect(res.status).toBe(400);
      expect(res.json.message).toBe(
        `the object provided is unrecognized (must be of type ServiceAccount): couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" } (${Buffer.from(body).toString('hex')})`,
      );
    });

    it('refuses a sequence as a map key, as yaml.v2 cannot make it a Go map key', async () => {
      const body = 'metadata:\n  name: yaml-key\n  labels:\n    ? [a, b]\n    : x\n';
      const res = await yamlPost('/api/v1/namespaces/default/serviceaccounts', body);
      const summary = `${Buffer.from(body).subarray(0, 30).toString('hex')} ...`;
      await expectRefused(res, `the object provided is unrecognized (must be of type ServiceAccount): yaml: invalid map key: []interface {}{"a", "b"} (${summary})`, '/api/v1/namespaces/default/serviceaccounts/yaml-key');
    });

    it('keeps a number beyond float64 as the string it was', async () => {
      const res = await yamlPost('/apis/batch/v1/namespaces/default/jobs', 'metadata:\n  name: yaml-big\nspec:\n  parallelism: 1e400\n');
      await expectRefused(res, 'Job in version "v1" cannot be handled as a Job: json: cannot unmarshal string into Go struct field JobSpec.spec.parallelism of type int32', '/apis/batch/v1/namespaces/default/jobs/yaml-big');
      const label = await yamlPost('/api/v1/namespaces/default/serviceaccounts', 'metadata:\n  name: yaml-big-label\n  labels:\n    a: 1e400\n');
      expect(label.status).toBe(201);
      expect(label.json.metadata.labels).toEqual({ a: '1e400' });
    });

    it('reads YAML 1.1 booleans and integers as sigs.k8s.io/yaml does', async () => {
      const suspended = await yamlPost('/apis/batch/v1/namespaces/default/jobs', 'metadata:\n  name: yaml-bool\nspec:\n  suspend: yes\n  parallelism: 0x2\n  completions: 010\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: busybox}]\n');
      expect(suspended.status).toBe(201);
      expect(suspended.json.spec).toMatchObject({ suspend: true, parallelism: 2, completions: 8 });
      // an unquoted "on" is a boolean, which a label value (a string) cannot take
      const label = await yamlPost('/api/v1/namespaces/default/serviceaccounts', 'metadata:\n  name: yaml-on\n  labels:\n    a: on\n');
      await expectRefused(label, 'ServiceAccount in version "v1" cannot be handled as a ServiceAccount: json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string', '/api/v1/namespaces/default/serviceaccounts/yaml-on');
      const quoted = await yamlPost('/api/v1/namespaces/default/serviceaccounts', 'metadata:\n  name: yaml-quoted\n  labels:\n    a: "on"\n');
      expect(quoted.status).toBe(201);
      expect(quoted.json.metadata.labels).toEqual({ a: 'on' });
    });

    it('take the last of repeated keys, which fieldValidation=Strict refuses as yaml.v2 strict decoding does', async () => {
      const body = (name: string) => `metadata:\n  name: ${name}\n  labels:\n    a: "1"\n    a: "2"\n`;
      const ignored = await yamlPost('/api/v1/namespaces/default/serviceaccounts?fieldValidation=Ignore', body('yaml-repeat-ignore'));
      expect(ignored.status).toBe(201);
      expect(ignored.json.metadata.labels).toEqual({ a: '2' });
      const warned = await yamlPost('/api/v1/namespaces/default/serviceaccounts', body('yaml-repeat-warn'));
      expect(warned.status).toBe(201);
      const strict = await yamlPost('/api/v1/namespaces/default/serviceaccounts?fieldValidation=Strict', body('yaml-repeat-strict'));
      await expectRefused(
        strict,
        'ServiceAccount in version "v1" cannot be handled as a ServiceAccount: strict decoding error: yaml: unmarshal errors:\n  line 5: key "a" already set in map',
        '/api/v1/namespaces/default/serviceaccounts/yaml-repeat-strict',
      );
    });
  });

  describe('subresource bodies', () => {
    it('read a Binding as Go reads it, and bind nothing when it is refused', async () => {
      expect((await post('/api/v1/namespaces/default/pods', '{"metadata":{"name":"bind-me"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}')).status).toBe(201);
      const res = await post('/api/v1/namespaces/default/pods/bind-me/binding', '{"metadata":{"name":"bind-me"},"target":"node-1"}');
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ reason: 'BadRequest', message: 'Binding in version "v1" cannot be handled as a Binding: json: cannot unmarshal string into Go struct field Binding.target of type v1.ObjectReference' });
      expect((await request('GET', '/api/v1/namespaces/default/pods/bind-me')).json.spec.nodeName).toBeUndefined();
    });

    it('read a TokenRequest as Go reads it', async () => {
      expect((await post('/api/v1/namespaces/default/serviceaccounts', '{"metadata":{"name":"token-me"}}')).status).toBe(201);
      const res = await post('/api/v1/namespaces/default/serviceaccounts/token-me/token', '{"spec":{"expirationSeconds":1e4}}');
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ reason: 'BadRequest', message: 'TokenRequest in version "v1" cannot be handled as a TokenRequest: json: cannot unmarshal number 1e4 into Go struct field TokenRequestSpec.spec.expirationSeconds of type int64' });
      const audiences = await post('/api/v1/namespaces/default/serviceaccounts/token-me/token', '{"spec":{"audiences":"api"}}');
      expect(audiences.json.message).toBe('TokenRequest in version "v1" cannot be handled as a TokenRequest: json: cannot unmarshal string into Go struct field TokenRequestSpec.spec.audiences of type []string');
      const ok = await post('/api/v1/namespaces/default/serviceaccounts/token-me/token', '{"spec":{"expirationSeconds":3600}}');
      expect(ok.status).toBe(201);
      expect(typeof ok.json.status.token).toBe('string');
    });
  });
});

