// Plain-JSON helpers for the field-set and merge walkers. Objects are decoded JSON; `undefined`
// stands for an absent field (Go's nil Value) and `null` for an explicit JSON null.

import { compareStrings } from '@plinth/machinery';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function hasOwn(obj: JsonObject, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

// setOwn defines an own enumerable key, so that "__proto__" stays an ordinary member. Any other
// key is assigned: the same own property on a plain object, without the defineProperty call
// that costs more and turns the object into a slow dictionary.
export function setOwn(obj: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}

export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  if (isObject(value)) {
    const out: JsonObject = {};
    for (const key of Object.keys(value)) setOwn(out, key, cloneJson(value[key]));
    return out as T;
  }
  return value;
}

// jsonEqual is value.Equals: numbers by value, objects by members, arrays in order.
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

const htmlEscapes: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

// goJSON encodes a value as Go's encoding/json does for an interface{}: map keys sorted, and
// <, >, & and the line separators escaped inside strings.
export function goJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(goJSON).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort(compareStrings);
    return `{${keys.map((k) => `${goJSONString(k)}:${goJSON(value[k])}`).join(',')}}`;
  }
  if (typeof value === 'string') return goJSONString(value);
  if (value === undefined) return 'null';
  return JSON.stringify(value) ?? 'null';
}

function goJSONString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => htmlEscapes[c]);
}
