// goTypeError finds what encoding/json (sigs.k8s.io/json, as kube-apiserver decodes built-in
// kinds) refuses to store: a JSON value of the wrong type for its Go field. It answers the first
// such error in document order, as encoding/json reports it:
//   json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string
// The field path is the JSON path from the root without list indices, the struct is the Go type
// that holds the field, and the type is the field's Go type. Go type names are read from the
// schema: scalars and maps exactly, structs from their definition name where the schema has one,
// else as Kubernetes names its struct types (<Kind>Spec, <Kind>Status, the field's name).
// Fields the schema does not describe are left to unknown-field handling; null fits any field.
import type { Schema } from '@plinth/api';
import { compareStrings, formatGoFloat, goQuote } from '@plinth/machinery';

export function goTypeError(value: unknown, schema: Schema, kind: string): string | null {
  return checkStruct(value, schema, kind, [], kind);
}

// customResourceMetadataError is what the custom resource handler's schema coercion
// (objectmeta.GetObjectMeta, a round trip of metadata through metav1.ObjectMeta) makes of
// metadata of the wrong JSON types, which field.Invalid prints with %#v:
//   metadata: Invalid value: map[string]interface {}{"labels":1}: json: cannot unmarshal number into Go struct field ObjectMeta.labels of type map[string]string
export function customResourceMetadataError(object: unknown, schema: Schema): string | null {
  if (!isPlainObject(object) || !Object.prototype.hasOwnProperty.call(object, 'metadata')) return null;
  const metadata = object.metadata;
  const metadataSchema = schema.properties?.metadata;
  if (metadata === null || !metadataSchema) return null;
  const error = isPlainObject(metadata) ? checkStruct(metadata, metadataSchema, 'ObjectMeta', [], 'ObjectMeta') : `json: cannot unmarshal ${jsonKind(metadata)} into Go value of type v1.ObjectMeta`;
  return error && `metadata: Invalid value: ${goSyntax(metadata)}: ${error}`;
}

// goSyntax is Go's %#v of a value decoded as unstructured JSON: maps (keys sorted) and slices
// of interface {}, int64 for integral numbers, float64 for the others.
export function goSyntax(value: unknown): string {
  if (value === null || value === undefined) return 'interface {}(nil)';
  if (Array.isArray(value)) return `[]interface {}{${value.map(goSyntax).join(', ')}}`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort(compareStrings);
    return `map[string]interface {}{${keys.map((k) => `${goQuote(k)}:${goSyntax(value[k])}`).join(', ')}}`;
  }
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : formatGoFloat(value);
  return String(value);
}

function checkStruct(value: Record<string, unknown> | unknown, schema: Schema, struct: string, path: string[], kind: string): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const properties = schema.properties ?? {};
  for (const [name, child] of Object.entries(value as Record<string, unknown>)) {
    if (!Object.prototype.hasOwnProperty.call(properties, name)) continue;
    const error = checkValue(child, properties[name], struct, [...path, name], kind, name);
    if (error) return error;
  }
  return null;
}

function checkValue(value: unknown, schema: Schema, struct: string, path: string[], kind: string, name: string): string | null {
  if (value === null || schema.preserveUnknownFields || schema.embeddedResource) return null;
  const mismatch = (what: string) => `json: cannot unmarshal ${what} into Go struct field ${struct}.${path.join('.')} of type ${goTypeName(schema, kind, name, path.length)}`;
  if (schema.intOrString) {
    return typeof value === 'string' || typeof value === 'number' ? null : mismatch(jsonKind(value));
  }
  switch (schema.type) {
    case 'string':
      if (schema.format === 'date-time') return timeError(value, schema);
      return typeof value === 'string' ? null : mismatch(jsonKind(value));
    case 'boolean':
      return typeof value === 'boolean' ? null : mismatch(jsonKind(value));
    case 'integer': {
      if (typeof value !== 'number') return mismatch(jsonKind(value));
      const bits = schema.format === 'int32' ? 31 : 63;
      const fits = Number.isInteger(value) && Math.abs(value) <= 2 ** bits;
      return fits ? null : mismatch(`number ${value}`);
    }
    case 'number':
      return typeof value === 'number' ? null : mismatch(jsonKind(value));
    case 'array': {
      if (!Array.isArray(value)) return mismatch(jsonKind(value));
      const items = schema.items;
      if (!items) return null;
      const itemStruct = structName(items, kind, singular(name), path.length);
      for (const item of value) {
        const error = isStruct(items) && isPlainObject(item) ? checkStruct(item, items, itemStruct, path, kind) : checkValue(item, items, struct, path, kind, singular(name));
        if (error) return error;
      }
      return null;
    }
  }
  if (schema.type === 'object' || schema.properties || schema.additionalProperties) {
    if (!isPlainObject(value)) return mismatch(jsonKind(value));
    if (isStruct(schema)) return checkStruct(value, schema, structName(schema, kind, name, path.length), path, kind);
    const elements = schema.additionalProperties;
    if (!elements) return null;
    for (const element of Object.values(value)) {
      const error = isStruct(elements) && isPlainObject(element) ? checkStruct(element, elements, structName(elements, kind, name, path.length), path, kind) : checkValue(element, elements, struct, path, kind, name);
      if (error) return error;
    }
  }
  return null;
}

// timeError is metav1.Time's (and MicroTime's) UnmarshalJSON: a string in RFC 3339 form.
function timeError(value: unknown, schema: Schema): string | null {
  if (typeof value !== 'string') return `json: cannot unmarshal ${jsonKind(value)} into Go value of type string`;
  if (rfc3339.test(value)) return null;
  const layout = schema.ref?.endsWith('.MicroTime') ? '2006-01-02T15:04:05.000000Z07:00' : '2006-01-02T15:04:05Z07:00';
  return `parsing time ${goQuote(value)} as ${goQuote(layout)}: cannot parse ${goQuote(value)} as "2006"`;
}

const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

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
