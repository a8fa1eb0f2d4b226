import { Schema } from '@plinth/api';
import { inGoFieldOrder, jsonPatchedJson, mergePatchedJson } from './patched-json';

const current = { kind: 'Lease', apiVersion: 'coordination.k8s.io/v1', metadata: { name: 'a', namespace: 'n', uid: 'u' }, spec: { holderIdentity: 'x', leaseDurationSeconds: 3 } };

describe('mergePatchedJson', () => {
  it('sorts the document and the objects the patch merges into, and keeps the others as they stand', () => {
    expect(mergePatchedJson(current, { spec: { nope: 1, holderIdentity: 'y' } })).toBe(
      '{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"a","namespace":"n","uid":"u"},"spec":{"holderIdentity":"y","leaseDurationSeconds":3,"nope":1}}',
    );
  });

  it('deletes null members and opens added objects all through, dropping their null members', () => {
    expect(mergePatchedJson(current, { metadata: null, status: { b: 1, a: null, c: [{ z: 1, y: null }] } })).toBe(
      '{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","spec":{"holderIdentity":"x","leaseDurationSeconds":3},"status":{"b":1,"c":[{"z":1}]}}',
    );
  });

  it('writes strings as Go does, with <, > and & escaped', () => {
    expect(mergePatchedJson({}, { a: '<&>' })).toBe('{"a":"\\u003c\\u0026\\u003e"}');
  });
});

describe('jsonPatchedJson', () => {
  it('sorts the containers on the way to each path and keeps added values in their order', () => {
    const patched = { ...current, spec: { holderIdentity: 'x', leaseDurationSeconds: 3, nope: { b: 1, a: 2 } } };
    expect(jsonPatchedJson(patched, ['/spec/nope'])).toBe(
      '{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"a","namespace":"n","uid":"u"},"spec":{"holderIdentity":"x","leaseDurationSeconds":3,"nope":{"b":1,"a":2}}}',
    );
  });

  it('reads escaped pointer segments', () => {
    expect(jsonPatchedJson({ 'a/b': { d: 1, c: 2 }, e: { g: 1, f: 2 } }, ['/a~1b/x'])).toBe('{"a/b":{"c":2,"d":1},"e":{"g":1,"f":2}}');
  });
});

describe('inGoFieldOrder', () => {
  it('orders struct members by declaration and leaves map entries and unknown members after them', () => {
    const schema: Schema = { type: 'object', properties: { name: { type: 'string' }, uid: { type: 'string' }, labels: { type: 'object', additionalProperties: { type: 'string' } } } };
    const ordered = inGoFieldOrder({ extra: 1, labels: { z: 'a', b: 'c' }, uid: 'u', name: 'n' }, schema);
    expect(JSON.stringify(ordered)).toBe('{"name":"n","uid":"u","labels":{"z":"a","b":"c"},"extra":1}');
  });
});
