// The Kubernetes CEL libraries of Document 2 (apiserver/pkg/cel/library): lists (indexOf,
// lastIndexOf, min, max, sum, isSorted), regex (find, findAll, matched by RE2) and URLs (isURL,
// url and its accessors).
import { celFunc, CelFunc, celList, CelList, celMethod, CelScalar, mapType, CelUint, celUint, CelValue, isCelList, isCelUint, listType } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { durationFromMs } from '@bufbuild/protobuf/wkt';
import { kubernetesEquals } from './lists';
import { parseDateTime, timestampOffsets } from './values';
import { compileRegex } from './regex';
import { escapedPath, ParsedUrl, parseRequestUri, splitHost } from './urls';

const dynList = listType(CelScalar.DYN);

interface TimeMessage {
  $typeName: string;
  seconds: bigint;
  nanos: number;
}

// timeMessage unwraps a duration or timestamp value (a protobuf message, possibly reflected).
export function timeMessage(v: unknown, typeName: string): TimeMessage | null {
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
  if (values.every(isCelUint)) return celUint(values.reduce((a, v) => a + (v as CelUint).value, 0n));
  if (values.every((v) => timeMessage(v, 'google.protobuf.Duration'))) return durationFromMs(values.reduce<number>((a, v) => a + (comparable(v) as number), 0)) as never;
  return values.reduce<number>((a, v) => a + Number(v), 0);
}

const listLibrary: CelFunc[] = [
  celMethod('indexOf', dynList, [CelScalar.DYN], CelScalar.INT, function (value) {
    return BigInt(items(this).findIndex((v) => kubernetesEquals(v, value)));
  }),
  celMethod('lastIndexOf', dynList, [CelScalar.DYN], CelScalar.INT, function (value) {
    const values = items(this);
    for (let i = values.length - 1; i >= 0; i--) if (kubernetesEquals(values[i], value)) return BigInt(i);
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

// typedRuntime are the functions whose result depends on the static type the checker resolved:
// an empty list sums to the zero of its element type, a duration's milliseconds are its total.
// The program calls them under these names in place of the overloads named in typedOverloads.
export const typedOverloads: Readonly<Record<string, string>> = {
  list_uint_sum_uint: '@sum_uint',
  list_double_sum_double: '@sum_double',
  list_duration_sum_duration: '@sum_duration',
  duration_to_milliseconds: '@duration_milliseconds',
  timestamp_to_string: '@timestamp_to_string',
  string_to_timestamp: '@string_to_timestamp',
  in_map: '@in_map',
};

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

// formatTimestamp is Go's time.RFC3339Nano: the offset the time was written with (Z for UTC),
// the fraction without trailing zeros.
function formatTimestamp(seconds: bigint, nanos: number, offsetMinutes: number): string {
  const local = new Date(Number(seconds) * 1000 + offsetMinutes * 60_000);
  const date = `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
  const time = `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
  const fraction = nanos > 0 ? `.${pad(nanos, 9).replace(/0+$/, '')}` : '';
  const abs = Math.abs(offsetMinutes);
  const zone = offsetMinutes === 0 ? 'Z' : `${offsetMinutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  return `${date}T${time}${fraction}${zone}`;
}

const typedRuntime: CelFunc[] = [
  celMethod('@sum_uint', dynList, [], CelScalar.DYN, function () {
    return (items(this).length === 0 ? celUint(0n) : sum(this)) as never;
  }),
  celMethod('@sum_double', dynList, [], CelScalar.DYN, function () {
    return (items(this).length === 0 ? 0 : sum(this)) as never;
  }),
  celMethod('@sum_duration', dynList, [], CelScalar.DYN, function () {
    return (items(this).length === 0 ? durationFromMs(0) : sum(this)) as never;
  }),
  // A key whose value is null is in the map (the evaluator's own `in` takes it for absent).
  celFunc('@in_map', [CelScalar.DYN, mapType(CelScalar.DYN, CelScalar.DYN)], CelScalar.BOOL, (key, map) => map.get(key as never) !== undefined),
  // timestamp(string) keeps the offset it was written with, as Go's time.Parse does.
  celFunc('@string_to_timestamp', [CelScalar.STRING], CelScalar.DYN, (text) => {
    const timestamp = parseDateTime(text);
    if (typeof timestamp === 'string') throw new Error(`parsing time ${JSON.stringify(text)} as "2006-01-02T15:04:05Z07:00": cannot parse`);
    return timestamp as never;
  }),
  celFunc('@timestamp_to_string', [CelScalar.DYN], CelScalar.STRING, (value) => {
    const timestamp = timeMessage(value, 'google.protobuf.Timestamp');
    if (!timestamp) throw new Error('no such overload');
    return formatTimestamp(timestamp.seconds, timestamp.nanos, timestampOffsets.get(timestamp) ?? 0);
  }),
  celMethod('@duration_milliseconds', CelScalar.DYN, [], CelScalar.INT, function () {
    const duration = timeMessage(this, 'google.protobuf.Duration');
    if (!duration) throw new Error('no such overload');
    return duration.seconds * 1000n + BigInt(Math.trunc(duration.nanos / 1e6));
  }),
];

// split is ext.Strings' split: with a limit n, at most n parts, the last one the remainder
// (Go's strings.SplitN); n < 0 means all, 0 none.
function splitN(text: string, separator: string, limit: number): string[] {
  if (limit === 0) return [];
  const all = separator === '' ? [...text] : text.split(separator);
  if (limit < 0 || all.length <= limit) return all;
  if (separator === '') return [...all.slice(0, limit - 1), all.slice(limit - 1).join('')];
  return [...all.slice(0, limit - 1), all.slice(limit - 1).join(separator)];
}

const splitLibrary: CelFunc[] = [
  celMethod('split', CelScalar.STRING, [CelScalar.STRING], listType(CelScalar.STRING), function (separator) {
    return celList(splitN(this, separator, -1));
  }),
  celMethod('split', CelScalar.STRING, [CelScalar.STRING, CelScalar.INT], listType(CelScalar.STRING), function (separator, limit) {
    return celList(splitN(this, separator, Number(limit)));
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

// mustParseUrl checks a URL with ParseRequestURI and reads it as Kubernetes then does, with
// url.Parse: the fragment, which ParseRequestURI would keep in the path or query, cut off.
function mustParseUrl(value: string): ParsedUrl {
  const url = parseRequestUri(value);
  if (url instanceof Error) throw new Error(`URL parse error during conversion from string: ${url.message}`);
  const hash = value.indexOf('#');
  if (hash < 0) return url;
  const withoutFragment = parseRequestUri(value.slice(0, hash));
  return withoutFragment instanceof Error ? url : withoutFragment;
}

// URL values are carried as their validated string, so the accessors are string methods.
const urlLibrary: CelFunc[] = [
  celFunc('isURL', [CelScalar.STRING], CelScalar.BOOL, (value) => !(parseRequestUri(value) instanceof Error)),
  celFunc('url', [CelScalar.STRING], CelScalar.STRING, (value) => (mustParseUrl(value), value)),
  celMethod('getScheme', CelScalar.STRING, [], CelScalar.STRING, function () {
    return mustParseUrl(this).scheme;
  }),
  celMethod('getHost', CelScalar.STRING, [], CelScalar.STRING, function () {
    return mustParseUrl(this).host;
  }),
  celMethod('getHostname', CelScalar.STRING, [], CelScalar.STRING, function () {
    return splitHost(mustParseUrl(this).host).hostname;
  }),
  celMethod('getPort', CelScalar.STRING, [], CelScalar.STRING, function () {
    return splitHost(mustParseUrl(this).host).port;
  }),
  celMethod('getEscapedPath', CelScalar.STRING, [], CelScalar.STRING, function () {
    return escapedPath(mustParseUrl(this).rawPath);
  }),
  celMethod('getQuery', CelScalar.STRING, [], CelScalar.DYN, function () {
    const query = new Map<string, CelValue>();
    for (const [key, value] of new URLSearchParams(mustParseUrl(this).rawQuery)) {
      const existing = query.get(key);
      query.set(key, celList(existing && isCelList(existing) ? [...existing, value] : [value]));
    }
    return query as never;
  }),
];

// kubernetesLibraries are every function a validation rule may call beyond the standard ones.
export const kubernetesLibraries: CelFunc[] = [...strings.filter((f) => f.name !== 'split'), ...splitLibrary, ...listLibrary, ...typedRuntime, ...regexLibrary, ...urlLibrary];
