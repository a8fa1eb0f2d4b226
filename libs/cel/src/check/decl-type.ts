// DeclType is apiserver/pkg/cel/common.SchemaDeclType: the CEL type of a schema node with the
// bounds the cost estimator reads (maxElements: the longest string or list, the largest map
// the schema or a request allows) and the fewest bytes a value of it takes in JSON.
import { escapePropertyName, unescapePropertyName } from '../escaping';
import { additionalPropertiesSchema, JSONSchemaProps, withRootMetadata } from '../schema';
import { BOOL, BYTES, CelType, DOUBLE, DURATION, DYN, INT, listOf, mapOf, STRING, TIMESTAMP } from './types';

export interface DeclType {
  type: CelType;
  maxElements: number;
  minSerializedSize: number;
  fields?: ReadonlyMap<string, DeclType>;
  elem?: DeclType;
  key?: DeclType;
}

// maxRequestSizeBytes is apiserver's DefaultMaxRequestSizeBytes (3 MiB).
export const maxRequestSizeBytes = 3 * 1024 * 1024;
const maxDurationSizeJSON = 32;
const maxDatetimeSizeJSON = 32;
const minDurationSizeJSON = 3;
const jsonDateSize = 12;
const minDatetimeSizeJSON = 21;
const minStringSize = 2;
const minBoolSize = 4;
const minNumberSize = 1;

const simple = (type: CelType, minSerializedSize: number, maxElements = 0): DeclType => ({ type, maxElements, minSerializedSize });
const zeroIfNegative = (n: number) => (n < 0 ? 0 : n);
// stringKey is apiservercel.StringType, a map's key type: no maxElements, so a key's size is 0.
const stringKey = simple(STRING, minStringSize);

// schemaDeclType returns the type of a schema node, or null where the schema exposes nothing
// (no type, or a list or map of such). name is the object type's name (cel-go prints it).
export function schemaDeclType(schema: JSONSchemaProps | undefined, isResourceRoot: boolean, name: string): DeclType | null {
  if (!schema || typeof schema !== 'object') return null;
  if (schema['x-kubernetes-int-or-string']) return simple(DYN, 1, maxRequestSizeBytes - 2);
  const s = isResourceRoot ? withRootMetadata(schema) : schema;
  switch (s.type) {
    case 'array': {
      if (!s.items) return null;
      const elem = schemaDeclType(s.items, !!s.items['x-kubernetes-embedded-resource'], `${name}.@idx`);
      if (!elem) return null;
      const maxItems = typeof s.maxItems === 'number' ? zeroIfNegative(s.maxItems) : Math.floor((maxRequestSizeBytes - 2) / (elem.minSerializedSize + 1));
      return { type: listOf(elem.type), maxElements: maxItems, minSerializedSize: 2, elem };
    }
    case 'object': {
      const valueSchema = additionalPropertiesSchema(s);
      if (valueSchema) {
        const value = schemaDeclType(valueSchema, !!valueSchema['x-kubernetes-embedded-resource'], `${name}.@elem`);
        if (!value) return null;
        const maxProperties = typeof s.maxProperties === 'number' ? zeroIfNegative(s.maxProperties) : Math.floor((maxRequestSizeBytes - 2) / (value.minSerializedSize + 6));
        return { type: mapOf(STRING, value.type), maxElements: maxProperties, minSerializedSize: 2, elem: value, key: stringKey };
      }
      return objectDeclType(s, name);
    }
    case 'string':
      return stringDeclType(s);
    case 'boolean':
      return simple(BOOL, minBoolSize);
    case 'number':
      return simple(DOUBLE, minNumberSize);
    case 'integer':
      return simple(INT, minNumberSize);
    default:
      return null;
  }
}

function objectDeclType(s: JSONSchemaProps, name: string): DeclType {
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const fields = new Map<string, DeclType>();
  let minSerializedSize = 2;
  for (const [prop, child] of Object.entries(s.properties ?? {})) {
    const escaped = escapePropertyName(prop);
    const fieldType = schemaDeclType(child, !!child?.['x-kubernetes-embedded-resource'], `${name}.${escaped ?? prop}`);
    if (!fieldType) continue;
    if (escaped !== null) fields.set(escaped, fieldType);
    if (required.has(prop) && child.default === undefined) minSerializedSize += prop.length + fieldType.minSerializedSize + 4;
  }
  const type: CelType = { kind: 'object', name, fields: new Map([...fields].map(([k, v]) => [k, v.type])) };
  return { type, maxElements: 0, minSerializedSize, fields };
}

function stringDeclType(s: JSONSchemaProps): DeclType {
  const maxLength = typeof s.maxLength === 'number' ? zeroIfNegative(s.maxLength) : null;
  switch (s.format) {
    case 'byte':
      return simple(BYTES, minStringSize, maxLength ?? maxRequestSizeBytes - 2);
    case 'duration':
      return simple(DURATION, minDurationSizeJSON, maxDurationSizeJSON);
    case 'date':
      return simple(TIMESTAMP, jsonDateSize, jsonDateSize);
    case 'date-time':
      return simple(TIMESTAMP, minDatetimeSizeJSON, maxDatetimeSizeJSON);
    default:
      // maxLength counts code points, a request bytes: one code point may take 4.
      return simple(STRING, minStringSize, maxLength !== null ? maxLength * 4 : maxRequestSizeBytes - 2);
  }
}

// maxCardinality is how often data of minSize bytes may repeat in one request.
export function maxCardinality(minSize: number): number {
  return Math.floor(maxRequestSizeBytes / (minSize + 1));
}

// actualDeclType is the type of self with the sizes of one value in place of the schema's
// bounds: what the cost of evaluating a rule over that value is estimated from (the sizes
// cel-go's runtime cost tracking charges: code points of a string, bytes, list and map
// entries), every element of a list or map taking the largest size of its siblings.
export function actualDeclType(decl: DeclType, value: unknown): DeclType {
  if (value === null || value === undefined) return { ...decl, maxElements: 0, elem: decl.elem && emptied(decl.elem), key: decl.key && emptied(decl.key), fields: decl.fields && emptiedFields(decl.fields) };
  if (typeof value === 'string' || (value !== null && typeof value !== 'object')) return { ...decl, maxElements: scalarSize(decl, value) };
  if (Array.isArray(value)) {
    return { ...decl, maxElements: value.length, elem: decl.elem && widestElement(decl.elem, value) };
  }
  if (typeof value === 'object') {
    if (decl.fields) {
      const fields = new Map([...decl.fields].map(([name, fieldDecl]) => [name, actualDeclType(fieldDecl, (value as Record<string, unknown>)[unescapePropertyName(name)])]));
      // an object's size is its number of entries, unknown fields included (unstructuredMap)
      return { ...decl, fields, maxElements: Object.keys(value).length };
    }
    const entries = Object.entries(value as Record<string, unknown>);
    const elem = decl.elem && widestElement(decl.elem, entries.map(([, v]) => v));
    const longestKey = entries.reduce((max, [k]) => Math.max(max, codePoints(k)), 0);
    return { ...decl, maxElements: entries.length, elem, key: decl.key && { ...decl.key, maxElements: longestKey } };
  }
  // A number or boolean has no size; cel-go charges it as 1.
  return { ...decl, maxElements: 1 };
}

// scalarSize is the size cel-go gives a JSON scalar by its type: code points of a string,
// bytes of base64 data, 1 for a number, boolean, timestamp or duration (not sized).
function scalarSize(decl: DeclType, value: unknown): number {
  if (typeof value !== 'string') return 1;
  if (decl.type.kind !== 'primitive' && decl.type.kind !== 'dyn') return 1;
  if (decl.type.kind === 'primitive' && decl.type.name === 'bytes') return Math.floor((value.length * 3) / 4);
  if (decl.type.kind === 'primitive' && decl.type.name !== 'string') return 1;
  return codePoints(value);
}

// codePoints counts a string's code points (a surrogate pair is one).
export function codePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) count--;
  }
  return count;
}

// widestElement sizes the elements of a list or map by the largest of them; a scalar element
// type is sized without building a type per element.
function widestElement(elem: DeclType, values: unknown[]): DeclType {
  if (!elem.fields && !elem.elem) {
    let largest = 0;
    for (const v of values) largest = Math.max(largest, scalarSize(elem, v));
    return { ...elem, maxElements: largest };
  }
  return values.reduce<DeclType>((widest, v) => widenDeclType(widest, actualDeclType(elem, v)), emptied(elem));
}

function emptied(decl: DeclType): DeclType {
  return actualDeclType(decl, undefined);
}

function emptiedFields(fields: ReadonlyMap<string, DeclType>): ReadonlyMap<string, DeclType> {
  return new Map([...fields].map(([name, d]) => [name, emptied(d)]));
}

// widenDeclType is the larger of two sizes of one type, field by field.
export function widenDeclType(a: DeclType, b: DeclType): DeclType {
  const fields = a.fields && b.fields ? new Map([...a.fields].map(([name, d]) => [name, b.fields?.get(name) ? widenDeclType(d, b.fields.get(name) as DeclType) : d])) : a.fields;
  return {
    ...a,
    maxElements: Math.max(a.maxElements, b.maxElements),
    elem: a.elem && b.elem ? widenDeclType(a.elem, b.elem) : a.elem,
    key: a.key && b.key ? widenDeclType(a.key, b.key) : a.key,
    fields,
  };
}
