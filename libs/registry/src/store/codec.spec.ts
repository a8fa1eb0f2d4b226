import { KubeObject } from '@plinth/api';
import { decodeObject, encodeObject } from './codec';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('the stored form', () => {
  it('is the object as JSON without its resourceVersion, wherever the resourceVersion was', () => {
    const created: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: { x: 'y' } }, data: { k: 'v' } } as KubeObject;
    expect(text(encodeObject(created))).toBe('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","labels":{"x":"y"}},"data":{"k":"v"}}');
    const read = { ...created, metadata: { name: 'a', resourceVersion: '7', labels: { x: 'y' } } } as KubeObject;
    expect(text(encodeObject(read))).toBe(text(encodeObject(created)));
    expect(read.metadata.resourceVersion).toBe('7');
  });

  it('is read back with the revision as its resourceVersion, after the other metadata, or in place of a stored one', () => {
    const kv = (value: string) => ({ key: '/registry/configmaps/ns/a', value: new TextEncoder().encode(value), revision: 9, createRevision: 9 });
    expect(JSON.stringify(decodeObject(kv('{"metadata":{"name":"a","uid":"u"},"data":{}}')))).toBe('{"metadata":{"name":"a","uid":"u","resourceVersion":"9"},"data":{}}');
    expect(JSON.stringify(decodeObject(kv('{"metadata":{"resourceVersion":"3","name":"a"}}'), 12))).toBe('{"metadata":{"resourceVersion":"12","name":"a"}}');
    expect(decodeObject(kv('{"kind":"X"}')).metadata).toEqual({ resourceVersion: '9' });
    expect(() => decodeObject(kv('not json'))).toThrow('stored value is not JSON');
  });
});
