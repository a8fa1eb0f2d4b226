import { decodeProtobufObject, protobufMagic } from './kinds';

// A tiny protobuf writer for the test: length-delimited and varint fields.
function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 127) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}
const bytes = (field: number, payload: number[]) => [...varint((field << 3) | 2), ...varint(payload.length), ...payload];
const str = (field: number, value: string) => bytes(field, [...Buffer.from(value)]);

describe('decodeProtobufObject', () => {
  it('reads a RoleBinding from the kubernetes protobuf envelope, dropping zero scalars', () => {
    const meta = [...str(1, 'rb'), ...str(3, 'team'), ...bytes(11, [...str(1, 'a'), ...str(2, 'b')])];
    const subject = [...str(1, 'User'), ...str(2, 'rbac.authorization.k8s.io'), ...str(3, 'bob'), ...str(4, '')];
    const roleRef = [...str(1, 'rbac.authorization.k8s.io'), ...str(2, 'ClusterRole'), ...str(3, 'view')];
    const raw = [...bytes(1, meta), ...bytes(2, subject), ...bytes(3, roleRef)];
    const typeMeta = [...str(1, 'rbac.authorization.k8s.io/v1'), ...str(2, 'RoleBinding')];
    const data = Uint8Array.from([...protobufMagic, ...bytes(1, typeMeta), ...bytes(2, raw)]);
    expect(decodeProtobufObject(data)).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      object: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'rb', namespace: 'team', labels: { a: 'b' } },
        subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }],
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      },
    });
  });

  it('refuses data without the magic prefix and kinds it has no table for', () => {
    expect(() => decodeProtobufObject(Uint8Array.from([1, 2, 3, 4, 5]))).toThrow('expected prefix [107 56 115 0]');
    const typeMeta = [...str(1, 'batch/v1'), ...str(2, 'Job')];
    expect(() => decodeProtobufObject(Uint8Array.from([...protobufMagic, ...bytes(1, typeMeta)]))).toThrow('protobuf bodies of kind Job are not supported');
  });
});
