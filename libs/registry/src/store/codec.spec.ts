import { KubeObject } from '@plinth/api';
import { decodeObject, encodeObject } from './codec';

const decoder = new TextDecoder();

describe('codec', () => {
  it('stores an object without its resourceVersion and reads it back with the revision as the last metadata field', () => {
    const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', resourceVersion: '7', namespace: 'default', labels: { x: 'y' } }, data: { k: 'v' } } as KubeObject;
    const value = encodeObject(object);
    expect(JSON.parse(decoder.decode(value)).metadata).toEqual({ name: 'a', namespace: 'default', labels: { x: 'y' } });
    const read = decodeObject({ key: '/registry/configmaps/default/a', value, revision: 12, createRevision: 3 });
    expect(JSON.stringify(read)).toBe('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"default","labels":{"x":"y"},"resourceVersion":"12"},"data":{"k":"v"}}');
    expect(decodeObject({ key: 'k', value, revision: 12, createRevision: 3 }, 15).metadata.resourceVersion).toBe('15');
  });

  it('gives a stored value without metadata the revision as its only metadata', () => {
    const read = decodeObject({ key: 'k', value: new TextEncoder().encode('{"kind":"X"}'), revision: 4, createRevision: 4 });
    expect(read).toEqual({ kind: 'X', metadata: { resourceVersion: '4' } });
  });

  it('refuses a stored value that is not JSON as a StorageError', () => {
    expect(() => decodeObject({ key: 'k', value: new TextEncoder().encode('{'), revision: 4, createRevision: 4 })).toThrow('stored value is not JSON');
  });
});
