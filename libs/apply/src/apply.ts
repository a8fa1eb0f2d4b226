// Server-side apply (FieldManager.Apply over structured-merge-diff's Updater.Apply): merge the
// applied configuration into the live object, remove what the manager applied before and no
// longer applies (unless someone else owns it), and refuse to change fields other managers own
// unless forced.
import { KubeObject, ManagedFieldsEntry, Schema } from '@plinth/api';
import { applyConflict, badRequest, goQuote, internalError, rfc3339, StatusCause, StatusError } from '@plinth/machinery';
import { FieldSet, fromObject } from './field-set';
import { cloneJson, isObject, jsonEqual } from './json';
import {
  comparable,
  ConflictsError,
  ConflictSets,
  decodeManagedFields,
  reconcileWithSchema,
  encodeManagedFields,
  Managed,
  managerIdentifier,
  parseManagerIdentifier,
  stripManager,
  updateOwners,
  VersionedSet,
} from './managed-fields';
import { pathString } from './path-element';
import { dropAppliedNulls, merge, removeItems } from './typed';

export interface ApplyOptions {
  // live is the stored object, or null when the apply creates it.
  live: KubeObject | null;
  // applied is the parsed apply configuration.
  applied: KubeObject;
  // manager is the ?fieldManager of the request (required for apply; empty means `unknown`).
  manager: string;
  force?: boolean;
  apiVersion: string;
  subresource?: string;
  schema: Schema;
  now: Date;
  // resetFields are fields the strategy resets (see statusResetFields); no one owns them here.
  resetFields?: FieldSet;
}

export interface ApplyResult {
  // object is the merged object with its new metadata.managedFields.
  object: KubeObject;
  managedFields: ManagedFieldsEntry[] | undefined;
  // changed is false when the apply left the object as it was (managedFields may still change).
  changed: boolean;
}

// applyObject applies a configuration. It throws the 409 Conflict StatusError when fields owned
// by other managers would change and force is not set, and 400 when the configuration carries
// managedFields.
export function applyObject(options: ApplyOptions): ApplyResult {
  const { live, applied, schema, resetFields } = options;
  if (applied.metadata?.managedFields !== undefined && applied.metadata?.managedFields !== null) {
    throw badRequest('metadata.managedFields must be nil');
  }
  let managed: Managed;
  try {
    managed = reconcileWithSchema(decodeManagedFields(live?.metadata?.managedFields), schema);
  } catch (err) {
    throw internalError(`failed to decode managed fields: ${(err as Error).message}`);
  }

  const liveObject = withoutManagedFields(live);
  const id = managerIdentifier({ manager: options.manager || 'unknown', operation: 'Apply', subresource: options.subresource });

  const merged = merge(liveObject, applied, schema) ?? {};
  const lastSet = managed.fields.get(id);
  let set = fromObject(applied, schema);
  if (resetFields) set = set.recursiveDifference(resetFields);
  managed.fields.set(id, { set, apiVersion: options.apiVersion, applied: true });
  const pruned = prune(merged, managed, lastSet, schema);
  try {
    updateOwners(comparable(liveObject, schema), comparable(pruned, schema), schema, managed, id, Boolean(options.force), resetFields);
  } catch (err) {
    if (err instanceof ConflictsError) throw conflictError(err.conflicts);
    throw err;
  }
  stripManager(managed, id);

  const changed = !jsonEqual(liveObject, pruned);
  if (changed) managed.times.set(id, rfc3339(options.now.getTime()));
  const managedFields = encodeManagedFields(managed);
  const object = (changed ? pruned : cloneJson(liveObject)) as KubeObject;
  dropAppliedNulls(object, applied, schema);
  object.metadata = { ...(isObject(object.metadata) ? object.metadata : {}) };
  if (managedFields) object.metadata.managedFields = managedFields;
  else delete object.metadata.managedFields;
  return { object, managedFields, changed };
}

function withoutManagedFields(object: KubeObject | null): KubeObject {
  const copy = cloneJson(object ?? ({} as KubeObject));
  if (isObject(copy.metadata)) delete copy.metadata.managedFields;
  return copy;
}

// prune removes what the manager applied last time and no longer applies, unless a manager
// (this one included) still owns it: Updater.prune with addBackOwnedItems and
// addBackDanglingItems, for managers that all share the live object's API version.
function prune(merged: unknown, managed: Managed, lastSet: VersionedSet | undefined, schema: Schema): unknown {
  if (!lastSet || lastSet.set.isEmpty()) return merged;
  const named = (set: FieldSet): FieldSet => set.ensureNamedFieldsAreMembers(schema);
  let owned = new FieldSet();
  for (const vs of managed.fields.values()) owned = owned.union(vs.set);
  const last = named(lastSet.set);

  let pruned = removeItems(merged, last, schema) ?? {};
  const mergedSet = named(fromObject(merged, schema));
  pruned = removeItems(merged, mergedSet.difference(named(fromObject(pruned, schema)).union(named(owned))), schema) ?? {};
  const dangling = mergedSet.difference(named(fromObject(pruned, schema))).intersection(last);
  return removeItems(merged, dangling, schema) ?? {};
}

// printManager is how conflicts name a manager: `"kubectl"`, or for updaters
// `"kubectl-client-side-apply" using batch/v1`, with `with subresource "status"` when set.
export function printManager(id: string): string {
  const info = parseManagerIdentifier(id);
  if (!info) return goQuote(id);
  let text = goQuote(info.manager ?? '');
  if (info.subresource) text += ` with subresource ${goQuote(info.subresource)}`;
  if (info.operation === 'Update') text += ` using ${info.apiVersion ?? ''}`;
  return text;
}

// conflictError is NewConflictError: one FieldManagerConflict cause per field, managers in
// identifier order, fields in set order.
export function conflictError(conflicts: ConflictSets): StatusError {
  const list: Array<{ manager: string; field: string }> = [];
  for (const id of [...conflicts.keys()].sort()) {
    for (const path of conflicts.get(id)?.paths() ?? []) list.push({ manager: id, field: pathString(path) });
  }
  const causes: StatusCause[] = list.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${printManager(c.manager)}`,
    field: c.field,
  }));
  return applyConflict(causes, conflictMessage(list));
}

function conflictMessage(list: Array<{ manager: string; field: string }>): string {
  if (list.length === 1) return `Apply failed with 1 conflict: conflict with ${printManager(list[0].manager)}: ${list[0].field}`;
  const lines: string[] = [];
  for (const id of [...new Set(list.map((c) => c.manager))].sort()) {
    lines.push(`conflicts with ${printManager(id)}:`);
    for (const c of list) if (c.manager === id) lines.push(`- ${c.field}`);
  }
  return `Apply failed with ${list.length} conflicts: ${lines.join('\n')}`;
}
