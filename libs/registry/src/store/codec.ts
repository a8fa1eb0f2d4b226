// The stored form of an object is its JSON without metadata.resourceVersion: the revision of
// the write is the resourceVersion, set when the object is read back.
import { KubeObject } from '@plinth/api';
import { parseJsonExact, stringifyJson } from '@plinth/machinery';
import { KeyValue, StorageError } from '@plinth/storage';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeObject(object: KubeObject): Uint8Array {
  // An object without a resourceVersion (a create's) is written as it is, not copied first.
  if (!Object.prototype.hasOwnProperty.call(object.metadata, 'resourceVersion')) return encoder.encode(stringifyJson(object));
  const { resourceVersion: _ignored, ...metadata } = object.metadata;
  return encoder.encode(stringifyJson({ ...object, metadata }, object));
}

export function decodeObject(kv: KeyValue, revision = kv.revision): KubeObject {
  let object: KubeObject;
  try {
    object = parseJsonExact(decoder.decode(kv.value)) as KubeObject;
  } catch {
    throw StorageError.invalidObj(kv.key, 'stored value is not JSON');
  }
  // The object was just parsed: its own metadata takes the revision (where a copy would put it).
  // A copy made by spreading would also get a hidden class of its own (some 260 bytes an object
  // of a watch cache) once V8's empty-object map has run out of transitions, as it has in a
  // long-running server.
  if (isPlainObject(object.metadata)) object.metadata.resourceVersion = String(revision);
  else object.metadata = { ...object.metadata, resourceVersion: String(revision) };
  return object;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
