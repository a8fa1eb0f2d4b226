// The JSON a watch cache's object (frozen, shared) is served with, kept once per object: a list
// item's bytes (made once and reused by every list until the object changes, as kube-apiserver's
// cachingObject keeps serializations) and a watch event's shared encoding. Both hold the same
// bytes: a built-in object's list item is its JSON without apiVersion and kind, which its watch
// event's encoding holds after them; a custom resource's list item is its JSON as stored, which
// the event holds whole when the client reads the resource's own group. So the list item is
// kept as a view of the event's encoding when a watcher made one first (in the all-in-one the
// garbage collector's informer watches every resource), and made on its own otherwise.
import { KubeObject } from '@plinth/api';
import { stringifyJson } from '@plinth/machinery';
import { isAscii } from './http/warning-header';
import { keptUtf8 } from './kept-bytes';

// itemBodies holds each object's list item JSON without its opening brace (what a view of an
// event's encoding can hold); listJson writes the brace before it.
const itemBodies = new WeakMap<KubeObject, Uint8Array>();

export const itemOpening = Buffer.from('{');

// itemJsonBody is the list item JSON of an object without its opening brace, kept for a frozen
// (cached) object.
export function itemJsonBody(object: KubeObject, unstructured: boolean): Uint8Array {
  let body = itemBodies.get(object);
  if (body === undefined) {
    const text = stringifyJson(unstructured ? object : withoutTypeMeta(object), object);
    if (!Object.isFrozen(object)) return Buffer.from(text.slice(1));
    body = keptUtf8(text.slice(1));
    itemBodies.set(object, body);
  }
  return body;
}

// keptEventJson encodes a watch event's JSON text for a window event to keep, and lets a frozen
// object's list item be a view of those bytes when it has none yet. presented is the object as
// the event's client reads it (object itself, or a copy naming the client's group).
export function keptEventJson(text: string, type: string, object: KubeObject, presented: KubeObject, unstructured: boolean): Uint8Array {
  const bytes = keptUtf8(text);
  // A custom resource's item names its own group: an event presenting it in another holds no item.
  if (Object.isFrozen(object) && !itemBodies.has(object) && (!unstructured || presented === object)) {
    const start = itemBodyStart(text, type, presented, unstructured);
    // The event's JSON ends with the object's closing brace, then its own and a newline.
    if (start > 0) itemBodies.set(object, bytes.subarray(start, bytes.length - 2));
  }
  return bytes;
}

const eventEnd = '}}\n';

// itemBodyStart is the offset (in bytes, the text before it being ASCII) where the list item's
// body starts in an event's JSON, or -1 when the event does not hold it.
function itemBodyStart(text: string, type: string, presented: KubeObject, whole: boolean): number {
  if (!text.endsWith(eventEnd)) return -1;
  const head = `{"type":${JSON.stringify(type)},"object":{`;
  if (whole) return text.startsWith(head) ? head.length : -1;
  const apiVersion = `"apiVersion":${JSON.stringify(presented.apiVersion)}`;
  const kind = `"kind":${JSON.stringify(presented.kind)}`;
  for (const typeMeta of [`${head}${apiVersion},${kind},`, `${head}${kind},${apiVersion},`]) {
    if (text.startsWith(typeMeta)) return isAscii(typeMeta) ? typeMeta.length : -1;
  }
  return -1;
}

export function withoutTypeMeta(object: KubeObject): KubeObject {
  const { apiVersion: _a, kind: _k, ...rest } = object;
  return rest as KubeObject;
}
