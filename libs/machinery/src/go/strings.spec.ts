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
  ])('quotes %j as %s', (input, expected) => {
    expect(goQuote(input)).toBe(expected);
  });
});

describe('utf8Length (len)', () => {
  it('counts UTF-8 bytes', () => {
    expect(utf8Length('abc')).toBe(3);
    expect(utf8Length('é')).toBe(2);
    expect(utf8Length('世')).toBe(3);
    expect(utf8Length('😀')).toBe(4);
  });
});

describe('compareStrings (sort.Strings order)', () => {
  it('orders bytewise, uppercase before lowercase and by code point beyond the BMP', () => {
    expect(['b', 'a', 'B', '', 'ab'].sort(compareStrings)).toEqual(['', 'B', 'a', 'ab', 'b']);
    // UTF-16 order would put U+FF5E after the surrogate pair of U+1F600; UTF-8 order does not.
    expect(['😀', '～'].sort(compareStrings)).toEqual(['～', '😀']);
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
