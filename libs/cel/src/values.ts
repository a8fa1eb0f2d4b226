// toCelValue converts a JSON value into CEL input by its schema, as Kubernetes'
// UnstructuredToVal does: integer fields become int (bigint), number fields double, objects with
// properties become messages whose fields carry escaped names (unknown fields are not
// accessible), maps keep their keys, lists convert element-wise.
import { celList, CelInput, celMap } from '@bufbuild/cel';
import { escapePropertyName } from './escaping';
import { additionalPropertiesSchema, JSONSchemaProps } from './schema';

export function toCelValue(value: unknown, schema: JSONSchemaProps | undefined): CelInput {
  if (value === null || value === undefined) return null;
  if (!schema) return dynamicValue(value);
  if (schema['x-kubernetes-int-or-string']) return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : dynamicValue(value);
  switch (schema.type) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : dynamicValue(value);
    case 'number':
      return typeof value === 'number' ? value : dynamicValue(value);
    case 'array':
      return Array.isArray(value) ? celList(value.map((v) => toCelValue(v, schema.items))) : dynamicValue(value);
    case 'object':
      return objectValue(value, schema);
    default:
      return dynamicValue(value);
  }
}

function objectValue(value: unknown, schema: JSONSchemaProps): CelInput {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return dynamicValue(value);
  const obj = value as Record<string, unknown>;
  const entries = new Map<string, CelInput>();
  const valueSchema = additionalPropertiesSchema(schema);
  if (schema.properties || schema['x-kubernetes-embedded-resource']) {
    const properties = schema.properties ?? {};
    for (const [key, v] of Object.entries(obj)) {
      const known = Object.prototype.hasOwnProperty.call(properties, key);
      if (!known && !(schema['x-kubernetes-embedded-resource'] && ['apiVersion', 'kind', 'metadata'].includes(key))) continue;
      const name = escapePropertyName(key);
      if (name !== null) entries.set(name, toCelValue(v, known ? properties[key] : undefined));
    }
    return celMap(entries);
  }
  if (valueSchema) {
    for (const [key, v] of Object.entries(obj)) entries.set(key, toCelValue(v, valueSchema));
    return celMap(entries);
  }
  return dynamicValue(value);
}

// dynamicValue converts schemaless JSON: whole numbers as int, others as double.
function dynamicValue(value: unknown): CelInput {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return celList(value.map(dynamicValue));
  return celMap(new Map(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, dynamicValue(v)])));
}
