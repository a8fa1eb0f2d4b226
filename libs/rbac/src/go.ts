// Go behaviours the RBAC messages and orderings depend on: %q of a []string, sets.String's
// sorted listing, and equality.Semantic.DeepEqual, where a nil and an empty list are equal.
import { compareStrings, goQuote } from '@plinth/machinery';

// quoteList is fmt's %q of a []string: ["a" "b"], or [] for none.
export function quoteList(values: readonly string[] | null | undefined): string {
  return `[${(values ?? []).map(goQuote).join(' ')}]`;
}

// compareGoStrings orders as Go's < on strings (machinery's compareStrings).
export const compareGoStrings = compareStrings;

// sortedSet is sets.NewString(values...).List(): distinct values in Go order.
export function sortedSet(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareGoStrings);
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value as object).length === 0;
  return false;
}

// semanticEqual is equality.Semantic.DeepEqual over JSON values: absent, null, empty list and
// empty map count as the same, as nil and empty slices and maps do in Go.
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => semanticEqual(v, b[i]));
  }
  if (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null) {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
    for (const k of keys) if (!semanticEqual(ra[k], rb[k])) return false;
    return true;
  }
  return false;
}

// deepCopy is DeepCopy for the JSON objects the API serves.
export function deepCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
