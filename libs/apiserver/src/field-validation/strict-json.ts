// Strict JSON decoding of request bodies, after sigs.k8s.io/json UnmarshalStrict as kube-apiserver
// 1.28 uses it: the value (the last of duplicated keys wins, as in Go's encoding/json), every
// duplicated key as a field path in the strict decoder's form (`metadata.labels.app`,
// `spec.containers[0].name`), and syntax errors with encoding/json's scanner text
// (`invalid character 'x' looking for beginning of value`, `unexpected end of JSON input`).
//
// parseStrictJson tries JSON.parse first and compares the number of keys in the text with the
// number in the value: only when they differ does a tokenizer name the duplicated keys. The
// parser below runs only to word a syntax error, or when the text holds surrogates that Go
// would turn into U+FFFD.

import { goQuote, keepFloatLiteral, keepIntegerLiteral, markExactRoot } from '@plinth/machinery';

// JsonSyntaxError is encoding/json's SyntaxError: the message names the first offending character.
export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

// DuplicateField is one repeated object key: its path and the offset of the repeating key.
export interface DuplicateField {
  path: string;
  offset: number;
}

// NumberLiterals holds the text of the numbers a JS number cannot stand for exactly as Go reads
// them (a fraction, an exponent, or more than 15 digits: `1e2`, `15.0`, `9223372036854775808`),
// by the container that holds them and their key or index.
export type NumberLiterals = WeakMap<object, Map<string | number, string>>;

export interface StrictParseResult {
  value: unknown;
  duplicates: DuplicateField[];
  // literals is set when numberLiterals was asked for and the text has such numbers.
  literals?: NumberLiterals;
}

export interface StrictParseOptions {
  // duplicates: false skips the duplicate scan (fieldValidation=Ignore decodes non-strictly).
  duplicates?: boolean;
  // numberLiterals: true keeps the text of numbers that are not plain short integers.
  numberLiterals?: boolean;
}

// parseStrictJson decodes a JSON document (a Buffer as UTF-8) and lists its duplicated keys in
// document order; a syntax error throws JsonSyntaxError.
export function parseStrictJson(input: string | Buffer, options: StrictParseOptions = {}): StrictParseResult {
  const text = typeof input === 'string' ? input : input.toString('utf8');
  const wantDuplicates = options.duplicates !== false;
  if (options.numberLiterals && hasInexactNumber(text)) {
    const parser = new Parser(text, new WeakMap());
    const parsed = parser.parse();
    markExactRoot(parsed);
    return { value: parsed, duplicates: wantDuplicates ? findDuplicates(text) : [], literals: parser.literals };
  }
  const value = goFaithfulToJsonParse(text) ? tryJsonParse(text) : notParsed;
  if (value === notParsed) {
    const parsed = parseJson(text);
    return { value: parsed, duplicates: wantDuplicates ? findDuplicates(text) : [] };
  }
  const { keys, depth } = measure(value);
  if (depth > maxNestingDepth) parseJson(text); // throws Go's "exceeded max depth"
  // Without duplicates every key of the text is a key of the value: counting them is much
  // cheaper than the scan that names the duplicates.
  const duplicates = wantDuplicates && (keyColons(text) !== keys || prototypeEnumerable()) ? findDuplicates(text) : [];
  return { value, duplicates };
}

const notParsed = Symbol('notParsed');

// hasInexactNumber tells whether the text outside its strings has a number with a fraction, an
// exponent, or 16 digits or more (all that JSON.parse may read as another number than Go).
export function hasInexactNumber(text: string): boolean {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i);
      if (i < 0) return false; // unterminated: the parser words the error
      digits = 0;
    } else if (isDigit(c)) {
      if (++digits >= 16) return true;
    } else {
      if (digits > 0 && (c === 0x2e || c === 0x65 || c === 0x45)) return true;
      digits = 0;
    }
  }
  return false;
}

function tryJsonParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return notParsed; // the parser below words the error as Go does
  }
}

const surrogateEscape = /\\u[dD][89a-fA-F]/;
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// goFaithfulToJsonParse tells whether JSON.parse reads text as Go does: Go replaces a surrogate
// that is not half of a valid pair, escaped or raw, with U+FFFD where JSON.parse keeps it.
function goFaithfulToJsonParse(text: string): boolean {
  if (text.includes('\\u') && surrogateEscape.test(text)) return false;
  const isWellFormed = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return isWellFormed ? isWellFormed.call(text) : !loneSurrogate.test(text);
}

// parseJson is the parser alone: Go's value (U+FFFD for lone surrogates) and Go's errors.
export function parseJson(text: string): unknown {
  return new Parser(text).parse();
}

// nestingError is encoding/json's error for a decoded value nested deeper than its 10,000 levels
// (`invalid character '[' exceeded max depth`), or null: a value decoded by JSON.parse (which
// nests without limit) is checked before anything recursive walks it.
export function nestingError(text: string, value: unknown): string | null {
  if (value === null || typeof value !== 'object' || measure(value).depth <= maxNestingDepth) return null;
  try {
    parseJson(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) return err.message;
    throw err;
  }
  return 'exceeded max depth';
}

// measure counts the object keys of a decoded value and its nesting depth, without recursion.
function measure(root: unknown): { keys: number; depth: number } {
  let keys = 0;
  let depth = 0;
  const values: unknown[] = [root];
  const depths: number[] = [0];
  while (values.length > 0) {
    const value = values.pop();
    const d = (depths.pop() as number) + 1;
    if (value === null || typeof value !== 'object') continue;
    if (d > depth) depth = d;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const v = value[i];
        if (v !== null && typeof v === 'object') {
          values.push(v);
          depths.push(d);
        }
      }
      continue;
    }
    // for-in, not Object.keys: no array per object (see prototypeEnumerable)
    const obj = value as Record<string, unknown>;
    for (const name in obj) {
      keys++;
      const v = obj[name];
      if (v !== null && typeof v === 'object') {
        values.push(v);
        depths.push(d);
      }
    }
  }
  return { keys, depth };
}

// prototypeEnumerable tells whether objects inherit enumerable names, which for-in would count.
function prototypeEnumerable(): boolean {
  for (const name in {}) return name !== undefined;
  return false;
}

// keyColons counts the colons that follow a quote: one per key of valid JSON text, and more
// only when a string holds a quote and then a colon, so it never counts fewer than the keys.
function keyColons(text: string): number {
  let n = 0;
  for (let p = text.indexOf(':'); p >= 0; p = text.indexOf(':', p + 1)) {
    let j = p - 1;
    let c = text.charCodeAt(j);
    while (isSpace(c)) c = text.charCodeAt(--j);
    if (c === 0x22) n++;
  }
  return n;
}

// quoteChar is encoding/json's quoteChar: the offending byte as a quoted Go rune. Outside ASCII,
// Go reports the first byte of the UTF-8 sequence, read as a Latin-1 rune.
function quoteChar(text: string, pos: number): string {
  const cp = text.codePointAt(pos) ?? 0;
  let byte = cp;
  if (cp >= 0x80) {
    byte = cp < 0x800 ? 0xc0 | (cp >> 6) : cp < 0x10000 ? 0xe0 | (cp >> 12) : 0xf0 | (cp >> 18);
    if (cp >= 0xd800 && cp <= 0xdfff) byte = 0xef; // a lone surrogate is U+FFFD once encoded
  }
  if (byte === 0x27) return `'\\''`;
  if (byte === 0x22) return `'"'`;
  return `'${goQuoteBody(String.fromCharCode(byte))}'`;
}

// goQuoteBody is strconv.Quote without the surrounding quotes.
function goQuoteBody(s: string): string {
  return goQuote(s).slice(1, -1);
}

const unexpectedEnd = 'unexpected end of JSON input';

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

// maxNestingDepth is the limit on open objects and arrays, with encoding/json's error
// ("exceeded max depth"). Go stops at 10,000; Plinth stops at 1,000, because the stages after
// decoding (patches, pruning, managed fields) recurse on the JS stack, which 10,000 levels can
// exhaust, and V8 ends the whole process when it compiles a regular expression with the stack
// nearly exhausted. No Kubernetes object comes near 1,000 levels.
export const maxNestingDepth = 1000;

interface OpenContainer {
  object: Record<string, unknown> | null;
  array: unknown[] | null;
  key: string;
}

// setKey stores a decoded member; __proto__ becomes an own property, as JSON.parse makes it.
function setKey(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}

// Parser is an RFC 8259 parser whose values and errors follow Go's encoding/json.
class Parser {
  private pos = 0;
  // pendingLiteral is the text of the last number read, when it is inexact.
  private pendingLiteral: string | null = null;

  constructor(
    private readonly text: string,
    readonly literals?: NumberLiterals,
  ) {}

  // keepLiteral records the pending number literal under its container and key.
  private keepLiteral(container: object, key: string | number): void {
    if (this.pendingLiteral === null || !this.literals) return;
    let byKey = this.literals.get(container);
    if (!byKey) this.literals.set(container, (byKey = new Map()));
    byKey.set(key, this.pendingLiteral);
    // an int64 beyond 2^53 keeps its digits on the way to CEL, storage and the answer; a float
    // is marked as Go decodes it
    if (!keepIntegerLiteral(container, key, this.pendingLiteral)) keepFloatLiteral(container, key, this.pendingLiteral);
    this.pendingLiteral = null;
  }

  // parse reads one value with an explicit stack of open containers, so that nesting is bounded
  // by Go's limit and not by the JS call stack.
  parse(): unknown {
    const stack: OpenContainer[] = [];
    let value: unknown;
    for (;;) {
      // read the start of a value: a scalar, an empty container, or a container to fill
      const c = this.peek();
      if (c === 0x7b || c === 0x5b) {
        if (stack.length >= maxNestingDepth) this.fail('exceeded max depth');
        this.pos++;
        const close = c === 0x7b ? 0x7d : 0x5d;
        if (this.peek() === close) {
          this.pos++;
          value = c === 0x7b ? {} : [];
        } else {
          const open: OpenContainer = c === 0x7b ? { object: {}, array: null, key: '' } : { object: null, array: [], key: '' };
          stack.push(open);
          if (open.object) open.key = this.key();
          continue;
        }
      } else {
        value = this.scalar(c);
      }
      // store the value in its container; close the containers that end here
      for (;;) {
        const top = stack[stack.length - 1];
        if (!top) {
          this.skipSpace();
          if (this.pos < this.text.length) this.fail('after top-level value');
          return value;
        }
        const next = this.peek();
        this.pos++;
        if (top.array) {
          if (this.pendingLiteral !== null) this.keepLiteral(top.array, top.array.length);
          top.array.push(value);
          if (next === 0x2c) break;
          if (next !== 0x5d) {
            this.pos--;
            this.fail('after array element');
          }
          value = top.array;
        } else if (top.object) {
          if (this.pendingLiteral !== null) this.keepLiteral(top.object, top.key);
          setKey(top.object, top.key, value);
          if (next === 0x2c) {
            top.key = this.key();
            break;
          }
          if (next !== 0x7d) {
            this.pos--;
            this.fail('after object key:value pair');
          }
          value = top.object;
        }
        stack.pop();
      }
    }
  }

  private fail(context: string): never {
    if (this.pos >= this.text.length) throw new JsonSyntaxError(unexpectedEnd, this.pos);
    throw new JsonSyntaxError(`invalid character ${quoteChar(this.text, this.pos)} ${context}`, this.pos);
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && isSpace(this.text.charCodeAt(this.pos))) this.pos++;
  }

  // peek returns the next character code after white space, or -1 at the end of input.
  private peek(): number {
    this.skipSpace();
    return this.pos < this.text.length ? this.text.charCodeAt(this.pos) : -1;
  }

  // key reads an object key and the colon after it.
  private key(): string {
    if (this.peek() !== 0x22) this.fail('looking for beginning of object key string');
    const key = this.string();
    if (this.peek() !== 0x3a) this.fail('after object key');
    this.pos++;
    return key;
  }

  private scalar(c: number): unknown {
    if (c === 0x22) return this.string();
    if (c === 0x2d || isDigit(c)) return this.number();
    if (c === 0x74) return this.literal('true', true);
    if (c === 0x66) return this.literal('false', false);
    if (c === 0x6e) return this.literal('null', null);
    return this.fail('looking for beginning of value');
  }

  private string(): string {
    const text = this.text;
    let out = '';
    let start = ++this.pos;
    for (;;) {
      if (this.pos >= text.length) this.fail('in string literal');
      const c = text.charCodeAt(this.pos);
      if (c === 0x22) {
        out += text.slice(start, this.pos++);
        return out;
      }
      if (c < 0x20) this.fail('in string literal');
      if (c >= 0xd800 && c <= 0xdfff) {
        // a raw surrogate code unit: keep a valid pair, replace a lone half as Go does invalid UTF-8
        const next = text.charCodeAt(this.pos + 1);
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          this.pos += 2;
          continue;
        }
        out += text.slice(start, this.pos) + '\ufffd';
        start = ++this.pos;
        continue;
      }
      if (c !== 0x5c) {
        this.pos++;
        continue;
      }
      out += text.slice(start, this.pos);
      this.pos++;
      out += this.escape();
      start = this.pos;
    }
  }

  private escape(): string {
    if (this.pos >= this.text.length) this.fail('in string escape code');
    const c = this.text.charCodeAt(this.pos++);
    switch (c) {
      case 0x22:
        return '"';
      case 0x5c:
        return '\\';
      case 0x2f:
        return '/';
      case 0x62:
        return '\b';
      case 0x66:
        return '\f';
      case 0x6e:
        return '\n';
      case 0x72:
        return '\r';
      case 0x74:
        return '\t';
      case 0x75:
        return this.unicodeEscape();
    }
    this.pos--;
    return this.fail('in string escape code');
  }

  // unicodeEscape decodes \uXXXX (the \u already read); a surrogate pairs with an immediately
  // following \uXXXX low half, and anything else becomes U+FFFD as in Go's unquote.
  private unicodeEscape(): string {
    const rr = this.hex4();
    if (rr < 0xd800 || rr > 0xdfff) return String.fromCharCode(rr);
    const text = this.text;
    if (rr <= 0xdbff && text.charCodeAt(this.pos) === 0x5c && text.charCodeAt(this.pos + 1) === 0x75) {
      let lo = 0;
      let ok = true;
      for (let i = 0; i < 4; i++) {
        const h = hexValue(text.charCodeAt(this.pos + 2 + i));
        if (h < 0) ok = false;
        lo = lo * 16 + h;
      }
      if (ok && lo >= 0xdc00 && lo <= 0xdfff) {
        this.pos += 6;
        return String.fromCharCode(rr, lo);
      }
    }
    return '\ufffd';
  }

  private hex4(): number {
    let v = 0;
    for (let i = 0; i < 4; i++) {
      const h = this.pos < this.text.length ? hexValue(this.text.charCodeAt(this.pos)) : -1;
      if (h < 0) this.fail('in \\u hexadecimal character escape');
      v = v * 16 + h;
      this.pos++;
    }
    return v;
  }

  private digits(): void {
    while (this.pos < this.text.length && isDigit(this.text.charCodeAt(this.pos))) this.pos++;
  }

  private at(): number {
    return this.pos < this.text.length ? this.text.charCodeAt(this.pos) : -1;
  }

  private number(): number {
    const start = this.pos;
    if (this.at() === 0x2d) {
      this.pos++;
      if (!isDigit(this.at())) this.fail('in numeric literal');
    }
    if (this.at() === 0x30) this.pos++;
    else this.digits();
    if (this.at() === 0x2e) {
      this.pos++;
      if (!isDigit(this.at())) this.fail('after decimal point in numeric literal');
      this.digits();
    }
    const e = this.at();
    if (e === 0x65 || e === 0x45) {
      this.pos++;
      const sign = this.at();
      if (sign === 0x2b || sign === 0x2d) this.pos++;
      if (!isDigit(this.at())) this.fail('in exponent of numeric literal');
      this.digits();
    }
    const literal = this.text.slice(start, this.pos);
    if (this.literals && (literal.length - (literal.startsWith('-') ? 1 : 0) >= 16 || /[.eE]/.test(literal))) this.pendingLiteral = literal;
    return Number(literal);
  }

  private literal<T>(word: string, value: T): T {
    this.pos++;
    for (let i = 1; i < word.length; i++) {
      if (this.at() !== word.charCodeAt(i)) this.fail(`in literal ${word} (expecting '${word[i]}')`);
      this.pos++;
    }
    return value;
  }
}

// Frame is one open container of the key scanner: its current key or index, and for objects
// the keys seen so far (a set made only once a second key arrives).
interface Frame {
  object: boolean;
  expectKey: boolean;
  key: string;
  index: number;
  count: number;
  first: string;
  seen: Set<string> | null;
}

type KeyVisitor = (frames: Frame[], depth: number, key: string, offset: number, duplicate: boolean) => void;

// stringEnd returns the index of the quote closing the string that opens at start.
function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  for (;;) {
    let backslashes = 0;
    for (let i = end - 1; text.charCodeAt(i) === 0x5c; i--) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}

// scanKeys walks the object keys of valid JSON text in document order.
function scanKeys(text: string, visit: KeyVisitor): void {
  const frames: Frame[] = [];
  let depth = -1;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = stringEnd(text, i);
      const frame = depth >= 0 ? frames[depth] : undefined;
      if (frame && frame.expectKey) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\') ? (new Parser(text.slice(i, end + 1)).parse() as string) : raw;
        frame.expectKey = false;
        frame.key = key;
        let duplicate = false;
        if (frame.count === 0) frame.first = key;
        else {
          if (!frame.seen) frame.seen = new Set([frame.first]);
          if (frame.seen.has(key)) duplicate = true;
          else frame.seen.add(key);
        }
        frame.count++;
        visit(frames, depth, key, i, duplicate);
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      let frame = frames[depth];
      if (!frame) frame = frames[depth] = { object: false, expectKey: false, key: '', index: 0, count: 0, first: '', seen: null };
      frame.object = c === 0x7b;
      frame.expectKey = frame.object;
      frame.index = 0;
      frame.count = 0;
      frame.seen = null;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    } else if (c === 0x2c) {
      const frame = frames[depth];
      if (frame.object) frame.expectKey = true;
      else frame.index++;
    }
  }
}

// keyPath is the strict decoder's path of key inside the containers frames[0..depth]:
// keys joined by ".", array indexes as "[i]".
function keyPath(frames: Frame[], depth: number, key: string): string {
  let out = '';
  let empty = true;
  for (let d = 0; d < depth; d++) {
    const f = frames[d];
    if (f.object) {
      out += empty ? f.key : `.${f.key}`;
    } else {
      out += `[${f.index}]`;
    }
    empty = false;
  }
  return empty ? key : `${out}.${key}`;
}

// findDuplicates lists every repeated key of valid JSON text, in document order.
export function findDuplicates(text: string): DuplicateField[] {
  const duplicates: DuplicateField[] = [];
  scanKeys(text, (frames, depth, key, offset, duplicate) => {
    if (duplicate) duplicates.push({ path: keyPath(frames, depth, key), offset });
  });
  return duplicates;
}

// keyOffsets returns where each of the given paths first occurs as a key in valid JSON text.
export function keyOffsets(input: string | Buffer, paths: ReadonlySet<string>): Map<string, number> {
  const text = typeof input === 'string' ? input : input.toString('utf8');
  const offsets = new Map<string, number>();
  scanKeys(text, (frames, depth, key, offset) => {
    const path = keyPath(frames, depth, key);
    if (paths.has(path) && !offsets.has(path)) offsets.set(path, offset);
  });
  return offsets;
}
