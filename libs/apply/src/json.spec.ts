import { kindSchema, s } from '@plinth/api';
import { withGoZeroValues } from './typed';
import { cloneJson, setOwn } from './json';

describe('setOwn', () => {
  it('adds an own enumerable, writable member, in insertion order', () => {
    const obj: Record<string, unknown> = { a: 1 };
    setOwn(obj, 'toString', 2);
    setOwn(obj, 'a', 3);
    expect(Object.keys(obj)).toEqual(['a', 'toString']);
    expect(Object.getOwnPropertyDescriptor(obj, 'toString')).toEqual({ value: 2, writable: true, enumerable: true, configurable: true });
    expect(obj.a).toBe(3);
  });

  it('keeps "__proto__" an ordinary member, never the prototype', () => {
    const obj: Record<string, unknown> = {};
    setOwn(obj, '__proto__', { polluted: true });
    expect(Object.keys(obj)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(obj)).toBe(Object.prototype);
    expect(JSON.stringify(obj)).toBe('{"__proto__":{"polluted":true}}');
  });

  it('lets copies keep a "__proto__" member', () => {
    const input = JSON.parse('{"metadata":{"labels":{"__proto__":"x","b":"y"}}}');
    expect(JSON.stringify(cloneJson(input))).toBe(JSON.stringify(input));
    expect(JSON.stringify(withGoZeroValues(input, undefined))).toBe(JSON.stringify(input));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('withGoZeroValues', () => {
  const schema = kindSchema({ spec: s.object({ replicas: s.int32(), selector: s.object({ matchLabels: s.map(s.string()) }) }) }, 'Thing');

  it('adds the zero values and shares what gains none, leaving its input as it was', () => {
    const labels = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`l${i}`, 'v']));
    const input = { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'a', labels }, spec: { selector: { matchLabels: { a: 'b' } } } };
    const before = JSON.stringify(input);
    const out = withGoZeroValues(input, schema) as typeof input & { metadata: { creationTimestamp: unknown } };
    expect(out.metadata.creationTimestamp).toBeNull();
    expect(Object.keys(out.metadata)).toEqual(['name', 'labels', 'creationTimestamp']);
    expect(out.metadata.labels).toBe(labels);
    expect(out.spec).toBe(input.spec);
    expect(JSON.stringify(input)).toBe(before);
  });
});
