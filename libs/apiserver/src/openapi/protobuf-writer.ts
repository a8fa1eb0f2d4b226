// ProtoWriter encodes one protobuf message by hand: the few wire types the OpenAPI v2 Document
// needs (varint, 64-bit double, length-delimited strings and nested messages). Fields are
// written in the order they are added; proto3 defaults (empty strings, false) are skipped, as
// a generated marshaller skips them.
const wireVarint = 0;
const wireFixed64 = 1;
const wireBytes = 2;

export class ProtoWriter {
  private readonly parts: Buffer[] = [];
  private size = 0;

  get length(): number {
    return this.size;
  }

  string(field: number, value: string | undefined): this {
    if (value === undefined || value === '') return this;
    return this.bytes(field, Buffer.from(value, 'utf8'));
  }

  // strings writes a repeated string field, empty elements included.
  strings(field: number, values: readonly string[] | undefined): this {
    for (const value of values ?? []) this.bytes(field, Buffer.from(value, 'utf8'));
    return this;
  }

  bool(field: number, value: boolean | undefined): this {
    if (!value) return this;
    this.tag(field, wireVarint);
    return this.push(Buffer.from([1]));
  }

  // int64 writes a non-negative integer (lengths and counts in the OpenAPI messages).
  int64(field: number, value: number | undefined): this {
    if (!value) return this;
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`protobuf: unsupported int64 ${value}`);
    this.tag(field, wireVarint);
    return this.push(varint(value));
  }

  double(field: number, value: number | undefined): this {
    if (!value) return this;
    this.tag(field, wireFixed64);
    const buf = Buffer.alloc(8);
    buf.writeDoubleLE(value);
    return this.push(buf);
  }

  // message writes a nested message; an empty one is still written, since its presence can
  // matter (an empty Operation is not a missing one).
  message(field: number, message: ProtoWriter | undefined): this {
    if (!message) return this;
    return this.bytes(field, message.finish());
  }

  finish(): Buffer {
    return Buffer.concat(this.parts, this.size);
  }

  private bytes(field: number, data: Buffer): this {
    this.tag(field, wireBytes);
    this.push(varint(data.length));
    return this.push(data);
  }

  private tag(field: number, wireType: number): void {
    this.push(varint(field * 8 + wireType));
  }

  private push(buf: Buffer): this {
    this.parts.push(buf);
    this.size += buf.length;
    return this;
  }
}

export function varint(value: number): Buffer {
  const bytes: number[] = [];
  let v = value;
  while (v >= 0x80) {
    bytes.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  bytes.push(v);
  return Buffer.from(bytes);
}
