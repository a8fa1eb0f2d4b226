// The structured-merge-diff walkers over plain JSON: compare (TypedValue.Compare), merge
// (TypedValue.Merge, the applied configuration wins at every leaf) and removeItems
// (TypedValue.RemoveItems). `undefined` is an absent field, `null` an explicit null.
import { Schema } from '@plinth/api';
import { FieldSet } from './field-set';
import { cloneJson, hasOwn, isObject, JsonObject, jsonEqual, setOwn } from './json';
import { fieldElement, PathElement, serializePathElement } from './path-element';
import { childSchema, Kind, kindOf, listItemElement } from './schema-kind';

export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

// excludeFields is Comparison.ExcludeFields: drops the reset fields and everything below them.
export function excludeFields(c: Comparison, fields: FieldSet | undefined): Comparison {
  if (!fields || fields.isEmpty()) return c;
  return {
    added: c.added.recursiveDifference(fields),
    modified: c.modified.recursiveDifference(fields),
    removed: c.removed.recursiveDifference(fields),
  };
}

// compare walks lhs and rhs together. A leaf (scalar, atomic list or map, or a pair of empty
// containers) is added, removed or modified; a map, list or item that exists on one side only is
// added or removed itself as well, which is where the `.` entries of FieldsV1 come from.
export function compare(lhs: unknown, rhs: unknown, schema: Schema | undefined): Comparison {
  const c = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  compareNode(lhs, rhs, schema, [], {
    added: (path) => c.added.insert(path),
    modified: (path) => c.modified.insert(path),
    removed: (path) => c.removed.insert(path),
  });
  return c;
}

// changedFields is compare's added and modified fields in one set (their union: a path is in
// one of compare's sets at most), without those keep refuses: what a write that takes nothing
// from another manager comes to own, made without compare's three sets and their union.
export function changedFields(lhs: unknown, rhs: unknown, schema: Schema | undefined, keep: (path: readonly PathElement[]) => boolean): FieldSet {
  const set = new FieldSet();
  const add = (path: readonly PathElement[]): void => {
    if (keep(path)) set.insert(path);
  };
  compareNode(lhs, rhs, schema, [], { added: add, modified: add, removed: () => undefined });
  return set;
}

// ComparisonSink receives each path compare classifies (path is the walk's, changed after the
// call: FieldSet.insert keeps its elements, not the array).
interface ComparisonSink {
  added(path: readonly PathElement[]): void;
  modified(path: readonly PathElement[]): void;
  removed(path: readonly PathElement[]): void;
}

// compareNode walks one node; path is the node's path, extended and restored around each child.
function compareNode(lhs: unknown, rhs: unknown, schema: Schema | undefined, path: PathElement[], c: ComparisonSink): void {
  const kind = kindOf(schema, rhs !== undefined ? rhs : lhs);
  if (!descends(kind, lhs, rhs)) {
    if (lhs === undefined) c.added(path);
    else if (rhs === undefined) c.removed(path);
    else if (!jsonEqual(lhs, rhs)) c.modified(path);
    return;
  }
  if (kind.type === 'list') {
    const l = indexItems(kind as ListKind, lhs);
    const r = indexItems(kind as ListKind, rhs);
    for (const [key, { pe, item }] of l) compareChild(item, r.get(key)?.item, kind.items, path, pe, c);
    for (const [key, { pe, item }] of r) if (!l.has(key)) compareChild(undefined, item, kind.items, path, pe, c);
  } else {
    const l = isObject(lhs) ? lhs : {};
    const r = isObject(rhs) ? rhs : {};
    for (const name of Object.keys(l)) {
      compareChild(l[name], hasOwn(r, name) ? r[name] : undefined, childSchema(kind, name), path, fieldElement(name), c);
    }
    for (const name of Object.keys(r)) {
      if (!hasOwn(l, name)) compareChild(undefined, r[name], childSchema(kind, name), path, fieldElement(name), c);
    }
  }
  if (lhs === undefined) c.added(path);
  else if (rhs === undefined) c.removed(path);
}

function compareChild(lhs: unknown, rhs: unknown, schema: Schema | undefined, path: PathElement[], pe: PathElement, c: ComparisonSink): void {
  path.push(pe);
  compareNode(lhs, rhs, schema, path, c);
  path.pop();
}

type ListKind = Kind & { type: 'list' };
type MapKind = Kind & { type: 'map' };

// descends tells whether a node is walked into: granular maps and associative lists are, unless
// both sides are empty or null (then the node is a leaf, keeping the empty/null distinction) or
// a side has the wrong shape.
function descends(kind: Kind, lhs: unknown, rhs: unknown): boolean {
  if (kind.type === 'scalar' || kind.atomic) return false;
  const shaped = kind.type === 'list' ? Array.isArray : isObject;
  if (lhs !== undefined && lhs !== null && !shaped(lhs)) return false;
  if (rhs !== undefined && rhs !== null && !shaped(rhs)) return false;
  return !isEmptyContainer(lhs) || !isEmptyContainer(rhs);
}

// isEmptyContainer tells whether a value is no list or map with members (an empty one, a
// scalar, null or absent), without listing the members.
function isEmptyContainer(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (!isObject(value)) return true;
  for (const key in value) if (hasOwn(value, key)) return false;
  return true;
}

interface IndexedItem {
  readonly pe: PathElement;
  readonly item: unknown;
}

// indexItems keys the items of an associative list; unidentifiable and repeated items are skipped.
function indexItems(kind: ListKind, list: unknown): Map<string, IndexedItem> {
  const out = new Map<string, IndexedItem>();
  if (!Array.isArray(list)) return out;
  list.forEach((item, i) => {
    const pe = listItemElement(kind, i, item);
    if (pe instanceof Error) return;
    const key = serializePathElement(pe);
    if (!out.has(key)) out.set(key, { pe, item });
  });
  return out;
}

// merge is TypedValue.Merge with ruleKeepRHS: rhs wins at leaves, granular maps take the keys
// of both, associative lists merge their items by key. A null the rhs sets is kept (it changes
// the field, and may conflict); dropAppliedNulls removes it from the stored object.
export function merge(lhs: unknown, rhs: unknown, schema: Schema | undefined): unknown {
  const kind = kindOf(schema, rhs !== undefined ? rhs : lhs);
  if (!descends(kind, lhs, rhs)) return cloneJson(rhs !== undefined ? rhs : lhs);
  if (kind.type === 'list') return mergeList(kind as ListKind, lhs, rhs);
  const out: Record<string, unknown> = {};
  const l = isObject(lhs) ? lhs : {};
  const r = isObject(rhs) ? rhs : {};
  const put = (name: string, value: unknown): void => {
    if (value !== undefined) setOwn(out, name, value);
  };
  for (const name of Object.keys(l)) put(name, merge(l[name], hasOwn(r, name) ? r[name] : undefined, childSchema(kind as MapKind, name)));
  for (const name of Object.keys(r)) if (!hasOwn(l, name)) put(name, merge(undefined, r[name], childSchema(kind as MapKind, name)));
  return Object.keys(out).length > 0 ? out : undefined;
}

// mergeList orders the result as structured-merge-diff v4 does: lhs order, with items shared by
// both sides kept in rhs order and new rhs items placed after the rhs item they follow.
function mergeList(kind: ListKind, lhs: unknown, rhs: unknown): unknown[] | undefined {
  const l = indexItems(kind, lhs);
  const r = indexItems(kind, rhs);
  const lOrder = [...l.keys()];
  const rOrder = [...r.keys()];
  const shared = rOrder.filter((k) => l.has(k));
  let next = shared.shift();
  const out: unknown[] = [];
  const push = (key: string): void => {
    const value = merge(l.get(key)?.item, r.get(key)?.item, kind.items);
    if (value !== undefined) out.push(value);
  };
  let li = 0;
  let ri = 0;
  while (li < lOrder.length || ri < rOrder.length) {
    if (li < lOrder.length && ri < rOrder.length) {
      const key = lOrder[li];
      if (key === rOrder[ri]) {
        push(key);
        li++;
        ri++;
        next = shared.shift();
        continue;
      }
      if (r.has(key) && next !== undefined && next !== key) {
        li++;
        continue;
      }
    }
    if (li < lOrder.length && !r.has(lOrder[li])) {
      push(lOrder[li]);
      li++;
      continue;
    }
    if (ri < rOrder.length) {
      const key = rOrder[ri];
      push(key);
      ri++;
      if (next === key) next = shared.shift();
    } else {
      // Unreachable for well-formed input; guarantees progress all the same.
      li++;
    }
  }
  return out.length > 0 ? out : undefined;
}

// dropAppliedNulls removes from a merged object the nulls the applied configuration set, as
// decoding into the Go type does: an explicit null unsets a field.
export function dropAppliedNulls(value: unknown, applied: unknown, schema: Schema | undefined): void {
  const kind = kindOf(schema, applied);
  if (kind.type === 'scalar' || kind.atomic) return;
  if (kind.type === 'list') {
    const items = indexItems(kind as ListKind, value);
    for (const [key, { item }] of indexItems(kind as ListKind, applied)) dropAppliedNulls(items.get(key)?.item, item, kind.items);
    return;
  }
  if (!isObject(value) || !isObject(applied)) return;
  for (const name of Object.keys(applied)) {
    if (!hasOwn(value, name)) continue;
    if (applied[name] === null && value[name] === null) delete value[name];
    else dropAppliedNulls(value[name], applied[name], childSchema(kind, name));
  }
}

// removeItems is TypedValue.RemoveItems: every member of the set is removed with what is below
// it; a map or list left empty is removed too (undefined).
export function removeItems(value: unknown, toRemove: FieldSet, schema: Schema | undefined): unknown {
  const kind = kindOf(schema, value);
  if (kind.type === 'scalar') return value;
  if (kind.type === 'list') {
    if (!Array.isArray(value)) return value;
    if (value.length === 0 || kind.atomic) return undefined;
    const out: unknown[] = [];
    value.forEach((item, i) => {
      const pe = listItemElement(kind, i, item);
      if (pe instanceof Error) {
        out.push(item);
        return;
      }
      if (toRemove.has([pe])) return;
      const below = toRemove.withPrefix(pe);
      const kept = below.isEmpty() ? item : removeItems(item, below, kind.items);
      if (kept !== undefined) out.push(kept);
    });
    return out.length > 0 ? out : undefined;
  }
  if (!isObject(value)) return value;
  if (Object.keys(value).length === 0 || kind.atomic) return undefined;
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(value)) {
    const pe = fieldElement(name);
    if (toRemove.has([pe])) continue;
    const below = toRemove.withPrefix(pe);
    const kept = below.isEmpty() ? value[name] : removeItems(value[name], below, childSchema(kind, name));
    if (kept !== undefined) setOwn(out, name, kept);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

// valueStructFields names the struct fields that Go types hold by value, not by pointer: they
// are present (as {}) in every object Kubernetes compares, so their own ownership never shows.
const valueStructFields = new Set(['metadata', 'spec', 'status', 'template', 'jobTemplate', 'strategy', 'updateStrategy', 'resources']);

// withGoZeroValues is an object as Kubernetes compares it: decoded into its Go type and
// converted back. Value structs are present ({}), required fields take their zero value
// (scalars "", 0, false; lists, maps and pointers null), ObjectMeta has creationTimestamp null.
// Only the objects and lists that gain a zero value are copied: the rest (a map of 100,000
// labels) is the input's own, so the result is for comparisons only, never to be changed or
// stored.
export function withGoZeroValues(value: unknown, schema: Schema | undefined): unknown {
  const kind = kindOf(schema, value);
  if (kind.type === 'scalar' || kind.atomic) return value;
  if (kind.type === 'list') {
    if (!Array.isArray(value)) return value;
    const items = value.map((item) => withGoZeroValues(item, kind.items));
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  if (!isObject(value)) return value;
  let out: Record<string, unknown> | undefined;
  const names = Object.keys(value);
  for (let i = 0; i < names.length; i++) {
    const member = withGoZeroValues(value[names[i]], childSchema(kind, names[i]));
    if (member === value[names[i]] && out === undefined) continue;
    out ??= prefixOf(value, names, i);
    setOwn(out, names[i], member);
  }
  for (const name of Object.keys(kind.fields)) {
    if (hasOwn(value, name)) continue;
    const field = kind.fields[name];
    const fieldKind = kindOf(field, undefined);
    const struct = fieldKind.type === 'map' && !fieldKind.atomic && Object.keys(fieldKind.fields).length > 0;
    if (struct && (valueStructFields.has(name) || kind.required.includes(name))) {
      out ??= prefixOf(value, names, names.length);
      setOwn(out, name, withGoZeroValues({}, field));
    } else if (kind.required.includes(name)) {
      out ??= prefixOf(value, names, names.length);
      setOwn(out, name, zeroOf(field, fieldKind));
    } else if (name === 'creationTimestamp' && field.format === 'date-time') {
      out ??= prefixOf(value, names, names.length);
      setOwn(out, name, null);
    }
  }
  return out ?? value;
}

// prefixOf copies the first count members of value, names being its keys in order.
function prefixOf(value: JsonObject, names: string[], count: number): JsonObject {
  const out: JsonObject = {};
  for (let i = 0; i < count; i++) setOwn(out, names[i], value[names[i]]);
  return out;
}

function zeroOf(schema: Schema, kind: Kind): unknown {
  if (kind.type !== 'scalar') return null;
  if (schema.intOrString) return 0;
  switch (schema.type) {
    case 'string':
      return schema.format === 'date-time' ? null : '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}
