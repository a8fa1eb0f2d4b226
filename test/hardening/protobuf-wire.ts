// A protobuf wire writer for hostile request bodies, written independently of the server's
// codec: fields are written as given, so a body can carry wrong wire types, lengths that lie and
// overlong varints as easily as well-formed messages.
export const protobufMagic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

export function varint(value: number | bigint): Buffer {
  let v = BigInt(value);
  if (v < 0n) v += 1n << 64n;
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return Buffer.from(out);
}

export const tag = (field: number, wireType: number) => varint((field << 3) | wireType);

export function bytesField(field: number, payload: Buffer | string): Buffer {
  const data = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  return Buffer.concat([tag(field, 2), varint(data.length), data]);
}

export function varintField(field: number, value: number | bigint): Buffer {
  return Buffer.concat([tag(field, 0), varint(value)]);
}

// mapEntries writes a map<string,string> field: one {key=1, value=2} message per entry.
export function mapEntries(field: number, entries: [string, string][]): Buffer {
  return Buffer.concat(entries.map(([k, v]) => bytesField(field, Buffer.concat([bytesField(1, k), bytesField(2, v)]))));
}

// envelope is runtime.Unknown behind the k8s\0 magic: typeMeta {apiVersion, kind} and raw.
export function envelope(apiVersion: string, kind: string, raw: Buffer): Buffer {
  return Buffer.concat([protobufMagic, bytesField(1, Buffer.concat([bytesField(1, apiVersion), bytesField(2, kind)])), bytesField(2, raw)]);
}

export interface ServiceAccountFields {
  name: string;
  labels?: [string, string][];
  annotations?: [string, string][];
  extraMeta?: Buffer;
  extra?: Buffer;
}

// serviceAccount is a v1 ServiceAccount message: metadata=1 {name=1, labels=11,
// annotations=12}, secrets=2 [{name=3}], automountServiceAccountToken=4.
export function serviceAccount(fields: ServiceAccountFields): Buffer {
  const meta = Buffer.concat([bytesField(1, fields.name), mapEntries(11, fields.labels ?? []), mapEntries(12, fields.annotations ?? []), fields.extraMeta ?? Buffer.alloc(0)]);
  return Buffer.concat([bytesField(1, meta), bytesField(2, bytesField(3, 's')), varintField(4, 1), fields.extra ?? Buffer.alloc(0)]);
}
