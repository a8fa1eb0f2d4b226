import { KubeObject } from '@plinth/api';
import { stringifyJson } from '@plinth/machinery';
import { itemJsonBody, keptEventJson, withoutTypeMeta } from './item-json';

const text = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
const eventText = (type: string, presented: KubeObject) => `${stringifyJson({ type, object: presented }, presented)}\n`;

function lease(name: string, extra: Record<string, unknown> = {}): KubeObject {
  return Object.freeze({ apiVersion: 'coordination.platform.io/v1', kind: 'Lease', metadata: { name, namespace: 'default', resourceVersion: '7', labels: { owner: 'zoë' } }, spec: { holderIdentity: 'holder' }, ...extra }) as KubeObject;
}

describe('item JSON kept with a watch event', () => {
  it('keeps a built-in list item as a view of the event encoding, byte for byte the item made alone', () => {
    const object = lease('a');
    const presented = { ...object, apiVersion: 'coordination.k8s.io/v1' } as KubeObject;
    const event = keptEventJson(eventText('ADDED', presented), 'ADDED', object, presented, false);
    expect(text(event)).toBe(eventText('ADDED', presented));
    const body = itemJsonBody(object, false);
    expect(body.buffer).toBe(event.buffer);
    expect(`{${text(body)}`).toBe(stringifyJson(withoutTypeMeta(object), object));
  });

  it('finds the item after apiVersion and kind written in either order', () => {
    const object = Object.freeze({ kind: 'Lease', apiVersion: 'coordination.platform.io/v1', metadata: { name: 'b' } }) as KubeObject;
    const event = keptEventJson(eventText('MODIFIED', object), 'MODIFIED', object, object, false);
    const body = itemJsonBody(object, false);
    expect(body.buffer).toBe(event.buffer);
    expect(`{${text(body)}`).toBe('{"metadata":{"name":"b"}}');
  });

  it('keeps a custom resource item (its own apiVersion and kind) as a view only when the event names its group', () => {
    const object = Object.freeze({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 3 } }) as KubeObject;
    const event = keptEventJson(eventText('ADDED', object), 'ADDED', object, object, true);
    const body = itemJsonBody(object, true);
    expect(body.buffer).toBe(event.buffer);
    expect(`{${text(body)}`).toBe(stringifyJson(object));

    const other = Object.freeze({ ...object, metadata: { name: 'v' } }) as KubeObject;
    const aliased = { ...other, apiVersion: 'alias.example.com/v1' } as KubeObject;
    const aliasedEvent = keptEventJson(eventText('ADDED', aliased), 'ADDED', other, aliased, true);
    const otherBody = itemJsonBody(other, true);
    expect(otherBody.buffer).not.toBe(aliasedEvent.buffer);
    expect(`{${text(otherBody)}`).toBe(stringifyJson(other));
  });

  it('makes the item on its own when the event holds nothing after the type meta', () => {
    const object = Object.freeze({ apiVersion: 'v1', kind: 'Thing' }) as KubeObject;
    const event = keptEventJson(eventText('DELETED', object), 'DELETED', object, object, false);
    const body = itemJsonBody(object, false);
    expect(body.buffer).not.toBe(event.buffer);
    expect(`{${text(body)}`).toBe('{}');
  });

  it('keeps the first item made for a frozen object and none for an object that may change', () => {
    const object = lease('c');
    expect(itemJsonBody(object, false)).toBe(itemJsonBody(object, false));
    const presented = { ...object, apiVersion: 'coordination.k8s.io/v1' } as KubeObject;
    const event = keptEventJson(eventText('ADDED', presented), 'ADDED', object, presented, false);
    expect(itemJsonBody(object, false).buffer).not.toBe(event.buffer);

    const open = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'd' } } as KubeObject;
    keptEventJson(eventText('ADDED', open), 'ADDED', open, open, false);
    const first = itemJsonBody(open, false);
    expect(itemJsonBody(open, false)).not.toBe(first);
    expect(`{${text(first)}`).toBe('{"metadata":{"name":"d"}}');
  });
});
