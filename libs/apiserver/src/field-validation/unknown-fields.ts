// Unknown fields: the keys of a decoded object that its kind's schema has no place for. Kubernetes
// finds them while decoding into Go structs (sigs.k8s.io/json DisallowUnknownFields), so a
// built-in type can never keep one: fieldValidation=Ignore and Warn drop them silently or with a
// warning, Strict refuses the request. Paths have the strict decoder's form:
// `spec.template.spec.containers[0].foo`, map keys joined with a dot (`metadata.labels.app`).
//
// How each schema node is read:
// - properties: a struct; a key outside them is unknown, and nothing below it is looked at.
// - additionalProperties: a map; every key is allowed and its value checked against the value
//   schema. With properties as well, properties win and the rest are map entries.
// - items: each element is checked against the item schema.
// - preserveUnknownFields: unknown keys are kept; properties, if any, are still checked.
// - intOrString, or an object schema with neither properties nor additionalProperties (the
//   shape Kubernetes publishes for RawExtension and FieldsV1): opaque, nothing checked below.
// - embeddedResource: apiVersion, kind and metadata are allowed besides the properties.
// A value whose JSON type does not match its schema is left alone: type errors are not unknown
// fields.
import type { Schema } from '@plinth/api';

const hasOwn = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

const embeddedResourceFields = new Set(['apiVersion', 'kind', 'metadata']);

// Walk visits a value with its schema; the path is kept as segments (keys, and indexes as
// numbers) and joined only for an unknown field.
class Walk {
  readonly found: string[] = [];
  private readonly segments: (string | number)[] = [];

  constructor(private readonly remove: boolean) {}

  // path is the strict decoder's path: keys joined by ".", indexes as "[i]".
  private path(key: string): string {
    let out = '';
    for (let i = 0; i < this.segments.length; i++) {
      const segment = this.segments[i];
      out += typeof segment === 'number' ? `[${segment}]` : i === 0 ? segment : `.${segment}`;
    }
    return this.segments.length === 0 ? key : `${out}.${key}`;
  }

  value(value: unknown, schema: Schema): void {
    if (value === null || typeof value !== 'object' || schema.intOrString) return;
    if (Array.isArray(value)) {
      const items = schema.items;
      if (!items) return;
      for (let i = 0; i < value.length; i++) {
        this.segments.push(i);
        this.value(value[i], items);
        this.segments.pop();
      }
      return;
    }
    const properties = schema.properties;
    const additional = schema.additionalProperties;
    if (!properties && !additional) return;
    const obj = value as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      const child = properties && hasOwn(properties, key) ? properties[key] : additional;
      if (child) {
        const v = obj[key];
        if (v === null || typeof v !== 'object') continue;
        this.segments.push(key);
        this.value(v, child);
        this.segments.pop();
      } else if (!schema.preserveUnknownFields && !(schema.embeddedResource && embeddedResourceFields.has(key))) {
        this.found.push(this.path(key));
        if (this.remove) delete obj[key];
      }
    }
  }
}

// unknownFields lists the paths of the unknown fields of value, in the order of its keys.
export function unknownFields(value: unknown, schema: Schema): string[] {
  const walk = new Walk(false);
  walk.value(value, schema);
  return walk.found;
}

// prune removes the unknown fields from value, in place, and returns their paths.
export function prune(value: unknown, schema: Schema): string[] {
  const walk = new Walk(true);
  walk.value(value, schema);
  return walk.found;
}
