import { decodeEnvelope, decodeProtobufObject, encodeProtobufObject, encodeProtobufStatus, encodeWatchFrame, protobufMagic } from './kinds';

// Hand assembly of expected bytes from generated.proto field numbers.
function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 127) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}
const bytes = (field: number, payload: number[]) => [...varint((field << 3) | 2), ...varint(payload.length), ...payload];
const str = (field: number, value: string) => bytes(field, [...Buffer.from(value)]);
const int = (field: number, value: number) => [...varint(field << 3), ...varint(value)];
const envelope = (apiVersion: string, kind: string, raw: number[]) => [...protobufMagic, ...bytes(1, [...str(1, apiVersion), ...str(2, kind)]), ...bytes(2, raw), ...str(3, ''), ...str(4, '')];

// emptyObjectMeta is ObjectMeta with only a name: every non-pointer scalar and the zero
// creationTimestamp are written, as gogo writes them.
const objectMeta = (name: string, tail: number[] = []) => [...str(1, name), ...str(2, ''), ...str(3, ''), ...str(4, ''), ...str(5, ''), ...str(6, ''), ...int(7, 0), ...bytes(8, []), ...tail];

describe('protobuf envelope and messages', () => {
  it('writes a Namespace as gogo does: zero scalars and empty structs included, maps as entries', () => {
    const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns', labels: { b: '2', a: '1' }, creationTimestamp: '2024-01-02T03:04:05Z' } };
    const seconds = Date.UTC(2024, 0, 2, 3, 4, 5) / 1000;
    const meta = [
      ...str(1, 'ns'),
      ...str(2, ''),
      ...str(3, ''),
      ...str(4, ''),
      ...str(5, ''),
      ...str(6, ''),
      ...int(7, 0),
      ...bytes(8, [...int(1, seconds), ...int(2, 0)]),
      ...bytes(11, [...str(1, 'a'), ...str(2, '1')]),
      ...bytes(11, [...str(1, 'b'), ...str(2, '2')]),
    ];
    const raw = [...bytes(1, meta), ...bytes(2, []), ...bytes(3, str(1, ''))];
    const encoded = encodeProtobufObject('v1', 'Namespace', namespace);
    expect([...encoded]).toEqual(envelope('v1', 'Namespace', raw));
    // Go's JSON of the decoded struct: empty structs present, zero scalars omitted.
    expect(decodeProtobufObject(encoded).object).toEqual({ ...namespace, metadata: { name: 'ns', labels: { a: '1', b: '2' }, creationTimestamp: '2024-01-02T03:04:05Z' }, spec: {}, status: {} });
  });

  it('writes pointers only when set, negative int32 as ten bytes, MicroTime with microseconds', () => {
    const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { holderIdentity: '', leaseDurationSeconds: -1, acquireTime: '2024-01-02T03:04:05.123456Z' } };
    const seconds = Date.UTC(2024, 0, 2, 3, 4, 5) / 1000;
    const spec = [
      ...str(1, ''),
      ...[0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
      ...bytes(3, [...int(1, seconds), ...int(2, 123456000)]),
    ];
    const encoded = encodeProtobufObject('coordination.platform.io/v1', 'Lease', lease);
    expect([...encoded]).toEqual(envelope('coordination.platform.io/v1', 'Lease', [...bytes(1, objectMeta('l')), ...bytes(2, spec)]));
    // A pointer read back keeps its zero value; MicroTime keeps its microseconds; the zero
    // creationTimestamp is null, as Go writes it.
    expect(decodeProtobufObject(encoded).object).toEqual({ ...lease, apiVersion: 'coordination.platform.io/v1', metadata: { name: 'l', creationTimestamp: null } });
  });

  it('writes a Status error (as v1 Status) with its details', () => {
    const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'pods "x" not found', reason: 'NotFound', details: { name: 'x', kind: 'pods' }, code: 404 };
    const details = [...str(1, 'x'), ...str(2, ''), ...str(3, 'pods'), ...int(5, 0), ...str(6, '')];
    const raw = [...bytes(1, [...str(1, ''), ...str(2, ''), ...str(3, '')]), ...str(2, 'Failure'), ...str(3, 'pods "x" not found'), ...str(4, 'NotFound'), ...bytes(5, details), ...int(6, 404)];
    expect([...encodeProtobufStatus(status)]).toEqual(envelope('v1', 'Status', raw));
  });

  it('frames a watch event: length, then an enveloped WatchEvent holding the enveloped object', () => {
    const object = encodeProtobufObject('rbac.authorization.k8s.io/v1', 'ClusterRole', { metadata: { name: 'r' } });
    const frame = encodeWatchFrame('rbac.authorization.k8s.io/v1', 'ADDED', object);
    const expected = envelope('rbac.authorization.k8s.io/v1', 'WatchEvent', [...str(1, 'ADDED'), ...bytes(2, bytes(1, [...object]))]);
    expect(Buffer.from(frame).readUInt32BE(0)).toBe(expected.length);
    expect([...Buffer.from(frame).subarray(4)]).toEqual(expected);
  });

  it('reads what other writers send: omitted scalars, unknown fields, non-omitempty zeros', () => {
    const subject = [...str(1, 'User'), ...str(3, 'bob'), ...bytes(99, [1, 2])];
    const raw = [...bytes(1, str(1, 'rb')), ...bytes(2, subject), ...bytes(3, [...str(2, 'ClusterRole'), ...str(3, 'view')])];
    const decoded = decodeProtobufObject(Uint8Array.from(envelope('rbac.authorization.k8s.io/v1', 'RoleBinding', raw)));
    expect(decoded.object).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'rb', creationTimestamp: null },
      // Subject.kind and name, RoleRef's fields have no omitempty: their zero values stay.
      subjects: [{ kind: 'User', name: 'bob' }],
      roleRef: { apiGroup: '', kind: 'ClusterRole', name: 'view' },
    });
  });

  it('refuses data without the magic prefix, unknown kinds and broken messages', () => {
    expect(() => decodeEnvelope(Uint8Array.from([1, 2, 3, 4, 5]))).toThrow('expected prefix [107 56 115 0]');
    expect(() => decodeProtobufObject(Uint8Array.from(envelope('stable.example.com/v1', 'CronTab', [])))).toThrow('no kind "CronTab" is registered for version "stable.example.com/v1"');
    expect(() => decodeProtobufObject(Uint8Array.from(envelope('v1', 'Namespace', [0x0a, 0x05, 0x0a])))).toThrow('runs past the end');
  });

  it('refuses field number 0 and numbers past 29 bits, as gogo-protobuf does, instead of skipping them', () => {
    // metadata {name: "a"}, then a varint under field 0.
    expect(() => decodeProtobufObject(Uint8Array.from(envelope('v1', 'Namespace', [0x0a, 0x03, 0x0a, 0x01, 0x61, 0x00, 0x01])))).toThrow('illegal tag 0 (wire type 0)');
    // The same under field 2^29 (key 2^32: five varint bytes).
    expect(() => decodeProtobufObject(Uint8Array.from(envelope('v1', 'Namespace', [0x0a, 0x03, 0x0a, 0x01, 0x61, 0x80, 0x80, 0x80, 0x80, 0x10, 0x01])))).toThrow('illegal tag 536870912 (wire type 0)');
    expect(decodeProtobufObject(Uint8Array.from(envelope('v1', 'Namespace', [0x0a, 0x03, 0x0a, 0x01, 0x61]))).object).toMatchObject({ metadata: { name: 'a' } });
  });
});
