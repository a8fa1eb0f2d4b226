// Go string semantics that Kubernetes messages and orderings depend on: Go measures strings in
// UTF-8 bytes, sorts them bytewise and quotes them with strconv.Quote.

// utf8Length is Go's len(s): the number of UTF-8 bytes (a lone surrogate counts as U+FFFD).
export function utf8Length(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

// compareStrings orders strings as Go's sort.Strings does (bytewise UTF-8, which is code point
// order). UTF-16 order is the same but for code points past U+FFFF (surrogate pairs), which sort
// after U+E000..U+FFFF: the code units are ranked so, and no string is copied (sorting 100,000
// keys compares millions of times).
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) < codePointRank(y) ? -1 : 1;
  }
  return a.length - b.length;
}

function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

// goQuote is Go's strconv.Quote (the %q verb): a double-quoted string with Go escapes. Runs of
// printable ASCII are copied as they are; only the other characters are looked at one by one
// (a name of a megabyte is quoted into an error message more than once).
export function goQuote(s: string): string {
  let out = '"';
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i);
    if (unit >= 0x20 && unit <= 0x7e && unit !== 0x22 && unit !== 0x5c) continue;
    const cp = s.codePointAt(i) as number;
    out += s.slice(run, i) + quoteCharacter(cp);
    if (cp > 0xffff) i++;
    run = i + 1;
  }
  return `${out}${s.slice(run)}"`;
}

function quoteCharacter(codePoint: number): string {
  let cp = codePoint;
  if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
  const short = shortEscapes[cp];
  if (short !== undefined) return short;
  if (cp < 0x20 || cp === 0x7f) return `\\x${hex(cp, 2)}`;
  if (printable.test(String.fromCodePoint(cp))) return String.fromCodePoint(cp);
  if (cp < 0x10000) return `\\u${hex(cp, 4)}`;
  return `\\U${hex(cp, 8)}`;
}

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

const shortEscapes: Record<number, string> = {
  0x07: '\\a',
  0x08: '\\b',
  0x0c: '\\f',
  0x0a: '\\n',
  0x0d: '\\r',
  0x09: '\\t',
  0x0b: '\\v',
  0x22: '\\"',
  0x5c: '\\\\',
};

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}
