// Exact integers of unstructured JSON. kube-apiserver decodes a custom resource's integers into
// int64, so 9223372036854775807 reaches a CEL rule as that int64 and is stored and answered with
// those digits. A JS number keeps 53 bits: the object keeps the number (every other reader of the
// object sees what it saw before) and a side table keeps the literal, by the container that holds
// the number and its key. A literal stands for its number only while the container still holds
// the number the literal reads as (a write of another number makes it void).
//
// Numbers written as floats (`5.0`, `1e2`, beyond int64) are marked too: Go decodes them as
// float64, which a rule on an integer field refuses. Only integer literals beyond 2^53 that fit
// int64 are kept; roots are the objects parsed, cloned
// or marked here, and only they are written through the slower, exact path.
import { randomUUID } from 'node:crypto';

const literalsByContainer = new WeakMap<object, Map<string | number, string>>();
// floatsByContainer holds the numbers Go decodes as float64 (`5.0`, `1e2`, beyond int64), with
// the number each stands for.
const floatsByContainer = new WeakMap<object, Map<string | number, number>>();
const roots = new WeakSet<object>();

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

// isInexactInt64 is an integer literal a JS number cannot hold, within int64.
function isInexactInt64(literal: string): boolean {
  if (!/^-?(0|[1-9]\d*)$/.test(literal) || Number.isSafeInteger(Number(literal))) return false;
  const value = BigInt(literal);
  return value >= int64Min && value <= int64Max;
}

function tableKey(container: object, key: string | number): string | number {
  return Array.isArray(container) ? Number(key) : String(key);
}

// keepIntegerLiteral records the literal of container[key] when it is an inexact int64.
export function keepIntegerLiteral(container: object, key: string | number, literal: string): boolean {
  if (!isInexactInt64(literal)) return false;
  let byKey = literalsByContainer.get(container);
  if (!byKey) literalsByContainer.set(container, (byKey = new Map()));
  byKey.set(tableKey(container, key), literal);
  return true;
}

// keepFloatLiteral records that container[key] was written as a float (a fraction, an exponent,
// or an integer beyond int64), which Go decodes as float64 where JS sees a number.
export function keepFloatLiteral(container: object, key: string | number, literal: string): boolean {
  if (/^-?\d+$/.test(literal) && BigInt(literal) >= int64Min && BigInt(literal) <= int64Max) return false;
  recordFloat(container, key, Number(literal));
  return true;
}

function recordFloat(container: object, key: string | number, number: number): void {
  let byKey = floatsByContainer.get(container);
  if (!byKey) floatsByContainer.set(container, (byKey = new Map()));
  byKey.set(tableKey(container, key), number);
}

// isGoFloat tells whether container[key] is a number written as a float, as Go decoded it.
export function isGoFloat(container: object, key: string | number): boolean {
  const number = floatsByContainer.get(container)?.get(tableKey(container, key));
  return number !== undefined && (container as Record<string | number, unknown>)[key] === number;
}

// markExactRoot says that root may hold exact integers, for stringifyJson and cloneJson.
export function markExactRoot(root: unknown): void {
  if (root !== null && typeof root === 'object') roots.add(root);
}

// holdsExactIntegers tells whether root was parsed, cloned or marked with exact integers.
export function holdsExactIntegers(root: unknown): boolean {
  return root !== null && typeof root === 'object' && roots.has(root);
}

// exactInteger is the int64 container[key] stands for, when its literal was kept and the
// container still holds that literal's number.
export function exactInteger(container: object, key: string | number): bigint | undefined {
  const literal = literalsByContainer.get(container)?.get(tableKey(container, key));
  if (literal === undefined) return undefined;
  return (container as Record<string | number, unknown>)[key] === Number(literal) ? BigInt(literal) : undefined;
}

// hasLongInteger tells whether the text, outside its strings, has a run of 16 digits or more:
// the only numbers that may be inexact int64 literals.
export function hasLongInteger(text: string): boolean {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
      digits = 0;
    } else if (c >= 0x30 && c <= 0x39) {
      if (++digits >= 16) return true;
    } else digits = 0;
  }
  return false;
}

// spelled out: V8 runs /\d{16}/ several times slower
const sixteenDigits = new RegExp('\\d'.repeat(16));

// parseJsonExact is JSON.parse that keeps the literals of inexact int64s (text without 16-digit
// runs is JSON.parse's alone). Its errors are JSON.parse's.
export function parseJsonExact(text: string): unknown {
  // every stored object is read here: a regular expression rules most texts out cheaply
  if (!sixteenDigits.test(text) || !hasLongInteger(text)) return JSON.parse(text);
  const nonce = randomUUID();
  const marked = markIntegers(text, nonce);
  if (marked === text) return JSON.parse(text);
  const prefix = `\u0000${nonce}:`;
  const value: unknown = JSON.parse(marked, function (this: object, key: string, v: unknown) {
    if (typeof v !== 'string' || !v.startsWith(prefix)) return v;
    const literal = v.slice(prefix.length);
    keepIntegerLiteral(this, key, literal);
    return Number(literal);
  });
  markExactRoot(value);
  return value;
}

// markIntegers writes each inexact int64 literal outside strings as a string naming it.
function markIntegers(text: string, nonce: string): string {
  let out = '';
  let copied = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
      continue;
    }
    if (c !== 0x2d && (c < 0x30 || c > 0x39)) continue;
    const match = /^-?\d+(\.\d+)?([eE][-+]?\d+)?/.exec(text.slice(i, i + 64));
    const literal = match?.[0] ?? text[i];
    if (match && match[1] === undefined && match[2] === undefined && isInexactInt64(literal)) {
      out += `${text.slice(copied, i)}"\\u0000${nonce}:${literal}"`;
      copied = i + literal.length;
    }
    i += literal.length - 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

// stringifyJson is JSON.stringify that writes the kept literals of root's integers. root is the
// object the value was made from, when the value is a copy of it (`{...object, metadata}`).
// A list's items are roots of their own. indent pretty-prints as JSON.stringify's third argument.
export function stringifyJson(value: unknown, root: unknown = value, indent?: number): string {
  if (!holdsExactIntegers(root) && !holdsExactIntegers(value) && !hasExactItems(value)) return JSON.stringify(value, null, indent);
  const nonce = randomUUID();
  let marked = false;
  const text = JSON.stringify(value, function (this: object, key: string, v: unknown) {
    if (typeof v !== 'number') return v;
    const k = Array.isArray(this) ? Number(key) : key;
    // the members of a copy of root are root's own
    const copied = this === value && root !== value && root !== null && typeof root === 'object' && (root as Record<string, unknown>)[key] === v;
    const exact = exactInteger(this, k) ?? (copied ? exactInteger(root as object, k) : undefined);
    if (exact === undefined) return v;
    marked = true;
    return `\u0000${nonce}:${exact}`;
  }, indent);
  // JSON.stringify writes the marks' NULs as \u0000
  return marked ? text.replace(new RegExp(`"\\\\u0000${nonce}:(-?\\d+)"`, 'g'), '$1') : text;
}

function hasExactItems(value: unknown): boolean {
  const items = (value as { items?: unknown } | null)?.items;
  return Array.isArray(items) && items.some(holdsExactIntegers);
}

// withBigInts is value with its kept int64s as bigints, for writers that print bigints as their
// digits (YAML) and comparisons; a list's items are roots of their own, and root is the object
// value copies, as for stringifyJson.
export function withBigInts(value: unknown, root: unknown = value): unknown {
  if (!holdsExactIntegers(root) && !holdsExactIntegers(value) && !hasExactItems(value)) return value;
  const exact = (container: object, key: string | number, item: number): bigint | number => {
    const copied = container === value && root !== value && root !== null && typeof root === 'object' && (root as Record<string, unknown>)[key] === item;
    return exactInteger(container, key) ?? (copied ? exactInteger(root as object, key) : undefined) ?? item;
  };
  const convert = (container: unknown): unknown => {
    if (container === null || typeof container !== 'object') return container;
    if (Array.isArray(container)) return container.map((item, i) => (typeof item === 'number' ? exact(container, i, item) : convert(item)));
    return Object.fromEntries(Object.entries(container).map(([key, item]) => [key, typeof item === 'number' ? exact(container, key, item) : convert(item)]));
  };
  return convert(value);
}

// cloneJson is a deep copy of a JSON value that keeps the literals of root's integers in the
// copy. Plain objects and arrays are copied member by member (a tenth of structuredClone's cost
// on an API object), anything else (a Date, bytes) by structuredClone.
export function cloneJson<T>(value: T): T {
  const copy = copyJson(value) as T;
  if (!holdsExactIntegers(value)) return copy;
  copyLiterals(value as object, copy as object);
  markExactRoot(copy);
  return copy;
}

function copyJson(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const copy = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = copyJson(value[i]);
    return copy;
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return structuredClone(value);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const member = copyJson((value as Record<string, unknown>)[key]);
    // A "__proto__" member (JSON.parse makes it an own property) stays one, not the prototype.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: member, enumerable: true, writable: true, configurable: true });
    else copy[key] = member;
  }
  return copy;
}

// copyLiterals copies the kept literals of from's containers onto to's, which mirror them.
function copyLiterals(from: object, to: object): void {
  const stack: [object, object][] = [[from, to]];
  while (stack.length > 0) {
    const [source, target] = stack.pop() as [object, object];
    const byKey = literalsByContainer.get(source);
    if (byKey) literalsByContainer.set(target, new Map(byKey));
    const floats = floatsByContainer.get(source);
    if (floats) floatsByContainer.set(target, new Map(floats));
    for (const [key, child] of Object.entries(source)) {
      const mirrored = (target as Record<string, unknown>)[key];
      if (child !== null && typeof child === 'object' && mirrored !== null && typeof mirrored === 'object') stack.push([child, mirrored]);
    }
  }
}

// carryExactIntegers keeps, in target (an object made anew from sources, as a merge makes it),
// the literals the sources hold for the same number at the same path.
export function carryExactIntegers(target: unknown, ...sources: unknown[]): void {
  const holders = sources.filter(holdsExactIntegers) as object[];
  if (holders.length === 0 || target === null || typeof target !== 'object') return;
  let carried = false;
  const stack: [object, (object | undefined)[]][] = [[target, holders]];
  while (stack.length > 0) {
    const [container, mirrors] = stack.pop() as [object, (object | undefined)[]];
    for (const [key, value] of Object.entries(container)) {
      const k = Array.isArray(container) ? Number(key) : key;
      const children = mirrors.map((m) => (m === undefined ? undefined : ((m as Record<string, unknown>)[key] as unknown)));
      if (typeof value === 'number') {
        for (const [i, mirror] of mirrors.entries()) {
          if (mirror === undefined || children[i] !== value) continue;
          const exact = exactInteger(mirror, k);
          if (exact !== undefined && keepIntegerLiteral(container, k, String(exact))) {
            carried = true;
            break;
          }
          if (isGoFloat(mirror, k)) {
            recordFloat(container, k, value);
            carried = true;
            break;
          }
        }
      } else if (value !== null && typeof value === 'object') {
        stack.push([value, children.map((c) => (c !== null && typeof c === 'object' ? c : undefined))]);
      }
    }
  }
  if (carried) markExactRoot(target);
}
