// toCelValue converts a JSON value into CEL input by its schema, as Kubernetes'
// UnstructuredToVal does: integer fields become int (bigint), number fields double, strings
// with format date-time or date timestamps, duration durations and byte bytes; objects with
// properties become messages whose fields carry escaped names (unknown fields are not
// accessible), maps keep their keys, lists convert element-wise. An integer beyond 2^53 whose
// literal the decoder kept arrives as that int64 (exactInteger).
import { celError, celList, CelInput, celMap } from '@bufbuild/cel';
import { create } from '@bufbuild/protobuf';
import { exactInteger, isGoFloat } from '@plinth/machinery';
import { durationFromMs, timestampFromDate, TimestampSchema } from '@bufbuild/protobuf/wkt';
import { escapePropertyName } from './escaping';
import { inaccessibleFields, keyedList } from './lists';
import { additionalPropertiesSchema, JSONSchemaProps } from './schema';

export function toCelValue(value: unknown, schema: JSONSchemaProps | undefined): CelInput {
  if (value === null || value === undefined) return null;
  if (!schema) return dynamicValue(value);
  // a value of another type than its schema's is an error a rule meets when it reads the value
  if (schema['x-kubernetes-int-or-string']) return typeof value === 'string' ? value : integerValue(value) ?? invalidData('expected XIntOrString value to be either a string or integer');
  switch (schema.type) {
    case 'integer':
      return integerValue(value) ?? invalidData(`expected int, got ${goTypeName(value)}`);
    case 'number':
      if (value instanceof GoFloat) return value.value;
      return typeof value === 'number' || typeof value === 'bigint' ? Number(value) : invalidData(`expected float, got ${goTypeName(value)}`);
    case 'array':
      return Array.isArray(value) ? listValue(value, schema) : invalidData('expected an array for the provided schema with type=array');
    case 'object':
      return isJsonObject(value) ? objectValue(value, schema) : invalidData('expected a map for the provided schema with type=object');
    case 'string':
      return typeof value === 'string' ? formattedString(value, schema.format) : invalidData(`expected string, got ${goTypeName(value)}`);
    case 'boolean':
      return typeof value === 'boolean' ? value : invalidData(`expected bool, got ${goTypeName(value)}`);
    default:
      return dynamicValue(value);
  }
}

// GoFloat is a number written as a float (`5.0`, `1e2`), which Go decodes as float64: a double
// for a rule, never an int.
export class GoFloat {
  constructor(readonly value: number) {}
}

function invalidData(detail: string): CelInput {
  return celError(`invalid data, ${detail}`) as unknown as CelInput;
}

// goTypeName is the Go type (%T) encoding/json decodes a JSON value into.
function goTypeName(value: unknown): string {
  if (value instanceof GoFloat) return 'float64';
  if (typeof value === 'bigint') return 'int64';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return '[]interface {}';
  return 'map[string]interface {}';
}

function isJsonObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof GoFloat);
}

// exactMember is container[key], as a bigint when it is an int64 whose literal was kept, and as
// a GoFloat when it was written as a float.
export function exactMember(container: object, key: string | number): unknown {
  const value = (container as Record<string | number, unknown>)[key];
  if (typeof value !== 'number') return value;
  if (isGoFloat(container, key)) return new GoFloat(value);
  return exactInteger(container, key) ?? value;
}

function memberValue(container: object, key: string | number, schema: JSONSchemaProps | undefined): CelInput {
  return toCelValue(exactMember(container, key), schema);
}

function integerValue(value: unknown): bigint | null {
  if (typeof value === 'bigint') return value;
  if (value instanceof GoFloat) return null;
  return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : null;
}

// listValue keeps the set or map semantics of `x-kubernetes-list-type`; map keys are escaped as
// the element's properties are.
function listValue(value: unknown[], schema: JSONSchemaProps): CelInput {
  const elements = value.map((item, i) => (item === null && !schema.items?.nullable ? invalidData('got null for schema with nullable=false') : memberValue(value, i, schema.items)));
  switch (schema['x-kubernetes-list-type']) {
    case 'set':
      return keyedList(elements, { kind: 'set' });
    case 'map':
      return keyedList(elements, { kind: 'map', keys: (schema['x-kubernetes-list-map-keys'] ?? []).map((k) => escapePropertyName(k) ?? k) });
    default:
      return celList(elements);
  }
}

const rfc3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const goDuration = /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h))+$/;
const durationUnitsMs: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

// parseGoDuration reads a Go duration string ("1h30m", "90s", "-1.5h") in milliseconds.
export function parseGoDuration(text: string): number | null {
  if (text === '0') return 0;
  if (!goDuration.test(text)) return null;
  const sign = text.startsWith('-') ? -1 : 1;
  let ms = 0;
  for (const m of text.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g)) ms += Number(m[1]) * durationUnitsMs[m[2]];
  return sign * ms;
}

// timestampOffsets keeps the UTC offset (in minutes) a date-time was written with: Go's
// time.Time keeps it, so string(self.ts) prints the time as written.
export const timestampOffsets = new WeakMap<object, number>();

// parseDateTime reads an RFC 3339 date-time to the nanosecond, keeping its offset (the text
// back when it is not one).
export function parseDateTime(value: string): CelInput {
  const m = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}:\d{2}:\d{2})(?:\.(\d+))?([Zz]|([+-])(\d{2}):(\d{2}))$/.exec(value);
  if (!m) return value;
  const offset = m[5] ? (m[5] === '-' ? -1 : 1) * (Number(m[6]) * 60 + Number(m[7])) : 0;
  const utcMs = Date.parse(`${m[1]}T${m[2]}Z`) - offset * 60_000;
  if (Number.isNaN(utcMs)) return value;
  const nanos = Number((m[3] ?? '').slice(0, 9).padEnd(9, '0'));
  const timestamp = create(TimestampSchema, { seconds: BigInt(Math.floor(utcMs / 1000)), nanos });
  timestampOffsets.set(timestamp, offset);
  return timestamp;
}

// formattedString gives a string with a format its CEL type; unparseable values stay strings.
function formattedString(value: string, format: string | undefined): CelInput {
  switch (format) {
    case 'date-time':
    case 'datetime':
      return rfc3339.test(value) ? parseDateTime(value) : value;
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(value) ? timestampFromDate(new Date(`${value}T00:00:00Z`)) : value;
    case 'duration': {
      const ms = parseGoDuration(value);
      return ms === null ? value : durationFromMs(ms);
    }
    case 'byte':
      return new Uint8Array(Buffer.from(value, 'base64'));
    default:
      return value;
  }
}

// withInaccessible records the fields of an object a rule cannot reach, for equality; their
// JSON is written only when an equality needs it.
function withInaccessible(map: CelInput, fields: [string, unknown][]): CelInput {
  if (fields.length === 0 || map === null || typeof map !== 'object') return map;
  let json: string | undefined;
  inaccessibleFields.set(map, { json: () => (json ??= stableJson(Object.fromEntries(fields))) });
  return map;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function objectValue(value: unknown, schema: JSONSchemaProps): CelInput {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return dynamicValue(value);
  const obj = value as Record<string, unknown>;
  const entries = new Map<string, CelInput>();
  const valueSchema = additionalPropertiesSchema(schema);
  if (schema.properties || schema['x-kubernetes-embedded-resource']) {
    const properties = schema.properties ?? {};
    const inaccessible: [string, unknown][] = [];
    for (const [key, v] of Object.entries(obj)) {
      // A null field is absent, as in Kubernetes' unstructured values: has() is false, a
      // selection fails with no such key.
      if (v === null) continue;
      const known = Object.prototype.hasOwnProperty.call(properties, key);
      const name = escapePropertyName(key);
      if ((!known && !(schema['x-kubernetes-embedded-resource'] && ['apiVersion', 'kind', 'metadata'].includes(key))) || name === null) {
        inaccessible.push([key, v]);
        continue;
      }
      entries.set(name, memberValue(obj, key, known ? properties[key] : undefined));
    }
    return withInaccessible(celMap(entries), inaccessible);
  }
  if (valueSchema || schema.additionalProperties === true) {
    for (const key of Object.keys(obj)) entries.set(key, memberValue(obj, key, valueSchema));
    return celMap(entries);
  }
  // Fields kept only by x-kubernetes-preserve-unknown-fields are not accessible.
  return withInaccessible(celMap(entries), Object.entries(obj));
}

function dynamicMember(container: object, key: string | number): CelInput {
  return dynamicValue(exactMember(container, key));
}

// dynamicValue converts schemaless JSON: whole numbers as int, others as double.
function dynamicValue(value: unknown): CelInput {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'bigint') return value;
  if (value instanceof GoFloat) return value.value;
  if (Array.isArray(value)) return celList(value.map((_, i) => dynamicMember(value, i)));
  return celMap(new Map(Object.keys(value as Record<string, unknown>).map((k) => [k, dynamicMember(value as object, k)])));
}
