import { warningHeaderValue, warningHeaderValues } from './warning-header';

// bytesOf reads a header value back as the bytes Node sends for it (Latin-1, one per character).
const bytesOf = (value: string) => Buffer.from(value, 'latin1');

describe('warningHeaderValue (net.NewWarningHeader(299, "-", text))', () => {
  it('quotes the text, escaping only quotes and backslashes', () => {
    expect(warningHeaderValue('unknown field "spec.foo"')).toBe('299 - "unknown field \\"spec.foo\\""');
    expect(warningHeaderValue('a\\b')).toBe('299 - "a\\\\b"');
  });

  it('sends text beyond Latin-1 as its UTF-8 bytes, as Go writes it', () => {
    const value = warningHeaderValue('unknown field "ф"');
    expect(value).not.toBeNull();
    expect(bytesOf(value as string).toString('utf8')).toBe('299 - "unknown field \\"ф\\""');
    expect([...(value as string)].every((c) => c.charCodeAt(0) <= 0xff)).toBe(true);
  });

  it('sends Latin-1 letters as UTF-8 too, not as single bytes', () => {
    expect([...bytesOf(warningHeaderValue('é') as string)]).toEqual([...Buffer.from('299 - "é"', 'utf8')]);
  });

  it('drops a text with a control character (C0, DEL or C1)', () => {
    expect(warningHeaderValue('line\nbreak')).toBeNull();
    expect(warningHeaderValue('nul\u0000')).toBeNull();
    expect(warningHeaderValue('del\u007f')).toBeNull();
    expect(warningHeaderValue('c1\u0085')).toBeNull();
  });
});

describe('warningHeaderValues (the warning recorder)', () => {
  it('drops empty and repeated texts, keeping the order', () => {
    expect(warningHeaderValues(['b', '', 'a', 'b'])).toEqual(['299 - "b"', '299 - "a"']);
  });

  it('keeps every text while they fit in 4,096 runes', () => {
    const texts = Array.from({ length: 16 }, (_, i) => `${i}`.padEnd(256, 'x'));
    expect(warningHeaderValues(texts)).toHaveLength(16);
    expect(warningHeaderValues(texts).every((v) => v.length === 256 + 8)).toBe(true);
  });

  it('past 4,096 runes cuts every text to 256 runes, and stops once the cut texts fill the limit', () => {
    const long = (i: number) => `${String(i).padStart(3, '0')}`.padEnd(1000, 'ф');
    const values = warningHeaderValues(Array.from({ length: 20, }, (_, i) => long(i)));
    const texts = values.map((v) => bytesOf(v).toString('utf8').slice('299 - "'.length, -1));
    // 16 texts of 256 runes fill 4,096; the recorder returns early after that.
    expect(texts).toHaveLength(16);
    expect(texts.every((t) => [...t].length === 256)).toBe(true);
    expect(texts.map((t) => t.slice(0, 3))).toEqual(Array.from({ length: 16 }, (_, i) => String(i).padStart(3, '0')));
  });

  it('counts runes, not UTF-16 units, when cutting', () => {
    const astral = '😀'.repeat(300);
    const values = warningHeaderValues(['x'.repeat(4000), astral]);
    const texts = values.map((v) => bytesOf(v).toString('utf8').slice('299 - "'.length, -1));
    expect(texts.map((t) => [...t].length)).toEqual([256, 256]);
    expect(texts[1]).toBe('😀'.repeat(256));
  });
});
