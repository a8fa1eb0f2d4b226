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
