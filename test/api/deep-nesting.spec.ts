// Bodies nested far deeper than any object: JSON bodies, JSON patch values, merge and strategic
// merge patches, apply and YAML bodies 100,000 levels deep are refused with encoding/json's and
// go-yaml's words while decoding, before anything recursive runs (a stack overflow was a 500, and
// near the stack's end V8 can end the process). Plinth's limits are 1,000 levels for JSON and 500
// for YAML (Go's are 10,000; see strict-json.ts and yaml-depth.ts); what is under them is served.
import { suiteServer } from './http';

const nestedObject = (levels: number) => '{"x":'.repeat(levels) + '1' + '}'.repeat(levels);
const nestedArray = (levels: number) => '['.repeat(levels) + '1' + ']'.repeat(levels);
const blockYaml = (name: string, levels: number) => {
  let text = `apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: ${name}\nx:\n`;
  for (let i = 1; i <= levels; i++) text += `${' '.repeat(i)}y:\n`;
  return `${text}${' '.repeat(levels + 1)}1\n`;
};

describe('deeply nested bodies', () => {
  const server = suiteServer();
  const { request } = server;
  const account = '/api/v1/namespaces/default/serviceaccounts';
  const send = async (method: string, path: string, contentType: string, raw: string) => {
    const res = await request(method, path, { raw, headers: { 'content-type': contentType } });
    return { status: res.status, message: res.json?.message as string, kind: res.json?.kind as string };
  };

  beforeAll(async () => {
    expect((await request('POST', account, { body: { metadata: { name: 'target' } } })).status).toBe(201);
  });

  const deep = 100_000;

  it('refuses a merge patch 100,000 levels deep as the strict decoder does', async () => {
    expect(await send('PATCH', `${account}/target`, 'application/merge-patch+json', `{"x":${nestedObject(deep)}}`)).toEqual({
      status: 400,
      kind: 'Status',
      message: "error decoding patch: invalid character '{' exceeded max depth",
    });
    expect(await send('PATCH', `${account}/target?fieldValidation=Ignore`, 'application/merge-patch+json', `{"x":${nestedObject(deep)}}`)).toEqual({
      status: 400,
      kind: 'Status',
      message: 'Invalid JSON Patch',
    });
  });

  it('refuses a strategic merge patch 100,000 levels deep', async () => {
    expect(await send('PATCH', `${account}/target`, 'application/strategic-merge-patch+json', `{"x":${nestedObject(deep)}}`)).toEqual({
      status: 400,
      kind: 'Status',
      message: "invalid character '{' exceeded max depth",
    });
  });

  it('refuses a JSON patch whose value is 100,000 levels deep', async () => {
    expect(await send('PATCH', `${account}/target`, 'application/json-patch+json', `[{"op":"add","path":"/x","value":${nestedArray(deep)}}]`)).toEqual({
      status: 400,
      kind: 'Status',
      message: "error decoding patch: invalid character '[' exceeded max depth",
    });
  });

  it('refuses JSON, YAML and apply bodies 100,000 levels deep', async () => {
    const json = await send('POST', account, 'application/json', `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"deep"},"x":${nestedObject(deep)}}`);
    expect(json.status).toBe(400);
    expect(json.message).toContain("couldn't get version/kind; json parse error: invalid character '{' exceeded max depth");
    // Each handler words the converter's error as its kube-apiserver handler does.
    const yaml = await send('POST', account, 'application/yaml', `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"deep"},"x":${nestedArray(deep)}}`);
    expect(yaml.status).toBe(400);
    expect(yaml.message).toContain('yaml: exceeded max depth of 500');
    const block = await send('POST', account, 'application/yaml', blockYaml('deep', 2400));
    expect(block.status).toBe(400);
    expect(block.message).toContain('yaml: line 505: exceeded max depth of 500');
    const apply = await send('PATCH', `${account}/target?fieldManager=test`, 'application/apply-patch+yaml', `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"target"},"x":${nestedArray(deep)}}`);
    expect(apply.status).toBe(400);
    expect(apply.message).toContain('error converting YAML to JSON: yaml: exceeded max depth of 500');
    expect((await request('GET', `${account}/deep`)).status).toBe(404);
  });

  it('serves bodies nested just under the limits', async () => {
    expect((await send('PATCH', `${account}/target`, 'application/merge-patch+json', `{"metadata":{"labels":{"merge":"yes"}},"x":${nestedObject(990)}}`)).status).toBe(200);
    expect((await send('PATCH', `${account}/target`, 'application/strategic-merge-patch+json', `{"metadata":{"labels":{"smp":"yes"}},"x":${nestedObject(990)}}`)).status).toBe(200);
    expect((await send('POST', account, 'application/json', `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"json-990"},"x":${nestedObject(990)}}`)).status).toBe(201);
    expect((await send('POST', account, 'application/yaml', `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"yaml-490"},"x":${nestedArray(490)}}`)).status).toBe(201);
    expect((await send('POST', account, 'application/yaml', blockYaml('block-490', 490))).status).toBe(201);
    const target = await request('GET', `${account}/target`);
    expect(target.json.metadata.labels).toEqual({ merge: 'yes', smp: 'yes' });
  });
});
