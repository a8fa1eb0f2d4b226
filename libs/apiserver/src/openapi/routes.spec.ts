import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import { ResourceCatalog } from '@plinth/registry';
import { v2ProtobufMediaType, v2ProtobufMediaTypeDeprecated } from './routes';
import { clusterRoleDefinition, configMapDefinition, jobDefinition } from './test-definitions';
import { OpenApiTestServer, startOpenApiTestServer } from './test-server';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

// fields decodes one protobuf message into its fields by number, with a real protobuf reader.
function fields(bytes: Uint8Array): Map<number, (Uint8Array | number | boolean)[]> {
  const reader = new BinaryReader(bytes);
  const out = new Map<number, (Uint8Array | number | boolean)[]>();
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    const value = wireType === WireType.LengthDelimited ? reader.bytes() : wireType === WireType.Varint ? reader.bool() : reader.double();
    out.set(field, [...(out.get(field) ?? []), value]);
  }
  return out;
}
const text = (v: unknown) => Buffer.from(v as Uint8Array).toString('utf8');

// named finds the value (field 2) of the Named* entry (name 1, value 2) called name.
function named(entries: unknown[] | undefined, name: string): Uint8Array {
  for (const entry of entries ?? []) {
    const f = fields(entry as Uint8Array);
    if (text(f.get(1)?.[0]) === name) return f.get(2)?.[0] as Uint8Array;
  }
  throw new Error(`no entry ${name}`);
}

describe('OpenAPI routes', () => {
  const catalog = new ResourceCatalog([jobDefinition, clusterRoleDefinition]);
  let server: OpenApiTestServer;
  beforeAll(async () => {
    server = await startOpenApiTestServer(catalog);
  });
  afterAll(() => server.stop());

  it('serves the v3 root and immutable group version documents behind their hashes', async () => {
    const root = await get(`${server.url}/openapi/v3`);
    expect(root.status).toBe(200);
    // kube-apiserver's root goes through Go's content sniffing, which calls it text.
    expect(root.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(root.headers['etag']).toBeUndefined();
    const url = JSON.parse(root.body.toString())['paths']['apis/batch/v1']['serverRelativeURL'] as string;
    const hash = new URL(url, server.url).searchParams.get('hash');

    const doc = await get(`${server.url}${url}`, { Accept: 'application/json' });
    expect(doc.status).toBe(200);
    expect(doc.headers['etag']).toBe(`"${hash}"`);
    expect(doc.headers['cache-control']).toBe('public, immutable');
    expect(doc.headers['expires']).toBeDefined();
    expect(JSON.parse(doc.body.toString())['components']['schemas']['io.k8s.api.batch.v1.Job']).toBeDefined();

    const unhashed = await get(`${server.url}/openapi/v3/apis/batch/v1`);
    expect(unhashed.headers['cache-control']).toBe('no-cache, private');
    expect(unhashed.body.equals(doc.body)).toBe(true);

    const stale = await get(`${server.url}/openapi/v3/apis/batch/v1?hash=0123`);
    expect(stale.status).toBe(301);
    expect(stale.headers['location']).toBe(url);

    expect((await get(`${server.url}${url}`, { 'If-None-Match': `"${hash}"` })).status).toBe(304);
    expect((await get(`${server.url}/openapi/v3/apis/apps/v1`)).status).toBe(404);
    expect((await get(`${server.url}${url}`, { Accept: 'application/com.github.proto-openapi.spec.v3.v1.0+protobuf' })).status).toBe(406);
    const head = await get(`${server.url}${url}`, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it('compresses for clients that accept gzip', async () => {
    const plain = await get(`${server.url}/openapi/v3/apis/batch/v1`);
    const zipped = await get(`${server.url}/openapi/v3/apis/batch/v1`, { 'Accept-Encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['vary']).toBe('Accept, Accept-Encoding');
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
  });

  it('serves v2 as JSON, as gnostic protobuf under both media type spellings, and 406 otherwise', async () => {
    const json = await get(`${server.url}/openapi/v2`, { Accept: 'application/json' });
    expect(json.status).toBe(200);
    expect(json.headers['content-type']).toBe('application/json');
    expect(JSON.parse(json.body.toString())['swagger']).toBe('2.0');

    for (const accept of [v2ProtobufMediaType, v2ProtobufMediaTypeDeprecated]) {
      const pb = await get(`${server.url}/openapi/v2`, { Accept: accept });
      expect(pb.status).toBe(200);
      expect(pb.headers['content-type']).toBe(v2ProtobufMediaType);
      expect(pb.headers['etag']).toBe(json.headers['etag']);

      // openapi.v2.Document: swagger (1), definitions (9) → NamedSchema (1) → Schema, whose
      // vendor_extension (31) holds x-kubernetes-group-version-kind as YAML (Any.yaml, 2).
      const doc = fields(pb.body);
      expect(text(doc.get(1)?.[0])).toBe('2.0');
      const definitions = fields(doc.get(9)?.[0] as Uint8Array);
      const job = fields(named(definitions.get(1), 'io.k8s.api.batch.v1.Job'));
      expect(text(job.get(4)?.[0])).toBe('Job represents the configuration of a single job.');
      const gvk = fields(named(job.get(31), 'x-kubernetes-group-version-kind'));
      expect(JSON.parse(text(gvk.get(2)?.[0]))).toEqual([{ group: 'batch', kind: 'Job', version: 'v1' }]);
      // type (22) is a TypeItem; properties (25) are NamedSchemas.
      expect(text(fields(job.get(22)?.[0] as Uint8Array).get(1)?.[0])).toBe('object');
      const spec = fields(named(fields(job.get(25)?.[0] as Uint8Array).get(1), 'spec'));
      expect(text(spec.get(1)?.[0])).toBe('#/definitions/io.k8s.api.batch.v1.JobSpec');

      // paths (8) → NamedPathItem (2) → PathItem.patch (8) → parameters (8) → Parameter (1) →
      // NonBodyParameter (2) → QueryParameterSubSchema (3), name (4).
      const paths = fields(doc.get(8)?.[0] as Uint8Array);
      const item = fields(named(paths.get(2), '/apis/batch/v1/namespaces/{namespace}/jobs/{name}'));
      const patch = fields(item.get(8)?.[0] as Uint8Array);
      expect(text(patch.get(5)?.[0])).toBe('patchBatchV1NamespacedJob');
      const queryNames = (patch.get(8) ?? [])
        .map((p) => fields(fields(p as Uint8Array).get(1)?.[0] as Uint8Array).get(2)?.[0])
        .filter((nonBody) => nonBody !== undefined)
        .map((nonBody) => text(fields(fields(nonBody as Uint8Array).get(3)?.[0] as Uint8Array).get(4)?.[0]));
      expect(queryNames).toEqual(['dryRun', 'fieldManager', 'fieldValidation', 'force']);
    }
    expect((await get(`${server.url}/openapi/v2`, { Accept: 'application/yaml' })).status).toBe(406);
  });

  it('notices a changed catalog and rebuilds after invalidate()', async () => {
    const before = (await get(`${server.url}/openapi/v3`)).body.toString();
    catalog.add(configMapDefinition);
    const after = await get(`${server.url}/openapi/v3`);
    expect(after.body.toString()).not.toBe(before);
    expect(Object.keys(JSON.parse(after.body.toString())['paths'])).toContain('api/v1');
    const generation = server.route.documents.generation;
    server.route.invalidate();
    expect((await get(`${server.url}/openapi/v3`)).body.toString()).toBe(after.body.toString());
    expect(server.route.documents.generation).toBe(generation + 1);
  });
});
