// The stored form of an object is its JSON without metadata.resourceVersion: the revision of
// the write is the resourceVersion, set when the object is read back.
import { KubeObject } from '@plinth/api';
import { parseJsonExact, stringifyJson } from '@plinth/machinery';
import { KeyValue, StorageError } from '@plinth/storage';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeObject(object: KubeObject): Uint8Array {
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
  // Set in place: the stored form has no resourceVersion, so it lands last, where a copy
  // ({...metadata, resourceVersion}) would put it; a copy made by spreading gets a hidden class
  // of its own (some 260 bytes an object) once V8's empty-object map has run out of transitions,
  // as it does in a long-running server.
  object.metadata ??= {};
  object.metadata.resourceVersion = String(revision);
  return object;
}
