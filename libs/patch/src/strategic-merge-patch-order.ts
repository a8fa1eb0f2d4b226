// The list helpers of strategic merge patch (k8s.io/apimachinery/pkg/util/strategicpatch,
// v1.28): element types, merge keys, and the order of a merged list, which Kubernetes derives
// from $setElementOrder, then the patch, then the live list.
import { internalFailure, PatchError, unprocessable } from './errors';
import { goSprint, goTypeName } from './go-format';
import { hasOwn, isObject, JsonObject } from './json';

export const directiveMarker = '$patch';
export const deleteDirective = 'delete';

// ElementKind is the reflect.Kind of a list's elements that strategic merge patch switches on.
export type ElementKind = 'map' | 'scalar';

// errNoMergeKey is mergepatch.ErrNoMergeKey, a plain error (500).
export function errNoMergeKey(m: JsonObject, key: string): PatchError {
  return internalFailure(`map: ${goSprint(m)} does not contain declared merge key: ${key}`);
}

// errBadArgType is mergepatch.ErrBadArgType, a plain error (500).
export function errBadArgType(expected: string, actual: unknown): PatchError {
  return internalFailure(`expected a ${expected}, but received a ${goTypeName(actual)}`);
}

export const mapType = 'map[string]interface {}';
export const sliceType = '[]interface {}';

// typeClass stands for the Go type json.Unmarshal gives a value; an int64 and a float64 count as
// one type here, since decoded JavaScript numbers do not keep that difference.
function typeClass(value: unknown): string {
  return typeof value === 'number' ? 'number' : goTypeName(value);
}

// sliceElementType is the common element type of the lists: lists of lists are ErrNoListOfLists
// (answered 422), mixed or absent elements plain errors.
export function sliceElementType(...slices: unknown[][]): ElementKind {
  let first: unknown;
  let found = false;
  for (const slice of slices) {
    for (const v of slice) {
      if (!found) {
        found = true;
        first = v;
        if (Array.isArray(v)) throw unprocessable('lists of lists are not supported');
      } else if (typeClass(v) !== typeClass(first)) {
        throw internalFailure(`list element types are not identical: ${goSprint(slices)}`);
      }
    }
  }
  if (!found) throw internalFailure('no elements in any of the given slices');
  return isObject(first) ? 'map' : 'scalar';
}

// scalarEqual is Go's == on two interface values holding JSON scalars.
export function scalarEqual(a: unknown, b: unknown): boolean {
  return a === b || (a == null && b == null);
}

// mergeKeyValue is item[mergeKey] as Go reads it: absent and null are both nil.
function mergeKeyValue(item: unknown, mergeKey: string): unknown {
  return isObject(item) && hasOwn(item, mergeKey) ? item[mergeKey] : null;
}

// findByMergeKey is findMapInSliceBasedOnKeyValue: the index of the first map whose merge key
// has the value, or -1.
export function findByMergeKey(list: unknown[], mergeKey: string, value: unknown): number {
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (!isObject(item)) throw internalFailure(`value for key ${i} is not a map.`);
    if (hasOwn(item, mergeKey) && scalarEqual(item[mergeKey], value)) return i;
  }
  return -1;
}

// indexIn is strategicpatch's index(): where an item sits in a list, by merge key for maps.
function indexIn(list: unknown[] | null, item: unknown, mergeKey: string, kind: ElementKind): number {
  if (!list) return -1;
  const value = kind === 'map' ? mergeKeyValue(item, mergeKey) : item;
  return list.findIndex((v) => scalarEqual(kind === 'map' ? mergeKeyValue(v, mergeKey) : v, value));
}

// extractToDeleteItems splits a patch list of maps into the items kept and the `$patch: delete`
// items.
export function extractToDeleteItems(list: unknown[]): { keep: JsonObject[]; toDelete: JsonObject[] } {
  const keep: JsonObject[] = [];
  const toDelete: JsonObject[] = [];
  for (const v of list) {
    if (!isObject(v)) throw errBadArgType(mapType, v);
    if (hasOwn(v, directiveMarker) && v[directiveMarker] === deleteDirective) toDelete.push(v);
    else keep.push(v);
  }
  return { keep, toDelete };
}

// partitionByPresence splits items into those present in partitionBy (by merge key for maps)
// and the rest, keeping their order.
export function partitionByPresence(items: unknown[], partitionBy: unknown[] | null, mergeKey: string): { patch: unknown[]; serverOnly: unknown[] } {
  const patch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const v of items) {
    let present: boolean;
    if (mergeKey === '') {
      present = (partitionBy ?? []).some((p) => scalarEqual(p, v));
    } else {
      if (!isObject(v)) throw errBadArgType(mapType, v);
      if (!hasOwn(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
      present = findByMergeKey(partitionBy ?? [], mergeKey, v[mergeKey]) >= 0;
    }
    (present ? patch : serverOnly).push(v);
  }
  return { patch, serverOnly };
}

function validateMergeKeyInLists(mergeKey: string, ...lists: (unknown[] | null)[]): void {
  for (const list of lists) {
    for (const item of list ?? []) {
      if (!isObject(item)) throw errBadArgType(mapType, item);
      if (!hasOwn(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
    }
  }
}

// normalizeSliceOrder sorts items by their place in order (stable); `$patch: delete` items go
// last. Items missing from order keep their relative order, after the others.
function normalizeSliceOrder(items: unknown[], order: unknown[] | null, mergeKey: string, kind: ElementKind): unknown[] {
  let toSort = items;
  let toDelete: unknown[] = [];
  if (kind === 'map') {
    validateMergeKeyInLists(mergeKey, items, order);
    ({ keep: toSort, toDelete } = extractToDeleteItems(items));
  }
  const ranked = toSort.map((item, i) => {
    const at = indexIn(order, item, mergeKey, kind);
    return { item, rank: at < 0 ? Number.MAX_SAFE_INTEGER : at, i };
  });
  ranked.sort((a, b) => a.rank - b.rank || a.i - b.i);
  return [...ranked.map((r) => r.item), ...toDelete];
}

// mergeSortedSlice interleaves the server-only items (left) into the patch items (right), both
// already sorted: a server-only item goes first only when the live list places it before the
// next patch item. So new items the live list does not know come before the items after them.
function mergeSortedSlice(left: unknown[], right: unknown[], serverOrder: unknown[] | null, mergeKey: string, kind: ElementKind): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = indexIn(serverOrder, left[i], mergeKey, kind);
      const ri = indexIn(serverOrder, right[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

// normalizeElementOrder orders a merged list: patch items by patchOrder, server-only items by
// serverOrder, then interleaved.
export function normalizeElementOrder(
  patch: unknown[],
  serverOnly: unknown[],
  patchOrder: unknown[] | null,
  serverOrder: unknown[] | null,
  mergeKey: string,
  kind: ElementKind,
): unknown[] {
  const sortedPatch = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const sortedServerOnly = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(sortedServerOnly, sortedPatch, serverOrder, mergeKey, kind);
}
