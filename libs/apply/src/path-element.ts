// PathElement is fieldpath.PathElement of structured-merge-diff: one step from an object to a
// child. A field of a map or struct (`f:name`), an associative-list item by its key fields
// (`k:{"name":"c"}`), a set item by its value (`v:"x"`) or an atomic-list item by index (`i:0`).
import { compareStrings, goQuote } from '@plinth/machinery';
import { goJSON, isObject } from './json';

export interface KeyField {
  readonly name: string;
  readonly value: unknown;
}

export type PathElement =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'key'; readonly fields: readonly KeyField[] }
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'index'; readonly index: number };

export type Path = readonly PathElement[];

export const fieldElement = (name: string): PathElement => ({ kind: 'field', name });
export const valueElement = (value: unknown): PathElement => ({ kind: 'value', value });
export const indexElement = (index: number): PathElement => ({ kind: 'index', index });

// keyElement sorts the key fields by name, as value.FieldList.Sort does.
export function keyElement(fields: readonly KeyField[]): PathElement {
  return { kind: 'key', fields: [...fields].sort((a, b) => compareStrings(a.name, b.name)) };
}

export class UnknownPathElementTypeError extends Error {
  constructor() {
    super('unknown path element type');
  }
}

// serializePathElement is fieldpath.SerializePathElement: the key of a FieldsV1 object.
export function serializePathElement(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `f:${pe.name}`;
    case 'key':
      return `k:{${pe.fields.map((f) => `${JSON.stringify(f.name)}:${goJSON(f.value)}`).join(',')}}`;
    case 'value':
      return `v:${goJSON(pe.value)}`;
    case 'index':
      return `i:${pe.index}`;
  }
}

// deserializePathElement is fieldpath.DeserializePathElement; unknown prefixes throw
// UnknownPathElementTypeError, which FieldsV1 decoding skips.
export function deserializePathElement(s: string): PathElement {
  if (s.length < 2) throw new Error('key must be 2 characters long:');
  if (s[1] !== ':') throw new Error(`missing colon: ${s}`);
  const rest = s.slice(2);
  switch (s[0]) {
    case 'f':
      return fieldElement(rest);
    case 'v':
      return valueElement(JSON.parse(rest));
    case 'k': {
      const parsed: unknown = JSON.parse(rest);
      if (!isObject(parsed)) throw new Error(`key is not an object: ${s}`);
      return keyElement(Object.keys(parsed).map((name) => ({ name, value: parsed[name] })));
    }
    case 'i': {
      if (!/^[+-]?\d+$/.test(rest)) throw new Error(`strconv.Atoi: parsing ${goQuote(rest)}: invalid syntax`);
      return indexElement(Number(rest));
    }
    default:
      throw new UnknownPathElementTypeError();
  }
}

// compareValues is value.Compare: numbers < strings < booleans < lists < maps < null.
export function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return (a as number) === (b as number) ? 0 : (a as number) < (b as number) ? -1 : 1;
    case 1:
      return compareStrings(a as string, b as string);
    case 2:
      return a === b ? 0 : a ? 1 : -1;
    case 3: {
      const la = a as unknown[];
      const lb = b as unknown[];
      for (let i = 0; i < Math.min(la.length, lb.length); i++) {
        const c = compareValues(la[i], lb[i]);
        if (c !== 0) return c;
      }
      return la.length === lb.length ? 0 : la.length < lb.length ? -1 : 1;
    }
    case 4: {
      const ma = a as Record<string, unknown>;
      const mb = b as Record<string, unknown>;
      const ka = Object.keys(ma).sort(compareStrings);
      const kb = Object.keys(mb).sort(compareStrings);
      for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
        const c = compareStrings(ka[i], kb[i]) || compareValues(ma[ka[i]], mb[kb[i]]);
        if (c !== 0) return c;
      }
      return ka.length === kb.length ? 0 : ka.length < kb.length ? -1 : 1;
    }
    default:
      return 0;
  }
}

function rank(v: unknown): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (isObject(v)) return 4;
  return 5;
}

function compareKeys(a: readonly KeyField[], b: readonly KeyField[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareStrings(a[i].name, b[i].name) || compareValues(a[i].value, b[i].value);
    if (c !== 0) return c;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

const kindOrder = { field: 0, key: 1, value: 2, index: 3 } as const;

// comparePathElements is PathElement.Compare: fields, then keys, values and indexes.
export function comparePathElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return kindOrder[a.kind] < kindOrder[b.kind] ? -1 : 1;
  switch (a.kind) {
    case 'field':
      return compareStrings(a.name, (b as typeof a).name);
    case 'key':
      return compareKeys(a.fields, (b as typeof a).fields);
    case 'value':
      return compareValues(a.value, (b as typeof a).value);
    case 'index':
      return a.index === (b as typeof a).index ? 0 : a.index < (b as typeof a).index ? -1 : 1;
  }
}

// formatValue is value.ToString: strings quoted, numbers and booleans plain.
function formatValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return formatGoNumber(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(formatValue).join(',')}]`;
  if (isObject(v)) return Object.keys(v).map((k) => `${k}=${formatValue(v[k])}`).join('');
  return String(v);
}

function formatGoNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  const [mantissa, expText] = n.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 21) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(n);
}

// pathElementString is PathElement.String: `.name`, `[name="c",port=80]`, `[="x"]`, `[0]`.
export function pathElementString(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `.${pe.name}`;
    case 'key':
      return `[${pe.fields.map((f) => `${f.name}=${formatValue(f.value)}`).join(',')}]`;
    case 'value':
      return `[=${formatValue(pe.value)}]`;
    case 'index':
      return `[${pe.index}]`;
  }
}

// pathString is fieldpath.Path.String, the form conflicts name fields in: `.spec.parallelism`.
export function pathString(path: Path): string {
  return path.map(pathElementString).join('');
}
