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

// deepCopy is DeepCopy for the JSON objects the API serves.
export function deepCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
