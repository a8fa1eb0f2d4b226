// Kinds are how structured-merge-diff sees a Schema (k8s.io/kube-openapi schemaconv): a scalar, a
// list that is atomic or associative (a set, or a map keyed by listMapKeys / patchMergeKey), or a
// map that is atomic or granular (a struct with declared fields, a map of elements, or both).
import { Schema } from '@plinth/api';
import { isObject } from './json';
import { indexElement, keyElement, KeyField, PathElement, valueElement } from './path-element';

export type Kind =
  | { readonly type: 'scalar' }
  | { readonly type: 'list'; readonly atomic: boolean; readonly keys: readonly string[]; readonly items?: Schema }
  | {
      readonly type: 'map';
      readonly atomic: boolean;
      readonly fields: Readonly<Record<string, Schema>>;
      readonly required: readonly string[];
      // elements is the schema of undeclared keys; undefined means they are deduced from the value.
      readonly elements?: Schema;
    };

const scalar: Kind = { type: 'scalar' };

// kindOf resolves a schema; where there is none (fields of preserved-unknown objects), the kind
// is deduced from the value as SMD's deduced type does: maps granular, lists atomic.
export function kindOf(schema: Schema | undefined, value: unknown): Kind {
  if (schema === undefined) return deduced(value);
  const known = schemaKinds.get(schema);
  if (known !== undefined) return known;
  const kind = declaredKind(schema);
  if (kind === undefined) return deduced(value);
  schemaKinds.set(schema, kind);
  return kind;
}

// schemaKinds remembers the kind of each schema: the walkers ask for it at every node of every
// object, and a schema's kind depends on the schema alone (schemas are never changed in place).
const schemaKinds = new WeakMap<Schema, Kind>();

// declaredKind is the kind a schema declares, or undefined when it leaves it to the value.
function declaredKind(schema: Schema): Kind | undefined {
  if (schema.intOrString) return scalar;
  if (schema.type === 'array' || schema.items !== undefined) return listKind(schema);
  if (schema.type === 'object' || schema.properties || schema.additionalProperties || schema.preserveUnknownFields || schema.embeddedResource) {
    const untyped = !schema.properties && !schema.additionalProperties && !schema.embeddedResource;
    return {
      type: 'map',
      // A bare preserve-unknown-fields object is SMD's untyped atomic type.
      atomic: schema.mapType === 'atomic' || (untyped && schema.preserveUnknownFields === true),
      fields: schema.properties ?? {},
      required: schema.required ?? [],
      elements: schema.additionalProperties,
    };
  }
  if (schema.type !== undefined) return scalar;
  return undefined;
}

function deduced(value: unknown): Kind {
  if (isObject(value)) return { type: 'map', atomic: false, fields: {}, required: [] };
  if (Array.isArray(value)) return { type: 'list', atomic: true, keys: [] };
  return scalar;
}

// listKind is getListElementRelationship: listType first, then the strategic-merge-patch markers
// (merge with a key is a keyed list, merge without one a set); everything else is atomic.
function listKind(schema: Schema): Kind {
  const items = schema.items;
  const atomic: Kind = { type: 'list', atomic: true, keys: [], items };
  const associative = (keys: readonly string[]): Kind => {
    // A set of non-scalar items is an error in SMD; treat it as atomic rather than fail.
    if (keys.length === 0 && items !== undefined && kindOf(items, undefined).type !== 'scalar') return atomic;
    return { type: 'list', atomic: false, keys, items };
  };
  switch (schema.listType) {
    case 'atomic':
      return atomic;
    case 'set':
      return associative([]);
    case 'map':
      return schema.listMapKeys?.length ? associative(schema.listMapKeys) : atomic;
  }
  const strategies = (schema.patchStrategy ?? '').split(',');
  if (strategies.includes('merge')) return associative(schema.patchMergeKey ? [schema.patchMergeKey] : []);
  return atomic;
}

// childSchema is the schema of a map child: the declared field, or the element schema.
export function childSchema(kind: Kind, name: string): Schema | undefined {
  if (kind.type !== 'map') return undefined;
  return Object.prototype.hasOwnProperty.call(kind.fields, name) ? kind.fields[name] : kind.elements;
}

export function isDeclaredField(kind: Kind, name: string): boolean {
  return kind.type === 'map' && Object.prototype.hasOwnProperty.call(kind.fields, name);
}

// schemaAt descends one path element without a value (used to walk field sets).
export function schemaAt(schema: Schema | undefined, pe: PathElement): Schema | undefined {
  const kind = kindOf(schema, undefined);
  if (pe.kind === 'field') return childSchema(kind, pe.name);
  return kind.type === 'list' ? kind.items : undefined;
}

// defaultKeyValues are key defaults the Kubernetes OpenAPI declares but Plinth's schemas leave
// out: every `protocol` list-map key defaults to TCP (ContainerPort, ServicePort, EndpointPort).
const defaultKeyValues: Record<string, unknown> = { protocol: 'TCP' };

// listItemElement is listItemToPathElement: keyed items by their key fields (a missing key takes
// its schema default), set items by value, atomic-list items by index. It returns an Error for
// items that cannot be identified.
export function listItemElement(kind: Kind & { type: 'list' }, index: number, item: unknown): PathElement | Error {
  if (kind.atomic) return indexElement(index);
  if (kind.keys.length === 0) {
    if (isObject(item) || Array.isArray(item)) return new Error('associative list without keys has an element that\'s a map type');
    return valueElement(item);
  }
  if (!isObject(item)) return new Error('associative list with keys may not have non-map elements');
  const itemKind = kindOf(kind.items, item);
  const fields: KeyField[] = [];
  for (const name of kind.keys) {
    if (Object.prototype.hasOwnProperty.call(item, name) && item[name] !== undefined) {
      fields.push({ name, value: item[name] });
      continue;
    }
    const fallback = childSchema(itemKind, name)?.default ?? defaultKeyValues[name];
    if (fallback === undefined) {
      return new Error(`associative list with keys has an element that omits key field "${name}" (and doesn't have default value)`);
    }
    fields.push({ name, value: fallback });
  }
  return keyElement(fields);
}

