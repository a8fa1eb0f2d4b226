// Plain-JSON helpers shared by the three patch formats. Documents are decoded JSON (objects,
// arrays, strings, numbers, booleans, null); every patch works on its own deep copy, so neither
// the stored object nor the request body is ever changed.

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// hasOwn, getOwn, setOwn and deleteOwn touch own keys only, so a key such as "__proto__" in a
// patch is an ordinary member and never reaches the prototype chain.
export function hasOwn(obj: JsonObject, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

export function getOwn(obj: JsonObject, key: string): unknown {
  return hasOwn(obj, key) ? obj[key] : undefined;
}

// setOwn defines an own enumerable key, so that "__proto__" stays an ordinary member; any other
// key is assigned (the same property, at a fraction of defineProperty's cost).
export function setOwn(obj: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}

export function deleteOwn(obj: JsonObject, key: string): void {
  if (hasOwn(obj, key)) delete obj[key];
}

// cloneJson deep-copies a decoded JSON value; undefined (an absent value) becomes null.
export function cloneJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneJson);
  if (isObject(value)) {
    const out: JsonObject = {};
    for (const key of Object.keys(value)) setOwn(out, key, cloneJson(value[key]));
    return out;
  }
  return value === undefined ? null : value;
}

// jsonEqual is structural equality of decoded JSON: numbers by value, objects by their members.
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  }
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

// jsonKind names a value the way Go's encoding/json does in an UnmarshalTypeError.
export function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'bool';
    default:
      return 'object';
  }
}

const encoder = new TextEncoder();

// jsonSize is the length in bytes of a value's compact JSON encoding.
export function jsonSize(value: unknown): number {
  return encoder.encode(JSON.stringify(value) ?? 'null').length;
}
