// Validation and defaulting of custom resources against their structural schema, after
// apiextensions-apiserver pkg/apiserver/validation (kube-openapi's validator with Kubernetes'
// error conversion) and pkg/apiserver/schema/defaulting. Messages are Kubernetes':
// `spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`.
import { additionalPropertiesSchema, JSONSchemaProps, patternMatcher } from '@plinth/cel';
import { childPath, field, FieldError, FieldPath, GoLiteral, goQuote, isGoFloat, pathString } from '@plinth/machinery';

type Path = FieldPath | null;

// jsonType is the type kube-openapi's validator sees; a number written as a float (goFloat:
// `5.0`, `1e17`) is Go's float64, an integer only when whole and within ±(2^53-1)
// (swag.IsFloat64AJSONInteger).
function jsonType(value: unknown, goFloat = false): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return (goFloat ? Number.isSafeInteger(value) : Number.isInteger(value)) ? 'integer' : 'number';
  return typeof value;
}

function name(path: Path): string {
  return path ? path.toString() : '';
}

function typeError(path: Path, value: unknown, expected: string, goFloat = false): FieldError {
  const actual = jsonType(value, goFloat);
  return field.typeInvalid(path, new GoLiteral(goQuote(actual)), `${name(path)} in body must be of type ${expected}: ${goQuote(actual)}`);
}

function typeMatches(schema: JSONSchemaProps, value: unknown, goFloat: boolean): boolean {
  const actual = jsonType(value, goFloat);
  if (schema['x-kubernetes-int-or-string']) return actual === 'integer' || actual === 'string';
  switch (schema.type) {
    case 'number':
      return actual === 'number' || actual === 'integer';
    case undefined:
      return true;
    default:
      return schema.type === actual;
  }
}

const dateTime = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const formats: Record<string, (v: string) => boolean> = {
  'date-time': (v) => dateTime.test(v),
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v),
  byte: (v) => /^[A-Za-z0-9+/]*={0,2}$/.test(v) && v.length % 4 === 0,
  uuid: (v) => /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/.test(v),
  ipv4: (v) => /^(\d{1,3})(\.\d{1,3}){3}$/.test(v) && v.split('.').every((p) => Number(p) <= 255),
  email: (v) => /^[^@\s]+@[^@\s]+$/.test(v),
};

// validateDefault checks a schema's default as ValidateDefaults does: the validator names the
// fields relative to the default (` in body` for the default itself), the errors are placed
// under the default's path.
// A default with fields its schema would prune is refused first (requirePrunedDefaults).
export function validateDefault(schema: JSONSchemaProps, value: unknown, path: FieldPath): FieldError[] {
  const base = path.toString();
  const unpruned = hasUnknownFields(schema, value) ? [field.invalid(path, new GoLiteral(goSyntax(value)), 'must not have unknown fields')] : [];
  return [...unpruned, ...validateValue(schema, value, null).map((e) => new FieldError(e.type, e.field === pathString(null) ? base : `${base}.${e.field}`, e.badValue, e.detail))];
}

// hasUnknownFields says whether structural pruning would remove anything from value.
function hasUnknownFields(schema: JSONSchemaProps, value: unknown): boolean {
  if (Array.isArray(value)) return schema.items !== undefined && value.some((item) => hasUnknownFields(schema.items as JSONSchemaProps, item));
  if (value === null || typeof value !== 'object') return false;
  const valueSchema = additionalPropertiesSchema(schema);
  const preserves = schema['x-kubernetes-preserve-unknown-fields'] === true || schema.additionalProperties === true;
  return Object.entries(value as Record<string, unknown>).some(([key, v]) => {
    const declared = schema.properties?.[key] ?? valueSchema;
    if (declared) return hasUnknownFields(declared, v);
    return !preserves;
  });
}

// duplicateValue is a repeated list item (or map key) as field.Duplicate prints it: %#v of what
// it decodes to.
function duplicateValue(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? new GoLiteral(goSyntax(value)) : value;
}

// goSyntax prints a JSON value as Go's %#v prints the interface{} it decodes to.
function goSyntax(value: unknown): string {
  if (value === null || value === undefined) return 'interface {}(nil)';
  if (Array.isArray(value)) return `[]interface {}{${value.map(goSyntax).join(', ')}}`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `map[string]interface {}{${entries.map(([k, v]) => `${goQuote(k)}:${goSyntax(v)}`).join(', ')}}`;
  }
  return typeof value === 'string' ? goQuote(value) : String(value);
}

// validateValue checks value (present) against schema at path; goFloat: value was written as a
// float.
export function validateValue(schema: JSONSchemaProps, value: unknown, path: Path, goFloat = false): FieldError[] {
  if (value === null) {
    if (schema.nullable || schema['x-kubernetes-preserve-unknown-fields'] && !schema.type) return [];
    // A schema without a type (int-or-string) does not refuse a null: applyDefaults drops it.
    return schema.type ? [typeError(path, value, schema.type)] : [];
  }
  if (!typeMatches(schema, value, goFloat)) return [typeError(path, value, schema['x-kubernetes-int-or-string'] ? 'integer,string' : (schema.type ?? 'integer'), goFloat)];
  const errs: FieldError[] = [];
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    errs.push(field.notSupported(path, value, schema.enum.map((e) => (typeof e === 'string' ? e : JSON.stringify(e)))));
  }
  if (typeof value === 'number') errs.push(...numberErrors(schema, value, path));
  if (typeof value === 'string') errs.push(...stringErrors(schema, value, path));
  if (Array.isArray(value)) errs.push(...arrayErrors(schema, value, path));
  else if (typeof value === 'object') errs.push(...objectErrors(schema, value as Record<string, unknown>, path));
  return errs;
}

function numberErrors(schema: JSONSchemaProps, value: number, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const max = schema.maximum as number | undefined;
  const min = schema.minimum as number | undefined;
  if (max !== undefined) {
    if (schema.exclusiveMaximum === true && value >= max) errs.push(field.invalid(path, value, `${name(path)} in body should be less than ${max}`));
    else if (schema.exclusiveMaximum !== true && value > max) errs.push(field.invalid(path, value, `${name(path)} in body should be less than or equal to ${max}`));
  }
  if (min !== undefined) {
    if (schema.exclusiveMinimum === true && value <= min) errs.push(field.invalid(path, value, `${name(path)} in body should be greater than ${min}`));
    else if (schema.exclusiveMinimum !== true && value < min) errs.push(field.invalid(path, value, `${name(path)} in body should be greater than or equal to ${min}`));
  }
  const multipleOf = schema.multipleOf as number | undefined;
  if (multipleOf !== undefined && multipleOf > 0 && Math.abs(value / multipleOf - Math.round(value / multipleOf)) > 1e-9) {
    errs.push(field.invalid(path, value, `${name(path)} in body should be a multiple of ${multipleOf}`));
  }
  if (schema.format === 'int32' && (value > 2147483647 || value < -2147483648)) errs.push(typeError(path, value, 'int32'));
  return errs;
}

function stringErrors(schema: JSONSchemaProps, value: string, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const length = [...value].length;
  const maxLength = schema.maxLength as number | undefined;
  const minLength = schema.minLength as number | undefined;
  if (maxLength !== undefined && length > maxLength) errs.push(field.tooLongMaxLength(path, value, maxLength));
  if (minLength !== undefined && length < minLength) errs.push(field.invalid(path, value, `${name(path)} in body should be at least ${minLength} chars long`));
  if (typeof schema.pattern === 'string') {
    // validate.Pattern: Go's regexp, and its compile error for a pattern it refuses.
    const matcher = patternMatcher(schema.pattern);
    if (matcher.error !== undefined) errs.push(field.invalid(path, value, `${name(path)} in body should match '${schema.pattern}, but pattern is invalid: ${matcher.error}'`));
    else if (!matcher.test(value)) errs.push(field.invalid(path, value, `${name(path)} in body should match '${schema.pattern}'`));
  }
  const check = schema.format ? formats[schema.format] : undefined;
  if (check && !check(value)) errs.push(field.invalid(path, value, `${name(path)} in body must be of type ${schema.format}: ${goQuote(value)}`));
  return errs;
}

function arrayErrors(schema: JSONSchemaProps, value: unknown[], path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const maxItems = schema.maxItems as number | undefined;
  const minItems = schema.minItems as number | undefined;
  if (maxItems !== undefined && value.length > maxItems) errs.push(field.tooMany(path, value.length, maxItems));
  if (minItems !== undefined && value.length < minItems) errs.push(field.invalid(path, value.length, `${name(path)} in body should have at least ${minItems} items`));
  const listType = schema['x-kubernetes-list-type'];
  if (listType === 'set' || schema.uniqueItems === true) {
    const seen = new Set<string>();
    value.forEach((item, i) => {
      const key = JSON.stringify(item);
      if (seen.has(key)) errs.push(field.duplicate(indexPath(path, i), duplicateValue(item)));
      seen.add(key);
    });
  } else if (listType === 'map') {
    const keys = schema['x-kubernetes-list-map-keys'] ?? [];
    const seen = new Set<string>();
    value.forEach((item, i) => {
      if (!item || typeof item !== 'object') return;
      const entry = Object.fromEntries(keys.filter((k) => (item as Record<string, unknown>)[k] !== undefined).map((k) => [k, (item as Record<string, unknown>)[k]]));
      const key = JSON.stringify(entry);
      if (seen.has(key)) errs.push(field.duplicate(indexPath(path, i), duplicateValue(entry)));
      seen.add(key);
    });
  }
  if (schema.items) value.forEach((item, i) => errs.push(...validateValue(schema.items as JSONSchemaProps, item, indexPath(path, i), isGoFloat(value, i))));
  return errs;
}

function objectErrors(schema: JSONSchemaProps, value: Record<string, unknown>, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const count = Object.keys(value).length;
  const maxProperties = schema.maxProperties as number | undefined;
  const minProperties = schema.minProperties as number | undefined;
  if (maxProperties !== undefined && count > maxProperties) errs.push(field.tooMany(path, count, maxProperties));
  if (minProperties !== undefined && count < minProperties) errs.push(field.invalid(path, count, `${name(path)} in body should have at least ${minProperties} properties`));
  for (const required of (schema.required as string[] | undefined) ?? []) {
    if (!(required in value)) errs.push(field.required(childPath(path, required), ''));
  }
  if (schema['x-kubernetes-embedded-resource']) errs.push(...embeddedResourceErrors(value, path));
  const properties = schema.properties ?? {};
  const valueSchema = additionalPropertiesSchema(schema);
  for (const [key, v] of Object.entries(value)) {
    if (Object.prototype.hasOwnProperty.call(properties, key)) errs.push(...validateValue(properties[key], v, childPath(path, key), isGoFloat(value, key)));
    else if (valueSchema) errs.push(...validateValue(valueSchema, v, keyPath(path, key), isGoFloat(value, key)));
  }
  return errs;
}

// embeddedResourceErrors checks the type meta of an embedded object (x-kubernetes-embedded-resource).
function embeddedResourceErrors(value: Record<string, unknown>, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (typeof value.kind !== 'string' || value.kind === '') errs.push(field.required(childPath(path, 'kind'), 'must not be empty'));
  if (typeof value.apiVersion !== 'string' || value.apiVersion === '') errs.push(field.required(childPath(path, 'apiVersion'), 'must not be empty'));
  else if (value.apiVersion.split('/').length > 2) {
    errs.push(field.invalid(childPath(path, 'apiVersion'), value.apiVersion, `unexpected GroupVersion string: ${value.apiVersion}`));
  }
  return errs;
}

function indexPath(path: Path, i: number): FieldPath {
  return path ? path.index(i) : field.newPath(`[${i}]`);
}

function keyPath(path: Path, key: string): FieldPath {
  return path ? path.child(key) : field.newPath(key);
}

function nonNullableNull(schema: JSONSchemaProps, value: unknown): boolean {
  return value === null && !schema.nullable;
}

// defaultedOrDropped gives what a member holds after defaulting: its default when absent or a
// non-nullable null, undefined (dropped) for a non-nullable null without one.
function defaultedOrDropped(schema: JSONSchemaProps, value: unknown): unknown {
  if (value !== undefined && !nonNullableNull(schema, value)) return value;
  if (schema.default !== undefined) return structuredClone(schema.default);
  return value === null ? undefined : value;
}

// applyDefaults fills absent fields that declare a default, outside in, as Kubernetes'
// structural defaulting does on every read and write; a null where the schema is not nullable
// is defaulted too, or removed when there is no default (PruneNonNullableNullsWithoutDefaults,
// run as a body is decoded, before validation), so a rule sees the field absent and the stored
// object lacks it.
export function applyDefaults(schema: JSONSchemaProps, value: unknown): void {
  if (Array.isArray(value)) {
    const items = schema.items;
    if (!items) return;
    value.forEach((item, i) => {
      if (nonNullableNull(items, item) && items.default !== undefined) value[i] = structuredClone(items.default);
      applyDefaults(items, value[i]);
    });
    return;
  }
  if (!value || typeof value !== 'object') return;
  const obj = value as Record<string, unknown>;
  for (const [key, child] of Object.entries(schema.properties ?? {})) {
    const next = defaultedOrDropped(child, obj[key]);
    if (next === undefined) delete obj[key];
    else obj[key] = next;
    if (obj[key] !== undefined) applyDefaults(child, obj[key]);
  }
  const valueSchema = additionalPropertiesSchema(schema);
  if (!valueSchema) return;
  for (const [key, v] of Object.entries(obj)) {
    if (Object.prototype.hasOwnProperty.call(schema.properties ?? {}, key)) continue;
    const next = defaultedOrDropped(valueSchema, v);
    if (next === undefined) delete obj[key];
    else applyDefaults(valueSchema, (obj[key] = next));
  }
}
