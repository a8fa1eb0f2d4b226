// The protobuf codec of served kinds: an object's JSON form to the bytes gogo-protobuf writes for
// the same Go struct, and back to the JSON kube-apiserver would hold. The message tables
// (k8s-messages.ts) carry the Go facts that decide both directions:
// - a non-pointer scalar is always written, zero included; read back, a zero value is dropped
//   unless its JSON tag lacks omitempty ("keep");
// - a pointer is written only when set, and read back as set even when zero;
// - a non-pointer struct is always written (empty when absent) and always present in JSON
//   (a zero Time or RawExtension as null, a zero Quantity as "0");
// - maps are repeated entries {key = 1, value = 2} in key order; embedded structs ("inline")
//   are fields of their own whose fields sit in the parent's JSON object.
// A few messages have a JSON form of their own: Time, MicroTime, Duration, IntOrString,
// Quantity, RawExtension, FieldsV1 and the ExtraValue string lists.
import { compareStrings } from '../go/strings';
import { ProtoFieldRow, ProtoMessages } from './codec-types';
import { k8sMessages } from './k8s-messages';
import { Field, ProtobufError, readFields } from './wire';

interface CompiledField {
  name: string;
  number: number;
  type: string;
  // valueType is the entry value's type of a map field.
  valueType?: string;
  repeated: boolean;
  pointer: boolean;
  keep: boolean;
  inline: boolean;
}

interface CompiledMessage {
  fields: CompiledField[];
  byNumber: Map<number, CompiledField>;
}

type Json = Record<string, unknown>;

// maxMessageDepth bounds how deep messages nest in what is decoded, so that a body of nested
// messages (a JSONSchemaProps in a JSONSchemaProps...) is refused before the recursion that
// reads it runs out of stack. No served kind comes near it.
const maxMessageDepth = 1000;

const scalarTypes = new Set(['string', 'bytes', 'bool', 'int32', 'int64', 'uint32', 'uint64', 'double']);
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

export class ProtoCodec {
  private readonly compiled = new Map<string, CompiledMessage>();

  constructor(private readonly messages: ProtoMessages) {}

  has(message: string): boolean {
    return message in this.messages;
  }

  encode(message: string, value: unknown): Uint8Array {
    const writer = new ProtoWriter();
    this.writeMessage(writer, message, (value ?? {}) as Json);
    return writer.finish();
  }

  decode(message: string, data: Uint8Array): Json {
    return this.readMessage(message, data, 0);
  }

  private message(name: string): CompiledMessage {
    let compiled = this.compiled.get(name);
    if (!compiled) {
      const rows = this.messages[name];
      if (!rows) throw new ProtobufError(`no protobuf message ${name}`);
      const fields = rows.map(compileField).sort((a, b) => a.number - b.number);
      compiled = { fields, byNumber: new Map(fields.map((f) => [f.number, f])) };
      this.compiled.set(name, compiled);
    }
    return compiled;
  }

  private writeMessage(writer: ProtoWriter, name: string, object: Json): void {
    for (const field of this.message(name).fields) {
      if (field.inline) {
        writer.bytes(field.number, this.encode(field.type, object));
        continue;
      }
      const value = object[field.name];
      if (field.valueType !== undefined) {
        const map = (value ?? {}) as Record<string, unknown>;
        for (const key of Object.keys(map).sort(compareStrings)) {
          const entry = new ProtoWriter();
          entry.bytes(1, encoder.encode(key));
          this.writeValue(entry, 2, field.valueType, map[key]);
          writer.bytes(field.number, entry.finish());
        }
      } else if (field.repeated) {
        if (value === undefined || value === null) continue;
        if (!Array.isArray(value)) throw new ProtobufError(`field ${field.name} must be a list`);
        for (const element of value) this.writeValue(writer, field.number, field.type, element);
      } else if (field.pointer || field.type === 'bytes') {
        // Pointers and byte slices (nil when unset) are written only when set.
        if (value !== undefined && value !== null) this.writeValue(writer, field.number, field.type, value);
      } else {
        this.writeValue(writer, field.number, field.type, value);
      }
    }
  }

  private writeValue(writer: ProtoWriter, number: number, type: string, value: unknown): void {
    switch (type) {
      case 'string':
        return writer.bytes(number, encoder.encode(value === undefined || value === null ? '' : String(value)));
      case 'bytes':
        return writer.bytes(number, Buffer.from(String(value ?? ''), 'base64'));
      case 'bool':
        return writer.varint(number, value === true ? 1 : 0);
      case 'int32':
      case 'int64':
      case 'uint32':
      case 'uint64':
        return writer.varint(number, integer(value));
      case 'double':
        return writer.double(number, Number(value ?? 0));
      default:
        return writer.bytes(number, this.encodeNested(type, value));
    }
  }

  private encodeNested(type: string, value: unknown): Uint8Array {
    const special = specialTypes[type];
    if (special) return special.encode(value);
    return this.encode(type, value);
  }

  private readMessage(name: string, data: Uint8Array, depth: number): Json {
    if (depth > maxMessageDepth) throw new ProtobufError(`messages nested deeper than ${maxMessageDepth} levels`);
    const message = this.message(name);
    const out: Json = {};
    for (const wire of readFields(data)) {
      const field = message.byNumber.get(wire.number);
      if (!field) continue;
      if (field.inline) {
        Object.assign(out, this.readMessage(field.type, bytesOf(wire), depth + 1));
      } else if (field.valueType !== undefined) {
        const entry = readFields(bytesOf(wire));
        let key = '';
        let value: unknown = zeroOf(field.valueType);
        for (const part of entry) {
          if (part.number === 1) key = decoder.decode(bytesOf(part));
          else if (part.number === 2) value = this.readValue(part, field.valueType, depth);
        }
        // One object per map, entries added in place: copying it per entry made decoding a
        // map of n entries cost n² (4,000 labels took seconds).
        let map = out[field.name] as Json | undefined;
        if (map === undefined) out[field.name] = map = {};
        setEntry(map, key, value);
      } else if (field.repeated) {
        const list = (out[field.name] as unknown[] | undefined) ?? [];
        list.push(this.readValue(wire, field.type, depth));
        out[field.name] = list;
      } else {
        const value = this.readValue(wire, field.type, depth);
        if (value === undefined) delete out[field.name];
        else out[field.name] = value;
      }
    }
    for (const field of message.fields) {
      if (field.inline || field.repeated || field.valueType !== undefined) continue;
      const value = out[field.name];
      if (value === undefined) {
        // An unset non-pointer struct is its zero value, which Go writes as JSON all the same
        // (null for a zero Time); an unset non-omitempty scalar is its zero value.
        if (field.pointer) continue;
        const special = specialTypes[field.type];
        if (special) out[field.name] = special.zero;
        else if (!scalarTypes.has(field.type)) out[field.name] = this.readMessage(field.type, new Uint8Array(0), depth + 1);
        else if (field.keep && field.type !== 'bytes') out[field.name] = zeroOf(field.type);
        continue;
      }
      if (!field.pointer && !field.keep && isZero(value)) delete out[field.name];
    }
    return out;
  }

  private readValue(wire: Field, type: string, depth: number): unknown {
    switch (type) {
      case 'string':
        return decodeString(bytesOf(wire));
      case 'bytes':
        return Buffer.from(bytesOf(wire)).toString('base64');
      case 'bool':
        return varintOf(wire) !== 0n;
      case 'int32':
        return Number(BigInt.asIntN(32, varintOf(wire)));
      case 'int64':
        return Number(BigInt.asIntN(64, varintOf(wire)));
      case 'uint32':
      case 'uint64':
        return Number(varintOf(wire));
      case 'double':
        if (wire.fixed === undefined) throw new ProtobufError(`field ${wire.number} is not a 64-bit value`);
        return Buffer.from(wire.fixed).readDoubleLE(0);
      default: {
        const special = specialTypes[type];
        if (special) return special.decode(bytesOf(wire));
        return this.readMessage(type, bytesOf(wire), depth + 1);
      }
    }
  }
}

function compileField([name, number, type, flags = '']: ProtoFieldRow): CompiledField {
  const set = new Set(flags.split(','));
  const map = /^map<(.+)>$/.exec(type);
  return {
    name,
    number,
    type,
    valueType: map?.[1],
    repeated: set.has('repeated'),
    pointer: set.has('pointer'),
    keep: set.has('keep'),
    inline: set.has('inline'),
  };
}

function isZero(value: unknown): boolean {
  return value === '' || value === 0 || value === false;
}

function zeroOf(type: string): unknown {
  switch (type) {
    case 'string':
    case 'bytes':
      return '';
    case 'bool':
      return false;
    case 'int32':
    case 'int64':
    case 'uint32':
    case 'uint64':
    case 'double':
      return 0;
    default:
      return undefined;
  }
}

// setEntry sets a map entry as an own property, "__proto__" included, never the prototype.
function setEntry(map: Json, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
  else map[key] = value;
}

function integer(value: unknown): number {
  if (value === undefined || value === null || value === '') return 0;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n) || !Number.isInteger(n)) throw new ProtobufError(`${JSON.stringify(value)} is not an integer`);
  return n;
}

function decodeString(data: Uint8Array): string {
  try {
    return decoder.decode(data);
  } catch {
    throw new ProtobufError('string field is not valid UTF-8');
  }
}

function bytesOf(field: Field): Uint8Array {
  if (field.bytes === undefined) throw new ProtobufError(`field ${field.number} is not length-delimited`);
  return field.bytes;
}

function varintOf(field: Field): bigint {
  if (field.varint === undefined) throw new ProtobufError(`field ${field.number} is not a varint`);
  return field.varint;
}

// ProtoWriter collects the fields of one message in the order they are written.
export class ProtoWriter {
  private readonly parts: Uint8Array[] = [];
  private size = 0;

  varint(number: number, value: bigint | number): void {
    this.tag(number, 0);
    this.push(varintBytes(value));
  }

  double(number: number, value: number): void {
    this.tag(number, 1);
    const data = Buffer.alloc(8);
    data.writeDoubleLE(value);
    this.push(data);
  }

  bytes(number: number, data: Uint8Array): void {
    this.tag(number, 2);
    this.push(varintBytes(data.length));
    this.push(data);
  }

  finish(): Uint8Array {
    return Buffer.concat(this.parts, this.size);
  }

  private tag(number: number, wireType: number): void {
    this.push(varintBytes(number * 8 + wireType));
  }

  private push(data: Uint8Array): void {
    this.parts.push(data);
    this.size += data.length;
  }
}

// varintBytes writes a varint; negative numbers as their 64-bit two's complement (ten bytes),
// as Go writes a negative int32 or int64.
export function varintBytes(value: bigint | number): Uint8Array {
  if (typeof value === 'number' && value >= 0 && value <= 0x7fffffff) return smallVarint(value);
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  while (v > 0x7fn) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Uint8Array.from(out);
}

const smallVarints = Array.from({ length: 128 }, (_, n) => Uint8Array.of(n));

function smallVarint(value: number): Uint8Array {
  if (value < 128) return smallVarints[value];
  const out: number[] = [];
  let v = value;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
  return Uint8Array.from(out);
}

interface SpecialType {
  encode(value: unknown): Uint8Array;
  decode(data: Uint8Array): unknown;
  // zero is the JSON Go writes for the type's zero value (a non-pointer field left unset).
  zero: unknown;
}

// readSmall reads the scalar fields of a small fixed message by number.
function readSmall(data: Uint8Array): Map<number, Field> {
  return new Map(readFields(data).map((f) => [f.number, f]));
}

function encodeTime(value: unknown, micro: boolean): Uint8Array {
  if (value === undefined || value === null || value === '') return new Uint8Array(0);
  const text = String(value);
  const millis = Date.parse(text);
  if (Number.isNaN(millis)) throw new ProtobufError(`${JSON.stringify(text)} is not a time`);
  const seconds = Math.floor(millis / 1000);
  const fraction = /\.(\d+)/.exec(text)?.[1] ?? '';
  const nanos = micro ? Number(fraction.slice(0, 6).padEnd(9, '0')) : 0;
  const writer = new ProtoWriter();
  writer.varint(1, seconds);
  writer.varint(2, nanos);
  return writer.finish();
}

function decodeTime(data: Uint8Array, micro: boolean): unknown {
  // A zero time is written as an empty message and is null in JSON.
  if (data.length === 0) return null;
  const fields = readSmall(data);
  const seconds = Number(BigInt.asIntN(64, fields.get(1)?.varint ?? 0n));
  const iso = new Date(seconds * 1000).toISOString().slice(0, 19);
  if (!micro) return `${iso}Z`;
  const micros = Math.floor(Number(fields.get(2)?.varint ?? 0n) / 1000);
  return `${iso}.${String(micros).padStart(6, '0')}Z`;
}

function encodeRawJson(value: unknown): Uint8Array {
  const writer = new ProtoWriter();
  if (value !== undefined && value !== null) writer.bytes(1, encoder.encode(JSON.stringify(value)));
  return writer.finish();
}

function decodeRawJson(data: Uint8Array): unknown {
  const raw = readSmall(data).get(1)?.bytes;
  if (raw === undefined) return null;
  try {
    return JSON.parse(decodeString(raw));
  } catch {
    throw new ProtobufError('embedded raw data is not JSON');
  }
}

const durationUnits: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

// Go's time.Duration in JSON is its String() form (1h2m3.5s).
function parseDuration(text: string): bigint {
  if (text === '0') return 0n;
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g;
  const sign = text.startsWith('-') ? -1 : 1;
  let total = 0;
  let matched = '';
  for (const m of text.replace(/^[-+]/, '').matchAll(re)) {
    total += Number(m[1]) * durationUnits[m[2]];
    matched += m[0];
  }
  if (matched !== text.replace(/^[-+]/, '')) throw new ProtobufError(`${JSON.stringify(text)} is not a duration`);
  return BigInt(Math.round(sign * total));
}

function formatDuration(nanos: number): string {
  if (nanos === 0) return '0s';
  const sign = nanos < 0 ? '-' : '';
  let rest = Math.abs(nanos);
  if (rest < 1e9) {
    if (rest < 1e3) return `${sign}${rest}ns`;
    if (rest < 1e6) return `${sign}${rest / 1e3}µs`;
    return `${sign}${rest / 1e6}ms`;
  }
  const hours = Math.floor(rest / 3600e9);
  rest -= hours * 3600e9;
  const minutes = Math.floor(rest / 60e9);
  rest -= minutes * 60e9;
  const seconds = `${rest / 1e9}s`;
  if (hours) return `${sign}${hours}h${minutes}m${seconds}`;
  if (minutes) return `${sign}${minutes}m${seconds}`;
  return `${sign}${seconds}`;
}

const stringList: SpecialType = {
  zero: [],
  encode(value) {
    const writer = new ProtoWriter();
    for (const item of (value as unknown[] | null | undefined) ?? []) writer.bytes(1, encoder.encode(String(item)));
    return writer.finish();
  },
  decode(data) {
    return readFields(data)
      .filter((f) => f.number === 1)
      .map((f) => decodeString(bytesOf(f)));
  },
};

const specialTypes: Record<string, SpecialType> = {
  'meta.v1.Time': { encode: (v) => encodeTime(v, false), decode: (d) => decodeTime(d, false), zero: null },
  'meta.v1.MicroTime': { encode: (v) => encodeTime(v, true), decode: (d) => decodeTime(d, true), zero: null },
  'meta.v1.Duration': {
    zero: '0s',
    encode(value) {
      const writer = new ProtoWriter();
      writer.varint(1, parseDuration(String(value ?? '0')));
      return writer.finish();
    },
    decode: (data) => formatDuration(Number(BigInt.asIntN(64, readSmall(data).get(1)?.varint ?? 0n))),
  },
  'intstr.IntOrString': {
    zero: 0,
    encode(value) {
      const writer = new ProtoWriter();
      const isString = typeof value === 'string';
      writer.varint(1, isString ? 1 : 0);
      writer.varint(2, isString ? 0 : integer(value));
      writer.bytes(3, encoder.encode(isString ? value : ''));
      return writer.finish();
    },
    decode(data) {
      const fields = readSmall(data);
      if (fields.get(1)?.varint === 1n) return decodeString(fields.get(3)?.bytes ?? new Uint8Array(0));
      return Number(BigInt.asIntN(32, fields.get(2)?.varint ?? 0n));
    },
  },
  'resource.Quantity': {
    zero: '0',
    encode(value) {
      const writer = new ProtoWriter();
      writer.bytes(1, encoder.encode(value === undefined || value === null ? '0' : String(value)));
      return writer.finish();
    },
    decode: (data) => decodeString(readSmall(data).get(1)?.bytes ?? encoder.encode('0')),
  },
  'runtime.RawExtension': { encode: encodeRawJson, decode: decodeRawJson, zero: null },
  'meta.v1.FieldsV1': { encode: encodeRawJson, decode: decodeRawJson, zero: null },
  'authentication.v1.ExtraValue': stringList,
  'authorization.v1.ExtraValue': stringList,
};

// k8sCodec is the codec of the Kubernetes messages the server serves.
export const k8sCodec = new ProtoCodec(k8sMessages);
