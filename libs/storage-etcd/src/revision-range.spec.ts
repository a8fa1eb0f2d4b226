import { responseRevision } from './revision-range';

// varint encodes a non-negative integer as protobuf does.
function varint(value: bigint): number[] {
  const bytes: number[] = [];
  while (value >= 128n) {
    bytes.push(Number(value % 128n) | 0x80);
    value /= 128n;
  }
  bytes.push(Number(value));
  return bytes;
}

// rangeResponse encodes RangeResponse{header: {cluster_id, member_id, revision, raft_term}, count}
// as etcd writes it, its fields in number order (ids of 64 bits, as etcd's are).
function rangeResponse(revision: number, count = 0): Uint8Array {
  const header = [0x08, ...varint(14841639068965178418n), 0x10, ...varint(10276657743932975437n), 0x18, ...varint(BigInt(revision)), 0x20, ...varint(2n)];
  return new Uint8Array([0x0a, ...varint(BigInt(header.length)), ...header, ...(count > 0 ? [0x20, ...varint(BigInt(count))] : [])]);
}

describe('responseRevision', () => {
  it.each([1, 127, 128, 300_000, 2 ** 40 + 5])('reads header.revision %d from a RangeResponse', (revision) => {
    expect(responseRevision(rangeResponse(revision, 3))).toBe(revision);
  });

  it('steps over fields before the header and reads 0 from an empty response', () => {
    const fixed64 = [0x09, 1, 2, 3, 4, 5, 6, 7, 8];
    expect(responseRevision(new Uint8Array([...fixed64, ...rangeResponse(42)]))).toBe(42);
    expect(responseRevision(new Uint8Array([]))).toBe(0);
  });

  it('refuses a truncated response rather than reading past it', () => {
    const whole = rangeResponse(9_000_000);
    expect(() => responseRevision(whole.subarray(0, whole.length - 2))).toThrow(/truncated/);
  });
});
