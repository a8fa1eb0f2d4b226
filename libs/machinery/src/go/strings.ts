// Go string semantics that Kubernetes messages and orderings depend on: Go measures strings in
// UTF-8 bytes, sorts them bytewise and quotes them with strconv.Quote.

// utf8Length is Go's len(s): the number of UTF-8 bytes (a lone surrogate counts as U+FFFD).
export function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

// compareStrings orders strings as Go's sort.Strings does (bytewise UTF-8, which is code point order).
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const ca = Array.from(a, (c) => c.codePointAt(0) ?? 0);
  const cb = Array.from(b, (c) => c.codePointAt(0) ?? 0);
  const n = Math.min(ca.length, cb.length);
  for (let i = 0; i < n; i++) {
    if (ca[i] !== cb[i]) return ca[i] < cb[i] ? -1 : 1;
  }
  return ca.length - cb.length;
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

// goQuote is Go's strconv.Quote (the %q verb): a double-quoted string with Go escapes.
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    let cp = ch.codePointAt(0) ?? 0;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    const short = shortEscapes[cp];
    if (short !== undefined) out += short;
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${hex(cp, 2)}`;
    else if (printable.test(String.fromCodePoint(cp))) out += String.fromCodePoint(cp);
    else if (cp < 0x10000) out += `\\u${hex(cp, 4)}`;
    else out += `\\U${hex(cp, 8)}`;
  }
  return out + '"';
}
