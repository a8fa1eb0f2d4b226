// A protobuf wire-format reader: varints, length-delimited fields, and skipping of fields a
// message table does not name.
export class ProtobufError extends Error {}

export interface Field {
  number: number;
  wireType: number;
  // varint holds a varint field's value; bytes a length-delimited field's payload.
  varint?: bigint;
  bytes?: Uint8Array;
  // fixed holds a 64-bit or 32-bit fixed field's little-endian bytes.
  fixed?: Uint8Array;
}

export function readFields(data: Uint8Array): Field[] {
  const fields: Field[] = [];
  let pos = 0;
  const varint = (): bigint => {
    // Up to seven bytes (49 bits) add up exactly as a number, one BigInt at the end; longer
    // varints (negative numbers, large uint64s) take the BigInt path.
    let small = 0;
    for (let i = 0; i < 7 && pos + i < data.length; i++) {
      const byte = data[pos + i];
      small += (byte & 0x7f) * 2 ** (7 * i);
      if ((byte & 0x80) === 0) {
        pos += i + 1;
        return BigInt(small);
      }
    }
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (pos >= data.length) throw new ProtobufError('unexpected end of data in varint');
      const byte = data[pos++];
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
      if (shift > 70n) throw new ProtobufError('varint too long');
    }
  };
  while (pos < data.length) {
    const key = varint();
    const number = Number(key >> 3n);
    const wireType = Number(key & 7n);
    // Field numbers start at 1 and fit in 29 bits; gogo-protobuf's generated Unmarshal refuses a
    // tag outside them (illegal tag) rather than skip it.
    if (number <= 0 || number > 0x1fffffff) throw new ProtobufError(`illegal tag ${number} (wire type ${wireType})`);
    switch (wireType) {
      case 0:
        fields.push({ number, wireType, varint: varint() });
        break;
      case 1:
        if (pos + 8 > data.length) throw new ProtobufError('unexpected end of data in fixed64');
        fields.push({ number, wireType, fixed: data.subarray(pos, pos + 8) });
        pos += 8;
        break;
      case 2: {
        const length = Number(varint());
        if (pos + length > data.length) throw new ProtobufError('length-delimited field runs past the end of the data');
        fields.push({ number, wireType, bytes: data.subarray(pos, pos + length) });
        pos += length;
        break;
      }
      case 5:
        if (pos + 4 > data.length) throw new ProtobufError('unexpected end of data in fixed32');
        fields.push({ number, wireType, fixed: data.subarray(pos, pos + 4) });
        pos += 4;
        break;
      default:
        throw new ProtobufError(`unsupported wire type ${wireType}`);
    }
  }
  if (pos > data.length) throw new ProtobufError('unexpected end of data');
  return fields;
}
