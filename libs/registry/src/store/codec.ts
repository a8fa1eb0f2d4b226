// The stored form of an object is its JSON without metadata.resourceVersion: the revision of
// the write is the resourceVersion, set when the object is read back.
import { KubeObject } from '@plinth/api';
import { KeyValue, StorageError } from '@plinth/storage';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeObject(object: KubeObject): Uint8Array {
  const { resourceVersion: _ignored, ...metadata } = object.metadata;
  return encoder.encode(JSON.stringify({ ...object, metadata }));
}

export function decodeObject(kv: KeyValue, revision = kv.revision): KubeObject {
  let object: KubeObject;
  try {
    object = JSON.parse(decoder.decode(kv.value)) as KubeObject;
  } catch {
    throw StorageError.invalidObj(kv.key, 'stored value is not JSON');
  }
  object.metadata = { ...object.metadata, resourceVersion: String(revision) };
  return object;
}
