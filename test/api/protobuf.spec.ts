// application/vnd.kubernetes.protobuf over HTTP: responses (get, list, create, errors), request
// bodies and watch frames. Bodies are read and written here with @bufbuild/protobuf's binary
// reader and writer, independently of the server's codec.
import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { adminToken, suiteServer } from './http';

const protobuf = 'application/vnd.kubernetes.protobuf';
const magic = [0x6b, 0x38, 0x73, 0x00];

type Fields = Map<number, (Uint8Array | bigint)[]>;

// fields reads a message into its fields by number: payloads of length-delimited fields,
// values of varints.
function fields(data: Uint8Array): Fields {
  const reader = new BinaryReader(data);
  const out: Fields = new Map();
  while (reader.pos < reader.len) {
    const [number, wireType] = reader.tag();
    const value = wireType === WireType.LengthDelimited ? reader.bytes() : wireType === WireType.Varint ? BigInt(reader.int64()) : (reader.skip(wireType), 0n);
    out.set(number, [...(out.get(number) ?? []), value]);
  }
  return out;
}
const text = (f: Fields, n: number) => new TextDecoder().decode(f.get(n)?.[0] as Uint8Array);
const message = (f: Fields, n: number) => fields(f.get(n)?.[0] as Uint8Array);

// unwrap checks the k8s\0 prefix and reads runtime.Unknown {typeMeta, raw}.
function unwrap(body: Uint8Array): { apiVersion: string; kind: string; raw: Fields } {
  expect([...body.subarray(0, 4)]).toEqual(magic);
  const unknown = fields(body.subarray(4));
  const typeMeta = message(unknown, 1);
  return { apiVersion: text(typeMeta, 1), kind: text(typeMeta, 2), raw: message(unknown, 2) };
}

function envelope(apiVersion: string, kind: string, raw: Uint8Array): Uint8Array {
  const writer = new BinaryWriter();
  writer.tag(1, WireType.LengthDelimited).fork().tag(1, WireType.LengthDelimited).string(apiVersion).tag(2, WireType.LengthDelimited).string(kind).join();
  writer.tag(2, WireType.LengthDelimited).bytes(raw);
  return Uint8Array.from([...magic, ...writer.finish()]);
}

// readFrames collects the length-prefixed frames of a watch stream until it ends.
async function readFrames(res: Response): Promise<Uint8Array[]> {
  const data = new Uint8Array(await res.arrayBuffer());
  const frames: Uint8Array[] = [];
  for (let at = 0; at + 4 <= data.length; ) {
    const length = new DataView(data.buffer, data.byteOffset + at).getUint32(0);
    frames.push(data.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return frames;
}

describe('API server: protobuf', () => {
  const server = suiteServer({ watchCacheSize: 1 });
  const { request } = server;

  const fetchProto = async (method: string, path: string, init: { body?: Uint8Array; accept?: string; contentType?: string } = {}) => {
    const res = await fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, accept: init.accept ?? protobuf, ...(init.contentType ? { 'content-type': init.contentType } : {}) },
      body: init.body,
    });
    return { status: res.status, contentType: res.headers.get('content-type'), body: new Uint8Array(await res.arrayBuffer()) };
  };

  beforeAll(async () => {
    await request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'proto-a', labels: { team: 'x' } } } });
  });

  it('answers get in the envelope, the object message from generated.proto field numbers', async () => {
    const res = await fetchProto('GET', '/api/v1/namespaces/proto-a');
    expect(res.status).toBe(200);
    expect(res.contentType).toBe(protobuf);
    const { apiVersion, kind, raw } = unwrap(res.body);
    expect([apiVersion, kind]).toEqual(['v1', 'Namespace']);
    const meta = message(raw, 1);
    expect(text(meta, 1)).toBe('proto-a');
    expect(text(meta, 6)).toMatch(/^\d+$/);
    // Labels are map entries {key = 1, value = 2} in key order.
    const labels = (meta.get(11) ?? []).map((entry) => fields(entry as Uint8Array)).map((entry) => [text(entry, 1), text(entry, 2)]);
    expect(labels).toEqual([
      ['platform.io/metadata.name', 'proto-a'],
      ['team', 'x'],
    ]);
    // NamespaceStatus.phase (1) is Active.
    expect(text(message(raw, 3), 1)).toBe('Active');
  });

  it('answers list with ListMeta and items, in the group the client addressed', async () => {
    await request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { body: { metadata: { name: 'proto-list-role' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] } });
    const res = await fetchProto('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles?limit=1');
    expect(res.status).toBe(200);
    const { apiVersion, kind, raw } = unwrap(res.body);
    expect([apiVersion, kind]).toEqual(['rbac.authorization.k8s.io/v1', 'ClusterRoleList']);
    const listMeta = message(raw, 1);
    expect(text(listMeta, 2)).toMatch(/^\d+$/);
    expect(text(listMeta, 3)).not.toBe('');
    expect(Number(listMeta.get(4)?.[0])).toBeGreaterThan(0);
    expect(raw.get(2)).toHaveLength(1);
  });

  it('creates from a protobuf body and answers the created object', async () => {
    const meta = new BinaryWriter().tag(1, WireType.LengthDelimited).string('proto-created').finish();
    const rule = new BinaryWriter()
      .tag(1, WireType.LengthDelimited)
      .string('list')
      .tag(2, WireType.LengthDelimited)
      .string('')
      .tag(3, WireType.LengthDelimited)
      .string('pods')
      .finish();
    const role = new BinaryWriter().tag(1, WireType.LengthDelimited).bytes(meta).tag(2, WireType.LengthDelimited).bytes(rule).finish();
    const res = await fetchProto('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/proto-a/roles', { body: envelope('rbac.authorization.k8s.io/v1', 'Role', role), contentType: protobuf });
    expect(res.status).toBe(201);
    const created = unwrap(res.body);
    expect(created.kind).toBe('Role');
    expect(text(message(created.raw, 1), 3)).toBe('proto-a');
    const stored = await request('GET', '/apis/rbac.authorization.k8s.io/v1/namespaces/proto-a/roles/proto-created');
    expect(stored.json.rules).toEqual([{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }]);
  });

  it('reviews a token sent in protobuf, as a delegating authenticator sends a TokenReview', async () => {
    const spec = new BinaryWriter().tag(1, WireType.LengthDelimited).string(adminToken).finish();
    const review = new BinaryWriter().tag(2, WireType.LengthDelimited).bytes(spec).finish();
    const res = await fetchProto('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { body: envelope('authentication.k8s.io/v1', 'TokenReview', review), contentType: protobuf });
    expect(res.status).toBe(201);
    const answered = unwrap(res.body);
    expect({ apiVersion: answered.apiVersion, kind: answered.kind }).toEqual({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview' });
    const status = message(answered.raw, 3);
    const user = message(status, 2);
    expect({ authenticated: status.get(1), username: text(user, 1), groups: user.get(3)?.map((g) => new TextDecoder().decode(g as Uint8Array)) }).toEqual({
      authenticated: [1n],
      username: 'admin',
      groups: ['system:masters', 'system:authenticated'],
    });
  });

  it('updates from a protobuf body and answers patches in protobuf', async () => {
    const current = unwrap((await fetchProto('GET', '/apis/rbac.authorization.k8s.io/v1/namespaces/proto-a/roles/proto-created')).body);
    const resourceVersion = text(message(current.raw, 1), 6);
    const meta = new BinaryWriter().tag(1, WireType.LengthDelimited).string('proto-created').tag(6, WireType.LengthDelimited).string(resourceVersion).finish();
    const rule = new BinaryWriter().tag(1, WireType.LengthDelimited).string('watch').tag(2, WireType.LengthDelimited).string('').tag(3, WireType.LengthDelimited).string('pods').finish();
    const role = new BinaryWriter().tag(1, WireType.LengthDelimited).bytes(meta).tag(2, WireType.LengthDelimited).bytes(rule).finish();
    const updated = await fetchProto('PUT', '/apis/rbac.authorization.k8s.io/v1/namespaces/proto-a/roles/proto-created', { body: envelope('rbac.authorization.k8s.io/v1', 'Role', role), contentType: protobuf });
    expect(updated.status).toBe(200);
    expect(text(message(unwrap(updated.body).raw, 2), 1)).toBe('watch');
    const patched = await fetchProto('PATCH', '/apis/rbac.authorization.k8s.io/v1/namespaces/proto-a/roles/proto-created', {
      body: new TextEncoder().encode(JSON.stringify({ metadata: { labels: { patched: 'yes' } } })),
      contentType: 'application/merge-patch+json',
    });
    expect(patched.status).toBe(200);
    expect(patched.contentType).toBe(protobuf);
    const label = fields(message(unwrap(patched.body).raw, 1).get(11)?.[0] as Uint8Array);
    expect([text(label, 1), text(label, 2)]).toEqual(['patched', 'yes']);
    // A stale resourceVersion is a 409 Conflict, in protobuf.
    const stale = await fetchProto('PUT', '/apis/rbac.authorization.k8s.io/v1/namespaces/proto-a/roles/proto-created', { body: envelope('rbac.authorization.k8s.io/v1', 'Role', role), contentType: protobuf });
    expect(stale.status).toBe(409);
    expect(text(unwrap(stale.body).raw, 4)).toBe('Conflict');
  });

  it('binds a pod from a protobuf Binding, as the scheduler sends it', async () => {
    const pod = { metadata: { name: 'proto-pod' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
    expect((await request('POST', '/api/v1/namespaces/proto-a/pods', { body: pod })).status).toBe(201);
    const meta = new BinaryWriter().tag(1, WireType.LengthDelimited).string('proto-pod').finish();
    const target = new BinaryWriter().tag(1, WireType.LengthDelimited).string('Node').tag(3, WireType.LengthDelimited).string('node-7').finish();
    const binding = new BinaryWriter().tag(1, WireType.LengthDelimited).bytes(meta).tag(2, WireType.LengthDelimited).bytes(target).finish();
    const res = await fetchProto('POST', '/api/v1/namespaces/proto-a/pods/proto-pod/binding', { body: envelope('v1', 'Binding', binding), contentType: protobuf });
    expect(res.status).toBe(201);
    const status = unwrap(res.body);
    expect([status.kind, text(status.raw, 2), Number(status.raw.get(6)?.[0])]).toEqual(['Status', 'Success', 201]);
    expect((await request('GET', '/api/v1/namespaces/proto-a/pods/proto-pod')).json.spec.nodeName).toBe('node-7');
  });

  it('answers errors as a protobuf v1 Status when protobuf was negotiated', async () => {
    const res = await fetchProto('GET', '/api/v1/namespaces/proto-missing');
    expect(res.status).toBe(404);
    expect(res.contentType).toBe(protobuf);
    const { apiVersion, kind, raw } = unwrap(res.body);
    expect([apiVersion, kind]).toEqual(['v1', 'Status']);
    expect([text(raw, 2), text(raw, 3), text(raw, 4), Number(raw.get(6)?.[0])]).toEqual(['Failure', 'namespaces "proto-missing" not found', 'NotFound', 404]);
    expect(text(message(raw, 5), 1)).toBe('proto-missing');
  });

  it('answers errors before negotiation (authentication) in protobuf too', async () => {
    const res = await fetch(`${server.url}/api/v1/namespaces`, { headers: { authorization: 'Bearer wrong-token', accept: protobuf } });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe(protobuf);
    const { kind, raw } = unwrap(new Uint8Array(await res.arrayBuffer()));
    expect([kind, text(raw, 4), Number(raw.get(6)?.[0])]).toEqual(['Status', 'Unauthorized', 401]);
  });

  it('reads a protobuf DeleteOptions body (Foreground, dryRun)', async () => {
    await request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { body: { metadata: { name: 'proto-keep' } } });
    // DeleteOptions: propagationPolicy = 4, dryRun = 5.
    const options = new BinaryWriter().tag(4, WireType.LengthDelimited).string('Foreground').tag(5, WireType.LengthDelimited).string('All').finish();
    const res = await fetchProto('DELETE', '/apis/rbac.authorization.k8s.io/v1/clusterroles/proto-keep', { body: envelope('meta.k8s.io/v1', 'DeleteOptions', options), contentType: protobuf });
    expect(res.status).toBe(200);
    // Foreground deletion answers the object, marked for deletion with its finalizer (14).
    const { kind, raw } = unwrap(res.body);
    expect(kind).toBe('ClusterRole');
    expect(new TextDecoder().decode(message(raw, 1).get(14)?.[0] as Uint8Array)).toBe('foregroundDeletion');
    // ... but only as a dry run: the stored object is untouched.
    const stored = await request('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/proto-keep');
    expect(stored.status).toBe(200);
    expect(stored.json.metadata.finalizers).toBeUndefined();
  });

  it('refuses a Table in protobuf (406) and a protobuf patch (415); JSON stays the fallback', async () => {
    const table = await fetchProto('GET', '/api/v1/namespaces', { accept: `${protobuf};as=Table;g=meta.k8s.io;v=v1` });
    expect(table.status).toBe(406);
    const fallback = await fetchProto('GET', '/api/v1/namespaces/proto-a', { accept: `${protobuf};as=Table;g=meta.k8s.io;v=v1, application/json` });
    expect(fallback.contentType).toBe('application/json');
    const patch = await fetchProto('PATCH', '/api/v1/namespaces/proto-a', { body: envelope('v1', 'Namespace', new Uint8Array(0)), contentType: protobuf });
    expect(patch.status).toBe(415);
  });

  it('streams protobuf for watch=true with a plain protobuf Accept', async () => {
    const controller = new AbortController();
    const res = await fetch(`${server.url}/apis/rbac.authorization.k8s.io/v1/clusterroles?watch=true&fieldSelector=metadata.name%3Dproto-list-role`, {
      headers: { authorization: `Bearer ${adminToken}`, accept: protobuf },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(`${protobuf};stream=watch`);
    controller.abort();
  });

  it('streams watch events as length-prefixed WatchEvent frames', async () => {
    const controller = new AbortController();
    const res = await fetch(`${server.url}/api/v1/namespaces?watch=true&fieldSelector=metadata.name%3Dproto-a`, {
      headers: { authorization: `Bearer ${adminToken}`, accept: `${protobuf};stream=watch` },
      signal: controller.signal,
    });
    expect(res.headers.get('content-type')).toBe(`${protobuf};stream=watch`);
    const reader = res.body!.getReader();
    let buffer = new Uint8Array(0);
    while (buffer.length < 4 || buffer.length < 4 + new DataView(buffer.buffer, buffer.byteOffset).getUint32(0)) {
      const { value, done } = await reader.read();
      if (done) throw new Error('watch ended before a frame');
      buffer = Uint8Array.from([...buffer, ...value]);
    }
    controller.abort();
    const length = new DataView(buffer.buffer, buffer.byteOffset).getUint32(0);
    const event = unwrap(buffer.subarray(4, 4 + length));
    expect([event.apiVersion, event.kind]).toEqual(['v1', 'WatchEvent']);
    expect(text(event.raw, 1)).toBe('ADDED');
    const object = unwrap(message(event.raw, 2).get(1)?.[0] as Uint8Array);
    expect([object.apiVersion, object.kind]).toEqual(['v1', 'Namespace']);
    expect(text(message(object.raw, 1), 1)).toBe('proto-a');
  });

  it('sends a watch ERROR frame with a protobuf 410 Status after compaction', async () => {
    const rv = Number((await request('GET', '/api/v1/namespaces')).json.metadata.resourceVersion);
    // Two writes: the watch cache keeps the last event only, and a compaction at the second
    // removes the revision after rv (rv + 1) from storage, so a watch from rv cannot resume.
    await request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'proto-old-1' } } });
    await request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'proto-old-2' } } });
    await server.store.compact(await server.store.currentRevision());
    const res = await fetch(`${server.url}/api/v1/namespaces?watch=1&resourceVersion=${rv}`, { headers: { authorization: `Bearer ${adminToken}`, accept: protobuf } });
    const frames = await readFrames(res);
    expect(frames).toHaveLength(1);
    const event = unwrap(frames[0]);
    expect([event.kind, text(event.raw, 1)]).toEqual(['WatchEvent', 'ERROR']);
    const status = unwrap(message(event.raw, 2).get(1)?.[0] as Uint8Array);
    expect([status.apiVersion, status.kind, text(status.raw, 4), Number(status.raw.get(6)?.[0])]).toEqual(['v1', 'Status', 'Expired', 410]);
    expect(text(status.raw, 3)).toMatch(/^too old resource version: /);
  });
});
