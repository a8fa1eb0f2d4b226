import { carryExactIntegers, cloneJson, exactInteger, hasLongInteger, holdsExactIntegers, isGoFloat, keepFloatLiteral, markExactRoot, parseJsonExact, stringifyJson } from './exact-integers';

describe('exact integers of unstructured JSON', () => {
  const text = '{"a":9223372036854775807,"b":[1,-9007199254740993],"s":"12345678901234567890","f":12345678901234567.5,"small":1234567890123456,"over":9223372036854775808}';

  it('keeps the literals of int64s beyond 2^53, and only those', () => {
    const value = parseJsonExact(text) as { a: number; b: number[]; s: string; f: number; small: number; over: number };
    expect(holdsExactIntegers(value)).toBe(true);
    expect(exactInteger(value, 'a')).toBe(9223372036854775807n);
    expect(exactInteger(value.b, 1)).toBe(-9007199254740993n);
    expect(exactInteger(value.b, 0)).toBeUndefined();
    expect(value.s).toBe('12345678901234567890');
    // a fraction is a float; a safe integer needs no literal; beyond int64 is a float in Go too
    expect([exactInteger(value, 'f'), exactInteger(value, 'small'), exactInteger(value, 'over')]).toEqual([undefined, undefined, undefined]);
    expect(stringifyJson(value)).toBe(JSON.stringify(JSON.parse(text)).replace('9223372036854776000', '9223372036854775807').replace('-9007199254740992', '-9007199254740993'));
  });

  it('drops a literal whose number was overwritten, and keeps them through cloneJson', () => {
    const value = parseJsonExact('{"a":9223372036854775807,"n":{"b":9007199254740993}}') as { a: number; n: { b: number } };
    const copy = cloneJson(value);
    value.a = 1;
    expect(exactInteger(value, 'a')).toBeUndefined();
    expect(stringifyJson(copy)).toBe('{"a":9223372036854775807,"n":{"b":9007199254740993}}');
    expect(stringifyJson({ ...copy, extra: true }, copy)).toBe('{"a":9223372036854775807,"n":{"b":9007199254740993},"extra":true}');
    expect(stringifyJson({ items: [copy] }, null, 1)).toContain('"b": 9007199254740993');
  });

  it('clones a JSON value deep, "__proto__" members as data, other objects as structuredClone does', () => {
    const value = JSON.parse('{"a":{"b":[1,{"c":null}],"u":"x"},"__proto__":{"polluted":true},"n":-0.5}') as Record<string, unknown>;
    value.missing = undefined;
    value.when = new Date(0);
    value.bytes = new Uint8Array([1, 2]);
    const copy = cloneJson(value);
    expect(Object.keys(copy)).toEqual(Object.keys(value));
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy.a).toEqual(value.a);
    expect([copy.n, 'missing' in copy, copy.missing]).toEqual([-0.5, true, undefined]);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(copy.a).not.toBe(value.a);
    expect((copy.a as { b: unknown[] }).b[1]).not.toBe((value.a as { b: unknown[] }).b[1]);
    // (structuredClone's copies are of the outer realm's classes under jest)
    expect(Object.prototype.toString.call(copy.when)).toBe('[object Date]');
    expect((copy.when as Date).getTime()).toBe(0);
    expect(copy.when).not.toBe(value.when);
    expect([...(copy.bytes as Uint8Array)]).toEqual([1, 2]);
    expect(copy.bytes).not.toBe(value.bytes);
    expect(Object.isFrozen(cloneJson(Object.freeze({ f: Object.freeze([1]) })).f)).toBe(false);
  });

  it('carries literals into an object made anew from the sources, where the number is the same', () => {
    const applied = parseJsonExact('{"spec":{"a":9007199254740993,"l":[9007199254740995]}}') as { spec: { a: number; l: number[] } };
    const merged = { spec: { a: applied.spec.a, l: [...applied.spec.l], b: 9007199254740992 } };
    carryExactIntegers(merged, applied, { spec: 1 });
    expect(stringifyJson(merged)).toBe('{"spec":{"a":9007199254740993,"l":[9007199254740995],"b":9007199254740992}}');
    const changed = { spec: { a: 1 } };
    carryExactIntegers(changed, applied);
    expect(holdsExactIntegers(changed)).toBe(false);
  });

  it('marks numbers written as floats, as Go decodes them, through clones while the number stays', () => {
    const value = { a: 5, b: 100, c: 7, d: 9223372036854775808 };
    expect([keepFloatLiteral(value, 'a', '5.0'), keepFloatLiteral(value, 'b', '1e2'), keepFloatLiteral(value, 'c', '7'), keepFloatLiteral(value, 'd', '9223372036854775808')]).toEqual([true, true, false, true]);
    markExactRoot(value);
    const copy = cloneJson(value);
    expect([isGoFloat(copy, 'a'), isGoFloat(copy, 'b'), isGoFloat(copy, 'c'), isGoFloat(copy, 'd')]).toEqual([true, true, false, true]);
    copy.a = 6;
    expect(isGoFloat(copy, 'a')).toBe(false);
  });

  it('reads text without long integers as JSON.parse does, and leaves strings alone', () => {
    expect(hasLongInteger('{"a":"12345678901234567890","b":123456789012345}')).toBe(false);
    expect(hasLongInteger('{"a":"x\\"","b":1234567890123456}')).toBe(true);
    expect(holdsExactIntegers(parseJsonExact('{"a":"\\"9223372036854775807"}'))).toBe(false);
    expect(() => parseJsonExact('[01234567890123456789]')).toThrow(SyntaxError);
  });
});
