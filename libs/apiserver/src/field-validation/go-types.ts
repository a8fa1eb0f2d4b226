// decodeGoTypes reads a decoded JSON body as encoding/json (sigs.k8s.io/json, as kube-apiserver
// decodes built-in kinds) reads it into the kind's Go struct, in place:
// - null stores nothing: a struct field stays at its zero value (here: the field goes away), a
//   map value or list element becomes its type's zero value ("" for a string, 0, false, {}).
// - A value of the wrong JSON type is refused; encoding/json keeps decoding and answers the first
//   such error in document order:
//     json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string
//   The field path is the JSON path from the root without list indices, the struct is the Go
//   type that holds the field, and the type is the field's Go type. Go type names are read from
//   the schema: scalars and maps exactly, structs from their definition name where the schema
//   has one, else as Kubernetes names its struct types (<Kind>Spec, <Kind>Status, the field).
// - Integers take only integer literals that fit their Go type (`1e2`, `15.0` and 2147483648
//   are refused for int32: "number 1e2"), floats only finite ones.
// - Types with their own UnmarshalJSON (metav1.Time, MicroTime, IntOrString, Quantity) end the
//   decoding at once with their own error, which wins over an earlier wrong type; their inner
//   encoding/json errors carry no struct context ("into Go value of type int32").
// Fields the schema does not describe are left to unknown-field handling.
import type { Schema } from '@plinth/api';
import { formatQuantity, parseQuantity } from '@plinth/registry';
import { parseGoTime } from './go-time';
import type { NumberLiterals } from './strict-json';

export function decodeGoTypes(value: unknown, schema: Schema, kind: string, literals?: NumberLiterals): string | null {
  const decoder = new GoDecoder(kind, literals);
  try {
    decoder.struct(value, schema, kind, []);
  } catch (err) {
    if (err instanceof UnmarshalerError) return err.message;
    throw err;
  }
  return decoder.saved;
}

// UnmarshalerError is an error of a type's own UnmarshalJSON, which stops encoding/json.
class UnmarshalerError extends Error {}

type Container = Record<string, unknown> | unknown[];

class GoDecoder {
  // saved is encoding/json's savedError: the first wrong type met.
  saved: string | null = null;

  constructor(
    private readonly kind: string,
    private readonly literals: NumberLiterals | undefined,
  ) {}

  // set leaves container[key] as Go holds the value.
  private set(container: Container, key: string | number, value: unknown): void {
    (container as Record<string | number, unknown>)[key] = value;
  }

  struct(value: unknown, schema: Schema, struct: string, path: string[]): void {
    if (!isPlainObject(value)) return;
    const properties = schema.properties ?? {};
    for (const name of Object.keys(value)) {
      if (!Object.prototype.hasOwnProperty.call(properties, name)) continue;
      const field = properties[name];
      if (value[name] === null) {
        if (!keepsNull(field)) delete value[name];
        continue;
      }
      this.value(value, name, field, struct, [...path, name], name);
    }
  }

  // value decodes container[key], a value that is not null.
  private value(container: Container, key: string | number, schema: Schema, struct: string, path: string[], name: string): void {
    const value = (container as Record<string | number, unknown>)[key];
    if (keepsNull(schema)) return;
    const save = (what: string) => {
      this.saved ??= `json: cannot unmarshal ${what} into Go struct field ${struct}.${path.join('.')} of type ${goTypeName(schema, this.kind, name, path.length)}`;
    };
    if (schema.intOrString) return this.intOrString(container, key, schema);
    switch (schema.type) {
      case 'string':
        if (schema.format === 'date-time') return this.time(container, key, schema);
        if (typeof value !== 'string') save(jsonKind(value));
        return;
      case 'boolean':
        if (typeof value !== 'boolean') save(jsonKind(value));
        return;
      case 'integer':
        if (typeof value !== 'number') save(jsonKind(value));
        else if (!fitsInteger(this.literal(container, key), schema)) save(`number ${this.literal(container, key)}`);
        return;
      case 'number':
        if (typeof value !== 'number') save(jsonKind(value));
        else if (!Number.isFinite(Number(this.literal(container, key)))) save(`number ${this.literal(container, key)}`);
        return;
      case 'array': {
        if (!Array.isArray(value)) return save(jsonKind(value));
        const items = schema.items;
        if (!items) return;
        for (let i = 0; i < value.length; i++) this.element(value, i, items, struct, path, singular(name));
        return;
      }
    }
    if (schema.type === 'object' || schema.properties || schema.additionalProperties) {
      if (!isPlainObject(value)) return save(jsonKind(value));
      if (isStruct(schema)) return this.struct(value, schema, structName(schema, this.kind, name, path.length), path);
      const elements = schema.additionalProperties;
      if (!elements) return;
      for (const k of Object.keys(value)) this.element(value, k, elements, struct, path, name);
    }
  }

  // element decodes a list element or map value (in the struct that holds the list or map):
  // null is the element type's zero value.
  private element(container: Container, key: string | number, schema: Schema, struct: string, path: string[], name: string): void {
    const value = (container as Record<string | number, unknown>)[key];
    if (value === null) {
      this.set(container, key, zeroValue(schema));
      return;
    }
    if (isStruct(schema) && isPlainObject(value)) return this.struct(value, schema, structName(schema, this.kind, name, path.length), path);
    this.value(container, key, schema, struct, path, name);
  }

  // literal is the number's text as the body had it.
  private literal(container: Container, key: string | number): string {
    const literal = this.literals?.get(container)?.get(key);
    return literal ?? String((container as Record<string | number, unknown>)[key]);
  }

  // intOrString is intstr.IntOrString.UnmarshalJSON (a string, else an int32 through
  // encoding/json) and resource.Quantity.UnmarshalJSON.
  private intOrString(container: Container, key: string | number, schema: Schema): void {
    const value = (container as Record<string | number, unknown>)[key];
    if (schema.format === 'quantity') return this.quantity(container, key);
    if (typeof value === 'string') return;
    if (typeof value !== 'number') throw new UnmarshalerError(`json: cannot unmarshal ${jsonKind(value)} into Go value of type int32`);
    const literal = this.literal(container, key);
    if (!fitsInteger(literal, { type: 'integer', format: 'int32' })) throw new UnmarshalerError(`json: cannot unmarshal number ${literal} into Go value of type int32`);
  }

  // quantity is resource.Quantity.UnmarshalJSON: ParseQuantity of the text (without quotes and
  // surrounding space), whose error ends the decoding. The object then holds the canonical
  // string ("0.5" is "500m"); ParseQuantity keeps a string already in canonical form as written
  // (so "1E3" stays).
  private quantity(container: Container, key: string | number): void {
    const value = (container as Record<string | number, unknown>)[key];
    const text = typeof value === 'string' ? value : typeof value === 'number' ? this.literal(container, key) : JSON.stringify(value);
    let parsed;
    try {
      parsed = parseQuantity(text.trim());
    } catch (err) {
      throw new UnmarshalerError((err as Error).message);
    }
    const canonical = formatQuantity(parsed);
    const kept = typeof value === 'string' && canonical.toLowerCase() === text.trim().toLowerCase() ? text.trim() : canonical;
    if (kept !== value) this.set(container, key, kept);
  }

  // time is metav1.Time's (and MicroTime's) UnmarshalJSON: a string, in RFC 3339 form, which
  // the object then holds as Go writes it back (in UTC).
  private time(container: Container, key: string | number, schema: Schema): void {
    const value = (container as Record<string | number, unknown>)[key];
    if (typeof value !== 'string') throw new UnmarshalerError(`json: cannot unmarshal ${jsonKind(value)} into Go value of type string`);
    const parsed = parseGoTime(value, schema.ref?.endsWith('.MicroTime') ? 'RFC3339Micro' : 'RFC3339');
    if (parsed.error !== undefined) throw new UnmarshalerError(parsed.error);
    if (parsed.text !== value) this.set(container, key, parsed.text);
  }
}

// keepsNull tells the schemas whose values are kept as they come (RawExtension, JSON).
function keepsNull(schema: Schema): boolean {
  return schema.preserveUnknownFields === true || schema.embeddedResource === true;
}

const integerRanges = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
};

// fitsInteger is strconv.ParseInt(literal, 10, 64) and reflect's OverflowInt for the field.
function fitsInteger(literal: string, schema: Schema): boolean {
  if (!/^-?\d+$/.test(literal)) return false;
  const [min, max] = schema.format === 'int32' ? integerRanges.int32 : integerRanges.int64;
  const n = BigInt(literal);
  return n >= min && n <= max;
}

// zeroValue is the JSON form of a Go type's zero value, for a null list element or map value.
function zeroValue(schema: Schema): unknown {
  if (keepsNull(schema)) return null;
  if (schema.intOrString) return schema.format === 'quantity' ? '0' : 0;
  switch (schema.type) {
    case 'string':
      return schema.format === 'date-time' ? null : '';
    case 'boolean':
      return false;
    case 'integer':
    case 'number':
      return 0;
    case 'array':
      return [];
  }
  return {};
}

function isStruct(schema: Schema): boolean {
  return schema.properties !== undefined && !schema.additionalProperties;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// jsonKind names a JSON value's type as encoding/json's UnmarshalTypeError does.
export function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  if (typeof value === 'boolean') return 'bool';
  return typeof value;
}


// goTypeName is reflect.Type.String() of a field: string, int32, int64, float64, bool,
// map[string]T, []T, or a package-qualified struct name (v1.ObjectMeta).
function goTypeName(schema: Schema, kind: string, name: string, depth: number): string {
  if (schema.goType) return schema.goType;
  if (schema.intOrString) return schema.format === 'quantity' ? 'resource.Quantity' : 'intstr.IntOrString';
  switch (schema.type) {
    case 'string':
      return schema.format === 'date-time' ? 'v1.Time' : 'string';
    case 'boolean':
      return 'bool';
    case 'integer':
      return schema.format === 'int32' ? 'int32' : 'int64';
    case 'number':
      return 'float64';
    case 'array':
      return `[]${schema.items ? goTypeName(schema.items, kind, singular(name), depth + 1) : 'interface {}'}`;
  }
  if (schema.additionalProperties) return `map[string]${goTypeName(schema.additionalProperties, kind, name, depth + 1)}`;
  if (schema.properties) return `v1.${structName(schema, kind, name, depth)}`;
  return 'interface {}';
}

// structName is the Go name of a struct type: its definition's last segment, else the
// Kubernetes convention for the field holding it.
function structName(schema: Schema, kind: string, name: string, depth: number): string {
  if (schema.ref) return schema.ref.slice(schema.ref.lastIndexOf('.') + 1);
  if (depth === 1 && (name === 'spec' || name === 'status')) return `${kind}${capitalize(name)}`;
  if (name === 'template') return 'PodTemplateSpec';
  return capitalize(name);
}

function capitalize(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

// singular names the element of a list field: containers → container, policies → policy.
function singular(name: string): string {
  if (name.endsWith('ies')) return `${name.slice(0, -3)}y`;
  if (name.endsWith('sses')) return name.slice(0, -2);
  if (name.endsWith('s') && !name.endsWith('ss')) return name.slice(0, -1);
  return name;
}
