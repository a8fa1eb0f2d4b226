// typedValueErrors is structured-merge-diff's validation of a value against its schema
// (typed.AsTyped) for scalars of another JSON type than their field's: the errors an apply
// configuration gets before the field manager can make it a typed patch. Each message prints
// the value as Go does: numeric fields name its Go type (`got string`), boolean fields print its
// value (`got &{yes}`), string fields its Go syntax (`got &value.valueUnstructured{Value:5}`).
// Paths are fieldpath's (`.spec.parallelism`, `[name="main"]`, `[0]`). Keys are visited in
// sorted order: kube-apiserver visits them in Go's map order, which varies.
import { Schema } from '@plinth/api';
import { isObject } from './json';
import { pathElementString } from './path-element';
import { childSchema, kindOf, listItemElement } from './schema-kind';

export interface TypedValueError {
  path: string;
  message: string;
}

export function typedValueErrors(value: unknown, schema: Schema): TypedValueError[] {
  const errors: TypedValueError[] = [];
  visit(value, schema, '', errors);
  return errors;
}

function visit(value: unknown, schema: Schema | undefined, path: string, errors: TypedValueError[]): void {
  if (value === null || value === undefined || schema === undefined) return;
  const kind = kindOf(schema, value);
  if (kind.type === 'scalar') {
    const message = scalarError(value, schema);
    if (message) errors.push({ path, message });
    return;
  }
  if (kind.type === 'list' && Array.isArray(value)) {
    value.forEach((item, i) => {
      const element = listItemElement(kind, i, item);
      if (!(element instanceof Error)) visit(item, kind.items, `${path}${pathElementString(element)}`, errors);
    });
    return;
  }
  if (kind.type === 'map' && isObject(value)) {
    for (const key of Object.keys(value).sort()) visit(value[key], childSchema(kind, key), `${path}.${key}`, errors);
  }
}

function scalarError(value: unknown, schema: Schema): string | null {
  if (schema.intOrString) return null;
  switch (schema.type) {
    case 'integer':
    case 'number':
      return typeof value === 'number' ? null : `expected numeric (int or float), got ${goTypeName(value)}`;
    case 'boolean':
      return typeof value === 'boolean' ? null : `expected boolean, got &{${goValue(value)}}`;
    case 'string':
      return typeof value === 'string' ? null : `expected string, got &value.valueUnstructured{Value:${goSyntax(value)}}`;
    default:
      return null;
  }
}

function goTypeName(value: unknown): string {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return '[]interface {}';
  return 'map[string]interface {}';
}

// goValue is fmt's %v of a decoded JSON value.
function goValue(value: unknown): string {
  if (value === null) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goValue).join(' ')}]`;
  if (isObject(value)) return `map[${Object.keys(value).sort().map((k) => `${k}:${goValue(value[k])}`).join(' ')}]`;
  return String(value);
}

// goSyntax is fmt's %#v of a decoded JSON value.
function goSyntax(value: unknown): string {
  if (value === null) return 'interface {}(nil)';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[]interface {}{${value.map(goSyntax).join(', ')}}`;
  if (isObject(value)) return `map[string]interface {}{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${goSyntax(value[k])}`).join(', ')}}`;
  return String(value);
}
