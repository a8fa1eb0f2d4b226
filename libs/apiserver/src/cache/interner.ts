// Interner shares the parts that repeat from one cached object to the next, so that a watch
// cache of 100,000 objects holds one copy of each rather than 100,000: the namespace, the
// creation time (objects created in one second), the labels, and the managed fields (every
// object one manager wrote in one second the same fields of has the same entries; apart from
// the time, each entry's strings and field set). JSON.parse gives every object its own copies.
// A shared part is frozen, all the way down: the cached objects are read-only, and a write into
// one would otherwise show in every object sharing it.
//
// The tables are bounded: once one holds `capacity` values it starts afresh (values shared so
// far stay shared; only later objects stop finding them).
import { KubeObject, ManagedFieldsEntry } from '@plinth/api';

export const defaultInternerCapacity = 4096;

const managedStrings = ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'subresource'] as const;

export class Interner {
  private strings = new Map<string, string>();
  private trees = new Map<string, object>();

  constructor(private readonly capacity = defaultInternerCapacity) {}

  // shareRepeatedParts replaces the object's repeated parts, in place, by the shared ones.
  shareRepeatedParts(object: KubeObject): void {
    const metadata = object.metadata;
    if (typeof metadata !== 'object' || metadata === null) return;
    if (typeof metadata.namespace === 'string') metadata.namespace = this.string(metadata.namespace);
    if (typeof metadata.creationTimestamp === 'string') metadata.creationTimestamp = this.string(metadata.creationTimestamp);
    if (typeof metadata.labels === 'object' && metadata.labels !== null) metadata.labels = this.tree(metadata.labels);
    if (!Array.isArray(metadata.managedFields)) return;
    for (const entry of metadata.managedFields) {
      if (typeof entry === 'object' && entry !== null) this.shareEntry(entry);
    }
    metadata.managedFields = this.tree(metadata.managedFields);
  }

  private shareEntry(entry: ManagedFieldsEntry): void {
    const fields = entry as Record<string, unknown>;
    for (const name of managedStrings) {
      const value = fields[name];
      if (typeof value === 'string') fields[name] = this.string(value);
    }
    if (typeof entry.fieldsV1 === 'object' && entry.fieldsV1 !== null) entry.fieldsV1 = this.tree(entry.fieldsV1);
  }

  string(value: string): string {
    const shared = this.strings.get(value);
    if (shared !== undefined) return shared;
    if (this.strings.size >= this.capacity) this.strings = new Map();
    this.strings.set(value, value);
    return value;
  }

  // tree is the shared, frozen copy of a JSON value equal to this one (the value itself, frozen,
  // when it is the first).
  private tree<T extends object>(value: T): T {
    const key = JSON.stringify(value);
    const shared = this.trees.get(key);
    if (shared !== undefined) return shared as T;
    if (this.trees.size >= this.capacity) this.trees = new Map();
    this.trees.set(key, deepFreeze(value));
    return value;
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const member of Object.values(value)) deepFreeze(member);
  return Object.freeze(value);
}
