// encodeSwaggerProtobuf writes a Swagger 2.0 document as the gnostic openapi.v2.Document
// message (github.com/google/gnostic openapiv2/OpenAPIv2.proto), what kube-apiserver serves for
// application/com.github.proto-openapi.spec.v2.v1.0+protobuf and what kubectl's discovery
// client (OpenAPISchema) asks for. Field numbers are the .proto's; values that gnostic keeps
// as YAML (vendor extensions, defaults, enums) are written as JSON text, which is YAML too.
import { ProtoWriter } from './protobuf-writer';
import type { JsonObject } from './shared-definitions';

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const strs = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);
const entries = (v: unknown): [string, unknown][] => (isObject(v) ? Object.entries(v) : []);

// any is the gnostic Any message: field 2 holds the value as YAML.
function any(value: unknown): ProtoWriter {
  return new ProtoWriter().string(2, JSON.stringify(value));
}

// vendorExtensions writes each x-* key as a NamedAny (name 1, value 2).
function vendorExtensions(w: ProtoWriter, field: number, obj: JsonObject): void {
  for (const [key, value] of Object.entries(obj)) {
    if (key.startsWith('x-')) w.message(field, new ProtoWriter().string(1, key).message(2, any(value)));
  }
}

function named(name: string, value: ProtoWriter): ProtoWriter {
  return new ProtoWriter().string(1, name).message(2, value);
}

export function encodeSwaggerProtobuf(doc: JsonObject): Buffer {
  const w = new ProtoWriter();
  w.string(1, str(doc['swagger']));
  if (isObject(doc['info'])) w.message(2, info(doc['info']));
  w.string(3, str(doc['host']));
  w.string(4, str(doc['basePath']));
  w.strings(5, strs(doc['schemes']));
  w.strings(6, strs(doc['consumes']));
  w.strings(7, strs(doc['produces']));
  if (isObject(doc['paths'])) w.message(8, paths(doc['paths']));
  if (isObject(doc['definitions'])) {
    const defs = new ProtoWriter();
    for (const [name, s] of entries(doc['definitions'])) if (isObject(s)) defs.message(1, named(name, schema(s)));
    w.message(9, defs);
  }
  if (isObject(doc['parameters'])) {
    const params = new ProtoWriter();
    for (const [name, p] of entries(doc['parameters'])) if (isObject(p)) params.message(1, named(name, parameter(p)));
    w.message(10, params);
  }
  for (const requirement of Array.isArray(doc['security']) ? doc['security'] : []) {
    const req = new ProtoWriter();
    for (const [name, scopes] of entries(requirement)) req.message(1, named(name, new ProtoWriter().strings(1, strs(scopes))));
    w.message(12, req);
  }
  if (isObject(doc['securityDefinitions'])) {
    const defs = new ProtoWriter();
    for (const [name, d] of entries(doc['securityDefinitions'])) {
      if (!isObject(d) || d['type'] !== 'apiKey') continue;
      const apiKey = new ProtoWriter().string(1, str(d['type'])).string(2, str(d['name'])).string(3, str(d['in'])).string(4, str(d['description']));
      vendorExtensions(apiKey, 5, d);
      defs.message(1, named(name, new ProtoWriter().message(2, apiKey)));
    }
    w.message(13, defs);
  }
  vendorExtensions(w, 16, doc);
  return w.finish();
}

function info(obj: JsonObject): ProtoWriter {
  const w = new ProtoWriter().string(1, str(obj['title'])).string(2, str(obj['version'])).string(3, str(obj['description']));
  vendorExtensions(w, 7, obj);
  return w;
}

function paths(obj: JsonObject): ProtoWriter {
  const w = new ProtoWriter();
  vendorExtensions(w, 1, obj);
  for (const [path, item] of Object.entries(obj)) {
    if (!path.startsWith('x-') && isObject(item)) w.message(2, named(path, pathItem(item)));
  }
  return w;
}

const methodFields: Record<string, number> = { get: 2, put: 3, post: 4, delete: 5, options: 6, head: 7, patch: 8 };

function pathItem(obj: JsonObject): ProtoWriter {
  const w = new ProtoWriter().string(1, str(obj['$ref']));
  for (const [method, field] of Object.entries(methodFields)) {
    if (isObject(obj[method])) w.message(field, operation(obj[method] as JsonObject));
  }
  for (const p of Array.isArray(obj['parameters']) ? obj['parameters'] : []) if (isObject(p)) w.message(9, parametersItem(p));
  vendorExtensions(w, 10, obj);
  return w;
}

function operation(obj: JsonObject): ProtoWriter {
  const w = new ProtoWriter()
    .strings(1, strs(obj['tags']))
    .string(2, str(obj['summary']))
    .string(3, str(obj['description']))
    .string(5, str(obj['operationId']))
    .strings(6, strs(obj['produces']))
    .strings(7, strs(obj['consumes']));
  for (const p of Array.isArray(obj['parameters']) ? obj['parameters'] : []) if (isObject(p)) w.message(8, parametersItem(p));
  if (isObject(obj['responses'])) w.message(9, responses(obj['responses']));
  w.strings(10, strs(obj['schemes']));
  w.bool(11, bool(obj['deprecated']));
  vendorExtensions(w, 13, obj);
  return w;
}

// parametersItem is a oneof: a parameter (1) or a JSON reference (2).
function parametersItem(obj: JsonObject): ProtoWriter {
  if (typeof obj['$ref'] === 'string') return new ProtoWriter().message(2, new ProtoWriter().string(1, obj['$ref']).string(2, str(obj['description'])));
  return new ProtoWriter().message(1, parameter(obj));
}

// nonBodyFields are the sub-schema messages of NonBodyParameter: which oneof field, and whether
// allow_empty_value (5) shifts the later field numbers by one (query and formData do).
const nonBodyFields: Record<string, { field: number; shift: number }> = {
  header: { field: 1, shift: 0 },
  formData: { field: 2, shift: 1 },
  query: { field: 3, shift: 1 },
  path: { field: 4, shift: 0 },
};

// parameter is a oneof: a body parameter (1) or a non-body parameter (2).
function parameter(obj: JsonObject): ProtoWriter {
  if (obj['in'] === 'body') {
    const body = new ProtoWriter().string(1, str(obj['description'])).string(2, str(obj['name'])).string(3, 'body').bool(4, bool(obj['required']));
    if (isObject(obj['schema'])) body.message(5, schema(obj['schema']));
    vendorExtensions(body, 6, obj);
    return new ProtoWriter().message(1, body);
  }
  const kind = nonBodyFields[str(obj['in']) ?? ''] ?? nonBodyFields['query'];
  const n = (field: number) => field + kind.shift;
  const sub = new ProtoWriter().bool(1, bool(obj['required'])).string(2, str(obj['in'])).string(3, str(obj['description'])).string(4, str(obj['name']));
  if (kind.shift) sub.bool(5, bool(obj['allowEmptyValue']));
  sub.string(n(5), str(obj['type'])).string(n(6), str(obj['format'])).string(n(8), str(obj['collectionFormat']));
  if (obj['default'] !== undefined) sub.message(n(9), any(obj['default']));
  sub.bool(n(19), bool(obj['uniqueItems']));
  for (const value of Array.isArray(obj['enum']) ? obj['enum'] : []) sub.message(n(20), any(value));
  vendorExtensions(sub, n(22), obj);
  return new ProtoWriter().message(2, new ProtoWriter().message(kind.field, sub));
}

function responses(obj: JsonObject): ProtoWriter {
  const w = new ProtoWriter();
  for (const [code, r] of Object.entries(obj)) {
    if (code.startsWith('x-') || !isObject(r)) continue;
    const value =
      typeof r['$ref'] === 'string' ? new ProtoWriter().message(2, new ProtoWriter().string(1, r['$ref'])) : new ProtoWriter().message(1, response(r));
    w.message(1, named(code, value));
  }
  vendorExtensions(w, 2, obj);
  return w;
}

function response(obj: JsonObject): ProtoWriter {
  const w = new ProtoWriter().string(1, str(obj['description']));
  if (isObject(obj['schema'])) w.message(2, new ProtoWriter().message(1, schema(obj['schema'])));
  vendorExtensions(w, 5, obj);
  return w;
}

export function schema(obj: JsonObject): ProtoWriter {
  const w = new ProtoWriter()
    .string(1, str(obj['$ref']))
    .string(2, str(obj['format']))
    .string(3, str(obj['title']))
    .string(4, str(obj['description']));
  if (obj['default'] !== undefined) w.message(5, any(obj['default']));
  w.double(6, num(obj['multipleOf']))
    .double(7, num(obj['maximum']))
    .bool(8, bool(obj['exclusiveMaximum']))
    .double(9, num(obj['minimum']))
    .bool(10, bool(obj['exclusiveMinimum']))
    .int64(11, num(obj['maxLength']))
    .int64(12, num(obj['minLength']))
    .string(13, str(obj['pattern']))
    .int64(14, num(obj['maxItems']))
    .int64(15, num(obj['minItems']))
    .bool(16, bool(obj['uniqueItems']))
    .int64(17, num(obj['maxProperties']))
    .int64(18, num(obj['minProperties']))
    .strings(19, strs(obj['required']));
  for (const value of Array.isArray(obj['enum']) ? obj['enum'] : []) w.message(20, any(value));
  const additional = obj['additionalProperties'];
  if (typeof additional === 'boolean') w.message(21, new ProtoWriter().bool(2, additional));
  else if (isObject(additional)) w.message(21, new ProtoWriter().message(1, schema(additional)));
  const type = obj['type'];
  if (typeof type === 'string' || Array.isArray(type)) w.message(22, new ProtoWriter().strings(1, typeof type === 'string' ? [type] : strs(type)));
  const items = obj['items'];
  if (isObject(items) || Array.isArray(items)) {
    const list = (Array.isArray(items) ? items : [items]).filter(isObject);
    const item = new ProtoWriter();
    for (const s of list) item.message(1, schema(s));
    w.message(23, item);
  }
  for (const s of Array.isArray(obj['allOf']) ? obj['allOf'] : []) if (isObject(s)) w.message(24, schema(s));
  if (isObject(obj['properties'])) {
    const props = new ProtoWriter();
    for (const [name, s] of Object.entries(obj['properties'])) if (isObject(s)) props.message(1, named(name, schema(s)));
    w.message(25, props);
  }
  w.string(26, str(obj['discriminator'])).bool(27, bool(obj['readOnly']));
  if (obj['example'] !== undefined) w.message(30, any(obj['example']));
  vendorExtensions(w, 31, obj);
  return w;
}
