// The JSON text github.com/evanphx/json-patch v4 returns for a patched document, which
// kube-apiserver quotes whole in the 422 that refuses a patched object under
// fieldValidation=Strict. evanphx re-encodes (with Go's encoding/json: keys sorted, <, > and &
// escaped) only the objects it had to open; every other value keeps the text it had, in the
// current object's field order or, for a value taken from the patch, the patch's:
//
//   - merge patch: the document and each object member a patch object merges into are opened;
//     a value the patch adds where there was none (or null) is opened all through, with its null
//     object members dropped;
//   - JSON patch: the document and every object or list on the way to an operation's path (and
//     from) are opened.
import { Schema } from '@plinth/api';
import { isObject, JsonObject } from './json';

// inGoFieldOrder is a copy of an object with its members in the order the Go codec writes them:
// a struct's fields in declaration order (the schema's properties are declared in it), then any
// others as they stand; maps keep their order.
export function inGoFieldOrder(value: unknown, schema: Schema | undefined): unknown {
  if (Array.isArray(value)) return value.map((item) => inGoFieldOrder(item, schema?.items));
  if (!isObject(value) || !schema) return value;
  const out: JsonObject = {};
  const properties = schema.properties ?? {};
  const declared = Object.keys(properties).filter((k) => Object.prototype.hasOwnProperty.call(value, k));
  const rest = Object.keys(value).filter((k) => !Object.prototype.hasOwnProperty.call(properties, k));
  for (const key of declared) out[key] = inGoFieldOrder(value[key], properties[key]);
  for (const key of rest) out[key] = inGoFieldOrder(value[key], schema.additionalProperties);
  return out;
}

const htmlEscapes: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

function goString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => htmlEscapes[c]);
}

function byCodePoint(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

// asIs is a value's text as it stands: compact, members in their order.
function asIs(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(asIs).join(',')}]`;
  if (isObject(value)) return `{${Object.keys(value).map((k) => `${goString(k)}:${asIs(value[k])}`).join(',')}}`;
  if (typeof value === 'string') return goString(value);
  return JSON.stringify(value) ?? 'null';
}

function sortedObject(members: Map<string, string>): string {
  return `{${[...members.keys()].sort(byCodePoint).map((k) => `${goString(k)}:${members.get(k)}`).join(',')}}`;
}

// opened is a value evanphx decoded all through (pruneNulls): objects sorted, null members gone.
function opened(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(opened).join(',')}]`;
  if (!isObject(value)) return asIs(value);
  const members = new Map<string, string>();
  for (const key of Object.keys(value)) if (value[key] !== null) members.set(key, opened(value[key]));
  return sortedObject(members);
}

// mergePatchedJson is the text of jsonpatch.MergePatch(current, patch).
export function mergePatchedJson(current: unknown, patch: unknown): string {
  if (!isObject(patch) || !isObject(current)) return opened(patch);
  return mergedDocument(current, patch);
}

function mergedDocument(doc: JsonObject, patch: JsonObject): string {
  const members = new Map<string, string>();
  for (const key of Object.keys(doc)) members.set(key, asIs(doc[key]));
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    const existing = doc[key];
    if (value === null) members.delete(key);
    else if (!Object.prototype.hasOwnProperty.call(doc, key) || existing === null || !isObject(existing)) members.set(key, opened(value));
    else if (!isObject(value)) members.set(key, asIs(value));
    else members.set(key, mergedDocument(existing, value));
  }
  return sortedObject(members);
}

// jsonPatchedJson is the text of jsonpatch.Patch.Apply for the patched document and the
// pointers (path and from) of the operations applied to it.
export function jsonPatchedJson(patched: unknown, pointers: readonly string[]): string {
  const openedPaths = new Set<string>(['']);
  for (const pointer of pointers) {
    const segments = pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    for (let i = 1; i < segments.length; i++) openedPaths.add(segments.slice(0, i).join(separator));
  }
  return withOpened(patched, '', openedPaths, true);
}

// separator joins the segments of a path in openedPaths; no JSON key holds it.
const separator = '\u0000';

function withOpened(value: unknown, path: string, openedPaths: Set<string>, root: boolean): string {
  if (!openedPaths.has(path)) return asIs(value);
  const child = (key: string | number): string => (root ? String(key) : `${path}${separator}${key}`);
  if (Array.isArray(value)) return `[${value.map((v, i) => withOpened(v, child(i), openedPaths, false)).join(',')}]`;
  if (!isObject(value)) return asIs(value);
  const members = new Map<string, string>();
  for (const key of Object.keys(value)) members.set(key, withOpened(value[key], child(key), openedPaths, false));
  return sortedObject(members);
}
