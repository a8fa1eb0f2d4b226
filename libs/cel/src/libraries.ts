// The Kubernetes CEL libraries of Document 2 (apiserver/pkg/cel/library): lists (indexOf,
// lastIndexOf, min, max, sum, isSorted), regex (find, findAll, matched by RE2) and URLs (isURL,
// url and its accessors).
import { celFunc, CelFunc, celList, CelList, celMethod, CelScalar, CelValue, isCelList, listType } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { durationFromMs } from '@bufbuild/protobuf/wkt';
import { compileRegex } from './regex';

const dynList = listType(CelScalar.DYN);

interface TimeMessage {
  $typeName: string;
  seconds: bigint;
  nanos: number;
}

// timeMessage unwraps a duration or timestamp value (a protobuf message, possibly reflected).
function timeMessage(v: unknown, typeName: string): TimeMessage | null {
  if (typeof v !== 'object' || v === null) return null;
  const message = ((v as { message?: unknown }).message ?? v) as { $typeName?: string };
  return message.$typeName === typeName ? (message as TimeMessage) : null;
}

// comparable maps durations and timestamps to milliseconds, so they order like numbers.
function comparable(v: CelValue): CelValue | number {
  const time = timeMessage(v, 'google.protobuf.Duration') ?? timeMessage(v, 'google.protobuf.Timestamp');
  return time ? Number(time.seconds) * 1000 + time.nanos / 1e6 : v;
}

function compare(x: CelValue, y: CelValue): number {
  const a = comparable(x);
  const b = comparable(y);
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    return Number(a) < Number(b) ? -1 : Number(a) > Number(b) ? 1 : 0;
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  throw new Error(`no such overload: comparison of ${typeof a} and ${typeof b}`);
}

function equal(a: CelValue, b: CelValue): boolean {
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) return Number(a) === Number(b);
  return a === b;
}

function items(list: CelList): CelValue[] {
  return [...list];
}

function extreme(name: string, list: CelList, pick: (c: number) => boolean): CelValue {
  const values = items(list);
  if (values.length === 0) throw new Error(`${name} called on empty list`);
  return values.reduce((best, v) => (pick(compare(v, best)) ? v : best));
}

function sum(list: CelList): CelValue {
  const values = items(list);
  if (values.length === 0) return 0n;
  if (values.every((v) => typeof v === 'bigint')) return (values as bigint[]).reduce((a, b) => a + b, 0n);
  if (values.every((v) => timeMessage(v, 'google.protobuf.Duration'))) return durationFromMs(values.reduce<number>((a, v) => a + (comparable(v) as number), 0)) as never;
  return values.reduce<number>((a, v) => a + Number(v), 0);
}

const listLibrary: CelFunc[] = [
  celMethod('indexOf', dynList, [CelScalar.DYN], CelScalar.INT, function (value) {
    return BigInt(items(this).findIndex((v) => equal(v, value)));
  }),
  celMethod('lastIndexOf', dynList, [CelScalar.DYN], CelScalar.INT, function (value) {
    const values = items(this);
    for (let i = values.length - 1; i >= 0; i--) if (equal(values[i], value)) return BigInt(i);
    return -1n;
  }),
  celMethod('min', dynList, [], CelScalar.DYN, function () {
    return extreme('min', this, (c) => c < 0) as never;
  }),
  celMethod('max', dynList, [], CelScalar.DYN, function () {
    return extreme('max', this, (c) => c > 0) as never;
  }),
  celMethod('sum', dynList, [], CelScalar.DYN, function () {
    return sum(this) as never;
  }),
  celMethod('isSorted', dynList, [], CelScalar.BOOL, function () {
    const values = items(this);
    return values.every((v, i) => i === 0 || compare(values[i - 1], v) <= 0);
  }),
];

const regexLibrary: CelFunc[] = [
  celMethod('find', CelScalar.STRING, [CelScalar.STRING], CelScalar.STRING, function (pattern) {
    return compileRegex(pattern).findAll(this, 1)[0] ?? '';
  }),
  celMethod('findAll', CelScalar.STRING, [CelScalar.STRING], dynList, function (pattern) {
    return celList(compileRegex(pattern).findAll(this, -1));
  }),
  celMethod('findAll', CelScalar.STRING, [CelScalar.STRING, CelScalar.INT], dynList, function (pattern, limit) {
    return celList(compileRegex(pattern).findAll(this, Number(limit)));
  }),
];

// parseUrl follows Go's url.ParseRequestURI: an absolute URL or an absolute path.
function parseUrl(value: string): URL | null {
  if (value.startsWith('/')) {
    try {
      return new URL(value, 'relative:///');
    } catch {
      return null;
    }
  }
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(value)) return null;
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

function mustParseUrl(value: string): URL {
  const url = parseUrl(value);
  if (!url) throw new Error(`URL parse error during conversion from string: parse "${value}": invalid URI for request`);
  return url;
}

// URL values are carried as their validated string, so the accessors are string methods.
const urlLibrary: CelFunc[] = [
  celFunc('isURL', [CelScalar.STRING], CelScalar.BOOL, (value) => parseUrl(value) !== null),
  celFunc('url', [CelScalar.STRING], CelScalar.STRING, (value) => (mustParseUrl(value), value)),
  celMethod('getScheme', CelScalar.STRING, [], CelScalar.STRING, function () {
    const url = mustParseUrl(this);
    return url.protocol === 'relative:' ? '' : url.protocol.slice(0, -1);
  }),
  celMethod('getHost', CelScalar.STRING, [], CelScalar.STRING, function () {
    return mustParseUrl(this).host;
  }),
  celMethod('getHostname', CelScalar.STRING, [], CelScalar.STRING, function () {
    const host = mustParseUrl(this).hostname;
    return host.startsWith('[') ? host.slice(1, -1) : host;
  }),
  celMethod('getPort', CelScalar.STRING, [], CelScalar.STRING, function () {
    return mustParseUrl(this).port;
  }),
  celMethod('getEscapedPath', CelScalar.STRING, [], CelScalar.STRING, function () {
    return mustParseUrl(this).pathname;
  }),
  celMethod('getQuery', CelScalar.STRING, [], CelScalar.DYN, function () {
    const query = new Map<string, CelValue>();
    for (const [key, value] of mustParseUrl(this).searchParams) {
      const existing = query.get(key);
      query.set(key, celList(existing && isCelList(existing) ? [...existing, value] : [value]));
    }
    return query as never;
  }),
];

// kubernetesLibraries are every function a validation rule may call beyond the standard ones.
export const kubernetesLibraries: CelFunc[] = [...strings, ...listLibrary, ...regexLibrary, ...urlLibrary];
