import { ProtoCodec, varintBytes } from './codec';

// A test table exercising the messages with a JSON form of their own.
const codec = new ProtoCodec({
  't.Special': [
    ['port', 1, 'intstr.IntOrString', 'pointer'],
    ['cpu', 2, 'resource.Quantity'],
    ['data', 3, 'runtime.RawExtension'],
    ['when', 4, 'meta.v1.Time', 'pointer'],
    ['extra', 5, 'map<authorization.v1.ExtraValue>'],
    ['timeout', 6, 'meta.v1.Duration', 'pointer'],
    ['ids', 7, 'int64', 'repeated'],
    ['ready', 8, 'bool', 'keep'],
    ['blob', 9, 'bytes'],
  ],
});

const bytes = (field: number, payload: number[]) => [(field << 3) | 2, payload.length, ...payload];
const str = (field: number, value: string) => bytes(field, [...Buffer.from(value)]);

describe('ProtoCodec special messages', () => {
  it('writes IntOrString, Quantity, RawExtension, Time, ExtraValue maps, Duration, repeated and bytes as gogo does', () => {
    const value = { port: 'http', cpu: '250m', data: { a: 1 }, when: '1970-01-01T00:01:40Z', extra: { scopes: ['x', 'y'] }, timeout: '1m30s', ids: [1, 300], ready: false, blob: 'AQI=' };
    const expected = [
      ...bytes(1, [0x08, 1, 0x10, 0, ...str(3, 'http')]),
      ...bytes(2, str(1, '250m')),
      ...bytes(3, str(1, '{"a":1}')),
      ...bytes(4, [0x08, 100, 0x10, 0]),
      ...bytes(5, [...str(1, 'scopes'), ...bytes(2, [...str(1, 'x'), ...str(1, 'y')])]),
      ...bytes(6, [0x08, ...varintBytes(90e9)]),
      ...[0x38, 1, 0x38, 0xac, 0x02],
      ...[0x40, 0],
      ...bytes(9, [1, 2]),
    ];
    const encoded = codec.encode('t.Special', value);
    expect([...encoded]).toEqual(expected);
    expect(codec.decode('t.Special', encoded)).toEqual(value);
  });

  it('writes an integer IntOrString and a zero Quantity; reads absent pointers as absent, absent values as zero', () => {
    const encoded = codec.encode('t.Special', { port: 8080 });
    expect([...encoded]).toEqual([...bytes(1, [0x08, 0, 0x10, 0x90, 0x3f, ...str(3, '')]), ...bytes(2, str(1, '0')), ...bytes(3, []), 0x40, 0]);
    // Unset non-pointer fields read back as Go writes their zero values: "0", null.
    expect(codec.decode('t.Special', encoded)).toEqual({ port: 8080, cpu: '0', data: null, ready: false });
    expect(codec.decode('t.Special', new Uint8Array(0))).toEqual({ cpu: '0', data: null, ready: false });
  });
});
