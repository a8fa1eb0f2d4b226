import { formatGoFloat, formatGoValue, GoLiteral } from './format';
import { compareStrings, goQuote, utf8Length } from './strings';

describe('goQuote (strconv.Quote)', () => {
  it.each([
    ['abc', '"abc"'],
    ['', '""'],
    ['say "hi"\\', '"say \\"hi\\"\\\\"'],
    ['a\nb\tc\r', '"a\\nb\\tc\\r"'],
    ['\u0000\u0007\u001b\u007f', '"\\x00\\a\\x1b\\x7f"'],
    ['héllo 世界', '"héllo 世界"'],
    ['\u00a0\u200b', '"\\u00a0\\u200b"'],
    ['😀', '"😀"'],
    ['a\ud800b', '"a\ufffdb"'],
    [`${'n'.repeat(100)}é"`, `"${'n'.repeat(100)}é\\""`],
  ])('quotes %j as %s', (input, expected) => {
    expect(goQuote(input)).toBe(expected);
  });

  it('quotes a megabyte of a name in one pass (the message of a refused name holds it twice)', () => {
    const name = 'n'.repeat(1_000_000);
    expect(goQuote(name)).toBe(`"${name}"`);
    expect(goQuote(`${name}\n`)).toBe(`"${name}\\n"`);
  });
});

describe('utf8Length (len)', () => {
  it('counts UTF-8 bytes', () => {
    expect(utf8Length('abc')).toBe(3);
    expect(utf8Length('é')).toBe(2);
    expect(utf8Length('世')).toBe(3);
    expect(utf8Length('😀')).toBe(4);
    // a lone surrogate is written as U+FFFD, three bytes
    expect(utf8Length('a\uD800b\uDC00')).toBe(8);
  });
});

describe('compareStrings (sort.Strings order)', () => {
  it('orders bytewise, uppercase before lowercase and by code point beyond the BMP', () => {
    expect(['b', 'a', 'B', '', 'ab'].sort(compareStrings)).toEqual(['', 'B', 'a', 'ab', 'b']);
    // UTF-16 order would put U+FF5E after the surrogate pair of U+1F600; UTF-8 order does not.
    expect(['😀', '～'].sort(compareStrings)).toEqual(['～', '😀']);
  });

  it('agrees with code point order on strings from every plane', () => {
    const alphabet = ['a', 'Z', '~', 'é', '\u07ff', '\u0800', '\ud7ff', '\ue000', '～', '\uffff', '😀', '\u{10000}', '\u{10ffff}'];
    const strings: string[] = [];
    for (let i = 0; i < 400; i++) strings.push(Array.from({ length: i % 5 }, (_, j) => alphabet[(i * 7 + j * 13) % alphabet.length]).join(''));
    const byCodePoints = (a: string, b: string) => {
      const [x, y] = [Array.from(a, (c) => c.codePointAt(0) as number), Array.from(b, (c) => c.codePointAt(0) as number)];
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
      return x.length - y.length;
    };
    for (const a of strings) for (const b of strings) expect(Math.sign(compareStrings(a, b))).toBe(Math.sign(byCodePoints(a, b)));
  });
});

describe('formatGoValue (%v / %q / %#v as ErrorBody prints)', () => {
  it.each([
    ['x', '"x"'],
    [5, '5'],
    [-3, '-3'],
    [1.5, '1.5'],
    [true, 'true'],
    [null, 'null'],
    [undefined, 'null'],
    [['a', 'b'], '[]string{"a", "b"}'],
    [[], '[]string{}'],
    [new GoLiteral('[]string(nil)'), '[]string(nil)'],
    [{ a: 1 }, '{"a":1}'],
  ])('prints %j as %s', (value, expected) => {
    expect(formatGoValue(value)).toBe(expected);
  });

  it('prints floats with %g shortest precision', () => {
    expect(formatGoFloat(0.5)).toBe('0.5');
    expect(formatGoFloat(1234567.5)).toBe('1.2345675e+06');
    expect(formatGoFloat(0.00001)).toBe('1e-05');
    expect(formatGoFloat(0.0001)).toBe('0.0001');
    expect(formatGoFloat(Infinity)).toBe('+Inf');
  });
});
