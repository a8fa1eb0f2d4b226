// Decoding protobuf messages of served kinds into their JSON form, from tables of Kubernetes'
// generated.proto field numbers. A table maps field numbers to JSON names and types; fields
// it does not name are skipped.
import { Field, ProtobufError, readFields } from './wire';

export type FieldType =
  | { kind: 'string' }
  | { kind: 'bytes' }
  | { kind: 'int' }
  | { kind: 'bool' }
  | { kind: 'time' }
  | { kind: 'message'; message: MessageTable }
  | { kind: 'map' };

export interface FieldSpec {
  name: string;
  type: FieldType;
  repeated?: boolean;
}

export type MessageTable = Record<number, FieldSpec>;

const decoder = new TextDecoder();

export function decodeMessage(data: Uint8Array, table: MessageTable): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of readFields(data)) {
    const spec = table[field.number];
    if (!spec) continue;
    const value = decodeValue(field, spec.type);
    // Go writes every scalar of a proto2 message, zero values included; the JSON form omits
    // them (omitempty), so zero scalars read as absent.
    if (!spec.repeated && (value === '' || value === 0 || value === false)) continue;
    if (spec.type.kind === 'map') {
      const [k, v] = value as [string, string];
      out[spec.name] = { ...((out[spec.name] as Record<string, string>) ?? {}), [k]: v };
    } else if (spec.repeated) {
      out[spec.name] = [...((out[spec.name] as unknown[]) ?? []), value];
    } else {
      out[spec.name] = value;
    }
  }
  return out;
}

function decodeValue(field: Field, type: FieldType): unknown {
  switch (type.kind) {
    case 'string':
      return decoder.decode(bytesOf(field));
    case 'bytes':
      return Buffer.from(bytesOf(field)).toString('base64');
    case 'int':
      return Number(varintOf(field));
    case 'bool':
      return varintOf(field) !== 0n;
    case 'time': {
      const t = decodeMessage(bytesOf(field), { 1: { name: 'seconds', type: { kind: 'int' } } });
      return new Date(Number(t.seconds ?? 0) * 1000).toISOString().replace('.000Z', 'Z');
    }
    case 'message':
      return decodeMessage(bytesOf(field), type.message);
    case 'map': {
      const entry = decodeMessage(bytesOf(field), { 1: { name: 'key', type: { kind: 'string' } }, 2: { name: 'value', type: { kind: 'string' } } });
      return [String(entry.key ?? ''), String(entry.value ?? '')];
    }
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
