// A custom resource's integers are int64 from the request body to its validation rules, to
// storage and back: kube-apiserver decodes 9223372036854775807 as that int64, a rule compares it
// exactly, and every answer writes its digits unchanged.
import { adminToken, namespacedCrd, suiteServer } from './http';
import { eventually } from '@plinth/testing';

const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const counters = '/apis/example.com/v1/namespaces/default/counters';

const counterCrd = namespacedCrd({ plural: 'counters', kind: 'Counter' }, {
  type: 'object',
  'x-kubernetes-validations': [{ rule: '!has(self.top) || self.top == 9223372036854775807', message: 'top is the largest int64' }],
  properties: {
    top: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 9007199254740992 && self % 2 == 1', message: 'top is odd beyond 2^53' }] },
    spec: {
      type: 'object',
      properties: {
        max: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self == 9223372036854775807', message: 'max is the largest int64' }] },
        odd: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 9007199254740992 && self % 2 == 1', message: 'odd beyond 2^53' }] },
        big: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'big is immutable' }] },
        list: { type: 'array', items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: 'self.all(x, x % 2 != 0)', message: 'odd items' }] },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        note: { type: 'string' },
      },
    },
  },
});

const counter = (name: string, spec: string) => `{"apiVersion":"example.com/v1","kind":"Counter","metadata":{"name":"${name}"},"spec":${spec}}`;

describe('API server: custom resource integers beyond 2^53', () => {
  const server = suiteServer();
  const { request } = server;

  // watchedText reads a watch's raw events until one names marker (JSON.parse would round them).
  const watchedText = async (path: string, marker: string): Promise<string> => {
    const controller = new AbortController();
    const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${adminToken}` }, signal: controller.signal });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.split('\n').some((line) => line.includes(marker))) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    controller.abort();
    return text.split('\n').find((line) => line.includes(marker)) ?? text;
  };
  const post = (name: string, spec: string) => request('POST', counters, { raw: counter(name, spec), headers: { 'content-type': 'application/json' } });

  beforeAll(async () => {
    expect((await request('POST', crdPath, { body: counterCrd })).status).toBe(201);
    await eventually(() => request('GET', counters), { until: (r) => r.status === 200 });
  });

  it('reach a rule as the int64 written', async () => {
    const exact = await post('exact', '{"max":9223372036854775807,"odd":9007199254740993,"list":[9007199254740995,-9007199254740993]}');
    expect(exact.status).toBe(201);
    // each is one less than a number a double holds, so only the int64 passes both rules
    const offByOne = await post('off-by-one', '{"max":9223372036854775806,"odd":9007199254740994}');
    expect(offByOne.status).toBe(422);
    expect(offByOne.json.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`)).toEqual([
      'spec.max: Invalid value: "integer": max is the largest int64',
      'spec.odd: Invalid value: "integer": odd beyond 2^53',
    ]);
  });

  it('reach a rule as the int64 written in a field of the root, beside apiVersion, kind and metadata', async () => {
    const top = (name: string, value: string) => request('POST', counters, { raw: `{"apiVersion":"example.com/v1","kind":"Counter","metadata":{"name":"${name}"},"top":${value}}`, headers: { 'content-type': 'application/json' } });
    const exact = await top('top-exact', '9223372036854775807');
    expect(exact.status).toBe(201);
    expect(exact.text).toContain('"top":9223372036854775807');
    const offByOne = await top('top-off-by-one', '9223372036854775806');
    expect(offByOne.status).toBe(422);
    expect(offByOne.json.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`)).toEqual([
      '<nil>: Invalid value: "object": top is the largest int64',
      'top: Invalid value: "integer": top is odd beyond 2^53',
    ]);

    const patch = (raw: string) => request('PATCH', `${counters}/top-exact`, { raw, headers: { 'content-type': 'application/merge-patch+json' } });
    const labelled = await patch('{"metadata":{"labels":{"a":"b"}}}');
    expect(labelled.status).toBe(200);
    expect(labelled.text).toContain('"top":9223372036854775807');
    expect((await patch('{"top":9223372036854775806}')).status).toBe(422);
    const current = (await request('GET', `${counters}/top-exact`)).json;
    const update = `{"apiVersion":"example.com/v1","kind":"Counter","metadata":{"name":"top-exact","resourceVersion":"${current.metadata.resourceVersion}"},"top":9223372036854775807,"spec":{"note":"c"}}`;
    const updated = await request('PUT', `${counters}/top-exact`, { raw: update, headers: { 'content-type': 'application/json' } });
    expect(updated.status).toBe(200);
    expect(updated.text).toContain('"top":9223372036854775807');
    const applied = await request('PATCH', `${counters}/top-applied?fieldManager=tester`, {
      raw: '{"apiVersion":"example.com/v1","kind":"Counter","metadata":{"name":"top-applied"},"top":9223372036854775807}',
      headers: { 'content-type': 'application/apply-patch+yaml' },
    });
    expect(applied.status).toBe(201);
    expect(applied.text).toContain('"top":9223372036854775807');
  });

  it('are floats when written as floats, which a rule on an integer field refuses as kube-apiserver does', async () => {
    const float = await post('float', '{"odd":9007199254740993,"max":9223372036854775807,"list":[3.0]}');
    expect(float.status).toBe(422);
    expect(float.json.details.causes).toEqual([{ reason: 'FieldValueInvalid', field: 'spec.list', message: 'Invalid value: "array": invalid data, expected int, got float64 evaluating rule: odd items' }]);
    // a float in a field without a type is a double
    expect((await post('free-float', '{"free":{"f":5.0}}')).status).toBe(201);
    // beyond int64, or beyond 2^53 as a float, it is no integer to the schema
    for (const spec of ['{"max":9223372036854775808}', '{"max":-9223372036854775809}', '{"max":1e17}', '{"odd":9007199254740993.0}']) {
      const refused = await post('too-big', spec);
      expect(refused.status).toBe(422);
      expect(refused.json.message).toBe(
        `Counter.example.com "too-big" is invalid: [spec.${spec.slice(2, 5)}: Invalid value: "number": spec.${spec.slice(2, 5)} in body must be of type integer: "number", ` +
          '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]',
      );
    }
  });

  it('are stored and answered with their digits', async () => {
    const spec = '{"big":-9223372036854775808,"free":{"n":[1234567890123456789]},"max":9223372036854775807}';
    const created = await post('digits', spec);
    expect(created.status).toBe(201);
    expect(created.text).toContain(`"spec":${spec}`);
    const got = await request('GET', `${counters}/digits`);
    expect(got.text).toContain(`"spec":${spec}`);
    const pretty = await request('GET', `${counters}/digits?pretty=true`);
    expect(pretty.text).toContain('"big": -9223372036854775808,');
    expect(pretty.text).toContain('1234567890123456789');
    const listed = await request('GET', counters);
    expect(listed.text).toContain(`"spec":${spec}`);
    const yaml = await request('GET', `${counters}/digits`, { headers: { accept: 'application/yaml' } });
    expect(yaml.text).toContain('  big: -9223372036854775808\n');
    expect(yaml.text).toContain('  max: 9223372036854775807\n');
    const yamlList = await request('GET', counters, { headers: { accept: 'application/yaml' } });
    expect(yamlList.text).toContain('    max: 9223372036854775807\n');
    expect(await watchedText(`${counters}?watch=1&resourceVersion=0`, '"name":"digits"')).toContain(`"spec":${spec}`);
  });

  it('keep their digits through a patch and an update, and oldSelf is the int64 stored', async () => {
    expect((await post('kept', '{"big":9007199254740993,"note":"a"}')).status).toBe(201);
    const patched = await request('PATCH', `${counters}/kept`, { raw: '{"spec":{"note":"b"}}', headers: { 'content-type': 'application/merge-patch+json' } });
    expect(patched.status).toBe(200);
    expect(patched.text).toContain('"spec":{"big":9007199254740993,"note":"b"}');

    // 9007199254740992 is the same double: only int64s tell the transition rule apart
    const changed = await request('PATCH', `${counters}/kept`, { raw: '{"spec":{"big":9007199254740992}}', headers: { 'content-type': 'application/merge-patch+json' } });
    expect(changed.status).toBe(422);
    expect(changed.json.message).toContain('spec.big: Invalid value: "integer": big is immutable');

    const current = (await request('GET', `${counters}/kept`)).json;
    const update = counter('kept', '{"big":9007199254740993,"note":"c"}').replace('"name":"kept"', `"name":"kept","resourceVersion":"${current.metadata.resourceVersion}"`);
    const updated = await request('PUT', `${counters}/kept`, { raw: update, headers: { 'content-type': 'application/json' } });
    expect(updated.status).toBe(200);
    expect(updated.text).toContain('"spec":{"big":9007199254740993,"note":"c"}');
    expect((await request('GET', `${counters}/kept`)).text).toContain('"big":9007199254740993');

    // an update to another int64 of the same double is no no-op
    const created = await post('moved', '{"free":{"y":9007199254740993}}');
    expect(created.status).toBe(201);
    // a custom resource's update names the resourceVersion it replaces (kube: 422 without one)
    const replacement = counter('moved', '{"free":{"y":9007199254740992}}').replace('"name":"moved"', `"name":"moved","resourceVersion":"${created.json.metadata.resourceVersion}"`);
    const moved = await request('PUT', `${counters}/moved`, { raw: replacement, headers: { 'content-type': 'application/json' } });
    expect(moved.status).toBe(200);
    expect(moved.text).toContain('"spec":{"free":{"y":9007199254740992}}');
    expect((await request('GET', `${counters}/moved`)).text).toContain('"spec":{"free":{"y":9007199254740992}}');
  });

  it('keep their digits through server-side apply and a YAML body', async () => {
    const apply = (spec: string) =>
      request('PATCH', `${counters}/applied?fieldManager=tester`, { raw: counter('applied', spec), headers: { 'content-type': 'application/apply-patch+yaml' } });
    const created = await apply('{"big":9007199254740993,"max":9223372036854775807}');
    expect(created.status).toBe(201);
    expect(created.text).toContain('"spec":{"big":9007199254740993,"max":9223372036854775807}');
    // the transition rule compares with the int64 stored: the same double is another number
    const changed = await apply('{"big":9007199254740992,"max":9223372036854775807}');
    expect(changed.status).toBe(422);
    expect(changed.json.message).toContain('spec.big: Invalid value: "integer": big is immutable');
    const reapplied = await apply('{"big":9007199254740993,"max":9223372036854775807,"note":"n"}');
    expect(reapplied.status).toBe(200);
    expect(reapplied.text).toContain('"spec":{"big":9007199254740993,"max":9223372036854775807,"note":"n"}');

    const yaml = 'apiVersion: example.com/v1\nkind: Counter\nmetadata:\n  name: yaml\nspec:\n  max: 9223372036854775807\n  odd: 9007199254740993\n';
    const fromYaml = await request('POST', counters, { raw: yaml, headers: { 'content-type': 'application/yaml' } });
    expect(fromYaml.status).toBe(201);
    expect(fromYaml.text).toContain('"spec":{"max":9223372036854775807,"odd":9007199254740993}');
  });
});
