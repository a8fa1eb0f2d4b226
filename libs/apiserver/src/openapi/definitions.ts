// DefinitionWriter renders registry Schemas as OpenAPI schemas of one document: a Schema with a
// ref becomes a shared definition and a reference to it, everything else is written in place.
// The list and map markers are written as x-kubernetes-* extensions (what kubectl, strategic
// merge patch and server-side apply clients read) and as their x-platform-* twins.
import type { Schema } from '@plinth/api';
import { GroupVersionKind } from './names';
import { Dialect, JsonObject, names, scalarDefinitions } from './shared-definitions';
import kubeDescriptionTable from './kube-descriptions.json';

// KubeDescriptions are the texts Kubernetes 1.28 publishes for a definition and its properties
// (what kubectl explain prints), written by tools/openapi-descriptions.ts from its OpenAPI
// documents; they take the place of the Schemas' own shorter descriptions.
interface KubeDescriptions {
  description?: string;
  properties?: Record<string, string>;
}

const kubeDescriptions = kubeDescriptionTable as Record<string, KubeDescriptions>;

type MarkerName = 'list-type' | 'list-map-keys' | 'map-type' | 'int-or-string' | 'preserve-unknown-fields' | 'embedded-resource' | 'patch-merge-key' | 'patch-strategy';

// structuralMarkers belong to the type (and so to a shared definition); patchMarkers belong to
// the field using it, where strategic merge patch looks them up.
function structuralMarkers(schema: Schema): [MarkerName, unknown][] {
  const markers: [MarkerName, unknown][] = [
    ['list-type', schema.listType],
    ['list-map-keys', schema.listMapKeys],
    ['map-type', schema.mapType],
    ['int-or-string', schema.intOrString || undefined],
    ['preserve-unknown-fields', schema.preserveUnknownFields || undefined],
    ['embedded-resource', schema.embeddedResource || undefined],
  ];
  return markers.filter(([, value]) => value !== undefined);
}

function patchMarkers(schema: Schema): [MarkerName, unknown][] {
  const markers: [MarkerName, unknown][] = [
    ['patch-merge-key', schema.patchMergeKey],
    ['patch-strategy', schema.patchStrategy],
  ];
  return markers.filter(([, value]) => value !== undefined);
}

function writeMarkers(out: JsonObject, markers: [MarkerName, unknown][]): void {
  for (const [name, value] of markers) {
    const copy = Array.isArray(value) ? [...value] : value;
    out[`x-kubernetes-${name}`] = copy;
    out[`x-platform-${name}`] = copy;
  }
}

export const gvkExtension = 'x-kubernetes-group-version-kind';

// kube-openapi's OpenAPI 3 documents give the members Go holds by value (not behind a pointer)
// their zero value as default: {} for a struct (metav1.Time, IntOrString and Quantity included),
// "" for a string, 0 for a number, false for a boolean, nothing for a slice or map. The Schemas
// do not say which members are pointers; valueMembers and the elements of lists and maps are
// those Kubernetes holds by value: a kind's metadata, spec and status, and the required members
// of a type (optional ones are mostly pointers or omitted zero values).
function valueMembers(schema: Schema): Set<string> {
  const members = new Set(schema.required ?? []);
  const properties = schema.properties ?? {};
  if (properties['apiVersion'] && properties['kind'] && properties['metadata']) for (const name of ['metadata', 'spec', 'status']) members.add(name);
  return members;
}

function zeroValueOf(schema: Schema, named: boolean): unknown {
  if (named || schema.properties) return {};
  switch (schema.type) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    default:
      return undefined;
  }
}

export class DefinitionWriter {
  private readonly definitions = new Map<string, JsonObject>();
  private readonly scalars: Record<string, JsonObject>;

  constructor(readonly dialect: Dialect) {
    this.scalars = scalarDefinitions(dialect);
  }

  refPath(name: string): string {
    return this.dialect === 'v3' ? `#/components/schemas/${name}` : `#/definitions/${name}`;
  }

  // reference points at a definition from a field; OpenAPI 3 ignores siblings of $ref, so a
  // field with its own description or markers wraps the reference in allOf, as builder3 does.
  reference(name: string, siblings: JsonObject = {}): JsonObject {
    const ref = { $ref: this.refPath(name) };
    if (Object.keys(siblings).length === 0) return ref;
    return this.dialect === 'v3' ? { ...siblings, allOf: [ref] } : { ...ref, ...siblings };
  }

  // convert writes a Schema as used by a field, defining the shared types it names; zeroDefault
  // gives the field its Go zero value as default (OpenAPI 3 only, see zeroDefaultOf).
  // fieldDescription, when given, is Kubernetes' description of the field using the Schema; an
  // element (of a list or map) carries none of its own, as in kube-openapi's documents (kubectl
  // explain would print its type's description twice).
  convert(schema: Schema, zeroDefault = false, fieldDescription?: string, element = false): JsonObject {
    const name = schema.ref ?? (schema.intOrString && schema.format === 'int-or-string' ? names.intOrString : undefined);
    const zero = zeroDefault && this.dialect === 'v3' && schema.default === undefined ? zeroValueOf(schema, name !== undefined) : undefined;
    if (name === undefined) {
      const body = this.body(schema);
      if (fieldDescription !== undefined) body['description'] = fieldDescription;
      return zero === undefined ? body : { ...body, default: zero };
    }
    const definition = this.define(name, schema);
    // The field carries a description as kube-openapi's fields do (kubectl explain prints the
    // field's own): Kubernetes', else the Schema's, else the type's.
    const siblings: JsonObject = {};
    const description = element ? undefined : (fieldDescription ?? schema.description ?? definition['description']);
    if (typeof description === 'string' && description !== '') siblings['description'] = description;
    if (zero !== undefined) siblings['default'] = zero;
    writeMarkers(siblings, patchMarkers(schema));
    return this.reference(name, siblings);
  }

  // define publishes a Schema under a name (once: the first Schema seen for a name wins).
  define(name: string, schema: Schema): JsonObject {
    const existing = this.definitions.get(name);
    if (existing) return existing;
    const scalar = this.scalars[name];
    if (scalar) {
      const copy = structuredClone(scalar);
      this.definitions.set(name, copy);
      return copy;
    }
    // The entry is registered before its body is written so that a type naming itself ends.
    const definition: JsonObject = {};
    this.definitions.set(name, definition);
    Object.assign(definition, this.body(schema, false, kubeDescriptions[name]));
    return definition;
  }

  defineScalar(name: string): void {
    if (!this.definitions.has(name) && this.scalars[name]) this.definitions.set(name, structuredClone(this.scalars[name]));
  }

  // addGroupVersionKinds marks a definition as the schema of kinds (kubectl explain, apply and
  // validation find a kind's schema by this extension).
  addGroupVersionKinds(name: string, gvks: GroupVersionKind[]): void {
    const definition = this.definitions.get(name);
    if (!definition) throw new Error(`openapi: no definition ${name}`);
    const list = (definition[gvkExtension] as GroupVersionKind[] | undefined) ?? [];
    for (const gvk of gvks) {
      if (!list.some((g) => g.group === gvk.group && g.version === gvk.version && g.kind === gvk.kind)) list.push({ group: gvk.group, kind: gvk.kind, version: gvk.version });
    }
    definition[gvkExtension] = list;
  }

  has(name: string): boolean {
    return this.definitions.has(name);
  }

  // sorted returns the definitions by name, as kube-openapi serializes its map.
  sorted(): Record<string, JsonObject> {
    return Object.fromEntries([...this.definitions.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  private body(schema: Schema, withPatchMarkers = true, described?: KubeDescriptions): JsonObject {
    const out: JsonObject = {};
    const description = described?.description ?? schema.description;
    if (description) out['description'] = description;
    if (schema.type) out['type'] = schema.type;
    if (schema.format) out['format'] = schema.format;
    if (schema.enum) out['enum'] = [...schema.enum];
    if (schema.default !== undefined) out['default'] = structuredClone(schema.default);
    if (schema.required?.length) out['required'] = [...schema.required];
    if (schema.properties) {
      const valued = valueMembers(schema);
      out['properties'] = Object.fromEntries(Object.entries(schema.properties).map(([key, value]) => [key, this.convert(value, valued.has(key), described?.properties?.[key])]));
    }
    if (schema.items) out['items'] = this.convert(schema.items, true, undefined, true);
    if (schema.additionalProperties) out['additionalProperties'] = this.convert(schema.additionalProperties, true, undefined, true);
    // An int-or-string without a type is written as a structural schema writes it (anyOf);
    // Swagger 2.0 has no anyOf and keeps only the marker.
    if (schema.intOrString && !schema.type && this.dialect === 'v3') out['anyOf'] = [{ type: 'integer' }, { type: 'string' }];
    writeMarkers(out, structuralMarkers(schema));
    if (withPatchMarkers) writeMarkers(out, patchMarkers(schema));
    return out;
  }
}
