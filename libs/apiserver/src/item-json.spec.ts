import { KubeObject } from '@plinth/api';
import { stringifyJson } from '@plinth/machinery';
import { decodeObject, encodeObject } from '@plinth/registry';
import { ItemJson, itemJson, ItemsWriter, keepStoredItem, keptEventJson, withoutTypeMeta } from './item-json';

const text = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
// listed is the items of a list of the objects as the list writes them.
function listed(objects: KubeObject[], unstructured = false): string {
  const writer = new ItemsWriter();
  for (const object of objects) writer.add(object, unstructured);
  const out = Buffer.alloc(writer.length + 2, '#');
  expect(writer.write(out, 1)).toBe(writer.length + 1);
  return out.toString('utf8');
}
const itemText = (object: KubeObject, unstructured = false) => {
  const text = listed([object], unstructured);
  return text.slice(1, -1);
};
// bytesOf is the buffer an item's JSON is a view of.
const bytesOf = (form: ItemJson) => (form instanceof Uint8Array ? form.buffer : form.bytes.buffer);
const eventText = (type: string, presented: KubeObject) => `${stringifyJson({ type, object: presented }, presented)}\n`;

function lease(name: string, extra: Record<string, unknown> = {}): KubeObject {
  return Object.freeze({ apiVersion: 'coordination.platform.io/v1', kind: 'Lease', metadata: { name, namespace: 'default', resourceVersion: '7', labels: { owner: 'zoë' } }, spec: { holderIdentity: 'holder' }, ...extra }) as KubeObject;
}

// stored is an object as a watch cache gets it from storage: its stored bytes, and the object
// read back from them at a revision.
function stored(object: KubeObject, revision = 42): { bytes: Uint8Array; object: KubeObject } {
  const bytes = encodeObject(object);
  return { bytes, object: Object.freeze(decodeObject({ key: '/k', value: bytes, revision, createRevision: revision })) };
}

describe('a list item from stored bytes', () => {
  it('is the stored bytes after apiVersion and kind with the resourceVersion closing metadata, byte for byte the item made alone', () => {
    for (const object of [
      lease('a'),
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'quotes', annotations: { note: '"}{ \\ ]["' } }, data: { 'a.json': '{"x":[1,2]}', é: 'ü' } } as KubeObject,
      { kind: 'Secret', apiVersion: 'v1', metadata: {}, type: 'Opaque' } as KubeObject,
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', ownerReferences: [{ name: 'o', controller: true }] }, spec: { containers: [{ name: 'c', args: ['}', ']'] }], priority: -3, overhead: null } } as unknown as KubeObject,
    ]) {
      const { bytes, object: read } = stored(object);
      keepStoredItem(read, bytes);
      expect(bytesOf(itemJson(read, false))).toBe(bytes.buffer);
      expect(itemText(read)).toBe(stringifyJson(withoutTypeMeta(read), read));
    }
  });

  it('is written beside items of every form, each once, separated by commas', () => {
    const fromStorage = stored(lease('s'));
    keepStoredItem(fromStorage.object, fromStorage.bytes);
    const made = lease('m');
    const open = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'o' } } as KubeObject;
    const objects = [fromStorage.object, made, open, fromStorage.object];
    expect(listed(objects)).toBe(`#${objects.map((object) => stringifyJson(withoutTypeMeta(object), object)).join(',')}#`);
    expect(listed([])).toBe('##');
  });

  it('copies stored bytes that are a view of a larger buffer (a gRPC message), keeping none of it', () => {
    const { bytes, object } = stored(lease('b'));
    const message = Buffer.concat([Buffer.from('header'), bytes, Buffer.from('trailer')]);
    keepStoredItem(object, message.subarray(6, 6 + bytes.length));
    const kept = bytesOf(itemJson(object, false));
    expect(kept).not.toBe(message.buffer);
    expect(kept.byteLength).toBe(bytes.length);
    expect(itemText(object)).toBe(stringifyJson(withoutTypeMeta(object), object));
  });

  it('is made alone when the stored bytes are not laid out as the codec writes them', () => {
    const cases: [string, KubeObject][] = [
      ['{"metadata":{"name":"m"},"apiVersion":"v1","kind":"ConfigMap"}', { metadata: { name: 'm', resourceVersion: '3' }, apiVersion: 'v1', kind: 'ConfigMap' } as KubeObject],
      ['{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"m","resourceVersion":"9"}}', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'm', resourceVersion: '3' } } as KubeObject],
      ['{"apiVersion":"v1","kind":"ConfigMap"}', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { resourceVersion: '3' } } as KubeObject],
      ['{"apiVersion":"v1","kind":"ConfigMap","metadata":"m"}', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { resourceVersion: '3' } } as KubeObject],
    ];
    for (const [json, object] of cases) {
      const bytes = new TextEncoder().encode(json);
      const frozen = Object.freeze(object);
      keepStoredItem(frozen, bytes);
      expect(bytesOf(itemJson(frozen, false))).not.toBe(bytes.buffer);
      expect(itemText(frozen)).toBe(stringifyJson(withoutTypeMeta(frozen), frozen));
    }
  });
});

describe('a list item kept with a watch event', () => {
  it('is a view of a built-in object event encoding, byte for byte the item made alone', () => {
    const object = lease('a');
    const presented = { ...object, apiVersion: 'coordination.k8s.io/v1' } as KubeObject;
    const event = keptEventJson(eventText('ADDED', presented), 'ADDED', object, presented, false);
    expect(text(event)).toBe(eventText('ADDED', presented));
    expect(bytesOf(itemJson(object, false))).toBe(event.buffer);
    expect(itemText(object)).toBe(stringifyJson(withoutTypeMeta(object), object));
  });

  it('is found after apiVersion and kind written in either order', () => {
    const object = Object.freeze({ kind: 'Lease', apiVersion: 'coordination.platform.io/v1', metadata: { name: 'b' } }) as KubeObject;
    const event = keptEventJson(eventText('MODIFIED', object), 'MODIFIED', object, object, false);
    expect(bytesOf(itemJson(object, false))).toBe(event.buffer);
    expect(itemText(object)).toBe('{"metadata":{"name":"b"}}');
  });

  it('is a view of a custom resource event (its own apiVersion and kind) only when the event names its group', () => {
    const object = Object.freeze({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 3 } }) as KubeObject;
    const event = keptEventJson(eventText('ADDED', object), 'ADDED', object, object, true);
    expect(bytesOf(itemJson(object, true))).toBe(event.buffer);
    expect(itemText(object, true)).toBe(stringifyJson(object));

    const other = Object.freeze({ ...object, metadata: { name: 'v' } }) as KubeObject;
    const aliased = { ...other, apiVersion: 'alias.example.com/v1' } as KubeObject;
    const aliasedEvent = keptEventJson(eventText('ADDED', aliased), 'ADDED', other, aliased, true);
    expect(bytesOf(itemJson(other, true))).not.toBe(aliasedEvent.buffer);
    expect(itemText(other, true)).toBe(stringifyJson(other));
  });

  it('is made alone when the event holds nothing after the type meta', () => {
    const object = Object.freeze({ apiVersion: 'v1', kind: 'Thing' }) as KubeObject;
    const event = keptEventJson(eventText('DELETED', object), 'DELETED', object, object, false);
    expect(bytesOf(itemJson(object, false))).not.toBe(event.buffer);
    expect(itemText(object)).toBe('{}');
  });

  it('is the first one made for a frozen object, and never kept for an object that may change', () => {
    const object = lease('c');
    expect(itemJson(object, false)).toBe(itemJson(object, false));
    const presented = { ...object, apiVersion: 'coordination.k8s.io/v1' } as KubeObject;
    const event = keptEventJson(eventText('ADDED', presented), 'ADDED', object, presented, false);
    expect(bytesOf(itemJson(object, false))).not.toBe(event.buffer);

    const open = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'd' } } as KubeObject;
    keptEventJson(eventText('ADDED', open), 'ADDED', open, open, false);
    const first = itemJson(open, false);
    expect(itemJson(open, false)).not.toBe(first);
    expect(itemText(open)).toBe('{"metadata":{"name":"d"}}');
  });
});
