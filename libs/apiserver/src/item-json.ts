// The JSON a watch cache's object (frozen, shared) is listed with, kept once per object and
// reused by every list until the object changes, as kube-apiserver's cachingObject keeps
// serializations. A built-in object the cache got with its stored bytes is listed from those
// (stored-item.ts): the cache holds no second copy of it. Any other's item is made once, or kept
// as a view of its watch event's encoding when a watcher made one first: a built-in object's
// list item is its JSON without apiVersion and kind, which the event's encoding holds after
// them; a custom resource's list item is its JSON as stored, which the event holds whole when
// the client reads the resource's own group.
import { KubeObject } from '@plinth/api';
import { stringifyJson } from '@plinth/machinery';
import { isAscii } from './http/warning-header';
import { keptUtf8 } from './kept-bytes';
import { locateStoredItem, StoredItem, storedItemLength, writeStoredItem } from './stored-item';

// itemForms holds each object's list item: a view of its stored bytes, or its JSON without its
// opening brace (what a view of an event's encoding can hold).
const itemForms = new WeakMap<KubeObject, StoredItem | Uint8Array>();

// keepStoredItem lets a frozen built-in object be listed from the bytes storage holds it as
// (copied when they are a view of a larger buffer, as a gRPC message's are, which they would
// keep whole).
export function keepStoredItem(object: KubeObject, stored: Uint8Array): void {
  if (!Object.isFrozen(object) || itemForms.has(object)) return;
  const whole = stored.byteOffset === 0 && stored.byteLength === stored.buffer.byteLength;
  const item = locateStoredItem(whole ? stored : new Uint8Array(stored));
  if (item) itemForms.set(object, item);
}

// ItemJson is an object's list item JSON: a view of its stored bytes, or its JSON without its
// opening brace.
export type ItemJson = StoredItem | Uint8Array;

// itemJson is the list item JSON of an object, kept for a frozen (cached) object.
export function itemJson(object: KubeObject, unstructured: boolean): ItemJson {
  let form = itemForms.get(object);
  if (form === undefined) {
    const text = stringifyJson(unstructured ? object : withoutTypeMeta(object), object);
    form = keptUtf8(text.slice(1));
    if (Object.isFrozen(object)) itemForms.set(object, form);
  }
  return form;
}

// ItemsWriter writes a list's items (with the commas between them) into one buffer: it measures
// them first, then copies each part in place, so that a page of 500 items allocates nothing an
// item.
export class ItemsWriter {
  private readonly forms: ItemJson[] = [];
  private readonly objects: KubeObject[] = [];
  private readonly lengths: number[] = [];
  length = 0;

  add(object: KubeObject, unstructured: boolean): void {
    let form = itemJson(object, unstructured);
    let length = form instanceof Uint8Array ? 1 + form.length : storedItemLength(form, object.metadata.resourceVersion ?? '');
    if (length < 0) {
      // A resourceVersion not of digits: the item is made alone (never, for an object storage read).
      form = keptUtf8(stringifyJson(withoutTypeMeta(object), object).slice(1));
      length = 1 + form.length;
    }
    if (this.forms.length > 0) this.length += 1;
    this.forms.push(form);
    this.objects.push(object);
    this.lengths.push(length);
    this.length += length;
  }

  // write writes the items into out at offset at, and answers the offset after them. It writes
  // the last item first: a stored item is copied whole, its apiVersion and kind landing over
  // the bytes of the items before it (written after it), never before at.
  write(out: Uint8Array, at: number): number {
    let end = at + this.length;
    for (let index = this.forms.length - 1; index >= 0; index--) {
      const start = end - this.lengths[index];
      const form = this.forms[index];
      if (form instanceof Uint8Array) {
        out[start] = openBrace;
        out.set(form, start + 1);
      } else {
        writeStoredItem(form, this.objects[index].metadata.resourceVersion ?? '', out, start, at);
      }
      if (index > 0) out[start - 1] = comma;
      end = start - 1;
    }
    return at + this.length;
  }
}

const comma = 0x2c;
const openBrace = 0x7b;

// keptEventJson encodes a watch event's JSON text for a window event to keep, and lets a frozen
// object's list item be a view of those bytes when it has none yet. presented is the object as
// the event's client reads it (object itself, or a copy naming the client's group).
export function keptEventJson(text: string, type: string, object: KubeObject, presented: KubeObject, unstructured: boolean): Uint8Array {
  const bytes = keptUtf8(text);
  // A custom resource's item names its own group: an event presenting it in another holds no item.
  if (Object.isFrozen(object) && !itemForms.has(object) && (!unstructured || presented === object)) {
    const start = itemBodyStart(text, type, presented, unstructured);
    // The event's JSON ends with the object's closing brace, then its own and a newline.
    if (start > 0) itemForms.set(object, bytes.subarray(start, bytes.length - 2));
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
