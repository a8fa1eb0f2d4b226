// Managed fields of non-apply writes (create, update, patch), as the Kubernetes field manager
// keeps them (k8s.io/apimachinery/pkg/util/managedfields/internal): decode the entries, let the
// writer own what it changed and take it from everyone else, strip the fields no one may own,
// cap the number of update entries, encode and sort.
import { KubeObject, ManagedFieldsEntry, Schema } from '@plinth/api';
import { rfc3339 } from '@plinth/machinery';
import { FieldSet } from './field-set';
import { goJSON, isObject } from './json';
import { fieldElement } from './path-element';
import { changedFields, compare, Comparison, excludeFields, withGoZeroValues } from './typed';

// VersionedSet is the set one manager owns, at the API version it wrote with.
export interface VersionedSet {
  set: FieldSet;
  apiVersion: string;
  applied: boolean;
}

// Managed is the decoded form of metadata.managedFields, keyed by manager identifier.
export interface Managed {
  readonly fields: Map<string, VersionedSet>;
  readonly times: Map<string, string | undefined>;
}

export const emptyManaged = (): Managed => ({ fields: new Map(), times: new Map() });

// fieldManagerMaxLength is validation.FieldManagerMaxLength.
export const fieldManagerMaxLength = 128;

// maxUpdateManagers is DefaultMaxUpdateManagers: older update entries are merged into
// `ancient-changes` buckets beyond it.
export const maxUpdateManagers = 10;
export const ancientChangesManager = 'ancient-changes';

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

// defaultManagerName is prefixFromUserAgent: the user agent up to the first '/', without
// non-printable characters, cut at 128 bytes. `kubectl/v1.28.0 (linux/amd64) ...` gives
// `kubectl`; kubectl itself sends ?fieldManager=kubectl-create, kubectl-client-side-apply, ...
export function defaultManagerName(userAgent: string): string {
  const prefix = userAgent.split('/')[0];
  let out = '';
  let bytes = 0;
  for (const ch of prefix) {
    if (!printable.test(ch)) continue;
    const size = new TextEncoder().encode(ch).length;
    if (bytes + size > fieldManagerMaxLength) break;
    out += ch;
    bytes += size;
  }
  return out;
}

// kubeApiserverManager is the manager of what kube-apiserver writes to itself through its
// loopback client at start (the bootstrap RBAC policy, the system namespaces): its User-Agent's.
export const kubeApiserverManager = 'kube-apiserver';

// fieldManagerName is managerOrUserAgent: the ?fieldManager parameter, else the user agent prefix.
export function fieldManagerName(fieldManager: string | undefined, userAgent: string): string {
  return fieldManager ? fieldManager : defaultManagerName(userAgent);
}

// isResetManagedFields tells whether a request asks to clear managedFields: an empty list, or a
// list holding one empty entry (`[{}]`). A request without the field (what clients unaware of
// it send) keeps them. Cleared, they stay off the object: an update does not start tracking.
export function isResetManagedFields(entries: readonly ManagedFieldsEntry[] | undefined | null): boolean {
  if (!Array.isArray(entries)) return false;
  return entries.length === 0 || (entries.length === 1 && isEmptyEntry(entries[0]));
}

function isEmptyEntry(entry: unknown): boolean {
  if (!isObject(entry)) return entry === null;
  return Object.values(entry).every((v) => v === undefined || v === null || v === '');
}

// managerIdentifier is BuildManagerIdentifier: the entry without fields and time, as JSON in
// ManagedFieldsEntry field order; appliers leave out the API version.
export function managerIdentifier(entry: Pick<ManagedFieldsEntry, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  const parts: string[] = [];
  if (entry.manager) parts.push(`"manager":${goJSON(entry.manager)}`);
  if (entry.operation) parts.push(`"operation":${goJSON(entry.operation)}`);
  if (entry.apiVersion && entry.operation !== 'Apply') parts.push(`"apiVersion":${goJSON(entry.apiVersion)}`);
  if (entry.subresource) parts.push(`"subresource":${goJSON(entry.subresource)}`);
  return `{${parts.join(',')}}`;
}

export function parseManagerIdentifier(id: string): Pick<ManagedFieldsEntry, 'manager' | 'operation' | 'apiVersion' | 'subresource'> | undefined {
  const known = parsedIdentifiers.get(id);
  if (known) return { ...known };
  try {
    const parsed: unknown = JSON.parse(id);
    if (!isObject(parsed)) return undefined;
    if (parsedIdentifiers.size >= maxParsedIdentifiers) parsedIdentifiers.clear();
    parsedIdentifiers.set(id, { ...(parsed as ManagedFieldsEntry) });
    return parsed as ManagedFieldsEntry;
  } catch {
    return undefined;
  }
}

// parsedIdentifiers are the identifiers read lately: a server sees few managers, each on every
// write it makes (bounded, since a client names its manager).
const parsedIdentifiers = new Map<string, Pick<ManagedFieldsEntry, 'manager' | 'operation' | 'apiVersion' | 'subresource'>>();
const maxParsedIdentifiers = 1024;

// decodeManagedFields is DecodeManagedFields; it throws on an entry Kubernetes rejects.
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[] | undefined | null): Managed {
  const managed = emptyManaged();
  (entries ?? []).forEach((entry, i) => {
    if (!isObject(entry as unknown)) throw new Error('operation must be `Apply` or `Update`');
    if (entry.operation !== 'Apply' && entry.operation !== 'Update') throw new Error('operation must be `Apply` or `Update`');
    if (!entry.apiVersion) throw new Error('apiVersion must not be empty');
    if (!entry.fieldsType) throw new Error(`missing fieldsType in managed fields entry ${i}`);
    if (entry.fieldsType !== 'FieldsV1') throw new Error(`invalid fieldsType ${JSON.stringify(entry.fieldsType)} in managed fields entry ${i}`);
    const id = managerIdentifier(entry);
    let set: FieldSet;
    try {
      set = FieldSet.fromFieldsV1(entry.fieldsV1 ?? {});
    } catch (err) {
      throw new Error(`error decoding versioned set from ${JSON.stringify(entry)}: error decoding set: ${(err as Error).message}`);
    }
    managed.fields.set(id, { set, apiVersion: entry.apiVersion, applied: entry.operation === 'Apply' });
    managed.times.set(id, entry.time === undefined ? undefined : formatTime(entry.time));
  });
  return managed;
}

// encodeManagedFields is encodeManagedFields: one entry per manager, sorted by operation
// (Apply first), time, manager, apiVersion and subresource; undefined when no one owns anything.
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] | undefined {
  if (managed.fields.size === 0) return undefined;
  const entries: ManagedFieldsEntry[] = [];
  for (const [id, vs] of managed.fields) {
    const info = parseManagerIdentifier(id) ?? {};
    const entry: ManagedFieldsEntry = {};
    if (info.manager) entry.manager = info.manager;
    entry.operation = vs.applied ? 'Apply' : (info.operation ?? 'Update');
    entry.apiVersion = vs.apiVersion;
    const time = managed.times.get(id);
    if (time !== undefined) entry.time = time;
    entry.fieldsType = 'FieldsV1';
    entry.fieldsV1 = vs.set.toFieldsV1();
    if (info.subresource) entry.subresource = info.subresource;
    entries.push(entry);
  }
  return entries.sort(compareEntries);
}

function compareEntries(p: ManagedFieldsEntry, q: ManagedFieldsEntry): number {
  const byString = (a = '', b = ''): number => (a === b ? 0 : a < b ? -1 : 1);
  return (
    byString(p.operation, q.operation) ||
    unixSeconds(p.time) - unixSeconds(q.time) ||
    byString(p.manager, q.manager) ||
    byString(p.apiVersion, q.apiVersion) ||
    byString(p.subresource, q.subresource)
  );
}

function unixSeconds(time: string | undefined): number {
  if (time === undefined) return 0;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

function formatTime(time: string): string {
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? time : rfc3339(ms);
}

// stripSet lists the fields no manager owns (StripMetaManager).
export const stripSet: FieldSet = FieldSet.of(
  [fieldElement('apiVersion')],
  [fieldElement('kind')],
  [fieldElement('metadata')],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map(
    (name) => [fieldElement('metadata'), fieldElement(name)],
  ),
);

// statusResetFields is what the strategies of kinds with a status subresource reset: writes to
// the main resource own no status, writes to /status own no spec.
export function statusResetFields(subresource?: string): FieldSet {
  return FieldSet.of([fieldElement(subresource === 'status' ? 'spec' : 'status')]);
}

export function stripManager(managed: Managed, id: string): void {
  const vs = managed.fields.get(id);
  if (!vs) return;
  const set = vs.set.difference(stripSet);
  if (set.isEmpty()) managed.fields.delete(id);
  else managed.fields.set(id, { ...vs, set });
}

// comparable is an object as the field manager compares it: without managedFields, with the
// zero values Go decoding would give it (none for an unstructured object, a custom resource, so
// that a map its first write adds is owned itself too: `f:spec: {".": {}, ...}`).
export function comparable(object: unknown, schema: Schema, unstructured = false): unknown {
  if (!isObject(object) && !unstructured) return zeroObjectOf(schema);
  const copy: Record<string, unknown> = { ...(isObject(object) ? object : {}) };
  if (isObject(copy.metadata)) {
    const { managedFields: _managedFields, ...metadata } = copy.metadata;
    copy.metadata = metadata;
  }
  return unstructured ? copy : withGoZeroValues(copy, schema);
}

// zeroObjects are the objects a create is compared from (an absent object with Go's zero
// values), one per schema: the same on every create, and only read.
const zeroObjects = new WeakMap<Schema, unknown>();

function zeroObjectOf(schema: Schema): unknown {
  let zero = zeroObjects.get(schema);
  if (zero === undefined) {
    zero = deepFreeze(withGoZeroValues({}, schema));
    zeroObjects.set(schema, zero);
  }
  return zero;
}

function deepFreeze(value: unknown): unknown {
  if (value !== null && typeof value === 'object') {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}

// ConflictSets are, per other manager, the fields a write changed that it owned.
// reconcileWithSchema brings every manager's fields in line with the current schema (a field
// that became atomic is owned whole by whoever owned part of it), as structured-merge-diff's
// Updater does before each update and apply.
export function reconcileWithSchema(managed: Managed, schema: Schema): Managed {
  for (const [id, vs] of managed.fields) {
    const set = vs.set.reconcileWithSchema(schema);
    if (set !== vs.set) managed.fields.set(id, { ...vs, set });
  }
  return managed;
}

export type ConflictSets = Map<string, FieldSet>;

export class ConflictsError extends Error {
  constructor(readonly conflicts: ConflictSets) {
    super('conflicts');
  }
}

// updateOwners is Updater.update: compares the old and new object and takes from every manager
// other than `writer` the fields that were removed, and (with force) those that changed. Without
// force, changed fields owned by others are conflicts.
export function updateOwners(
  oldObject: unknown,
  newObject: unknown,
  schema: Schema,
  managed: Managed,
  writer: string,
  force: boolean,
  resetFields: FieldSet | undefined,
): Comparison {
  const comparison = compare(oldObject, newObject, schema);
  // A write no other manager shares (a create, most often) takes nothing from anyone.
  if (managed.fields.size === 0 || (managed.fields.size === 1 && managed.fields.has(writer))) return comparison;
  const relevant = excludeFields(comparison, resetFields);
  const changed = relevant.modified.union(relevant.added);
  const conflicts: ConflictSets = new Map();
  for (const [id, vs] of managed.fields) {
    if (id === writer) continue;
    const conflict = vs.set.intersection(changed);
    if (!conflict.isEmpty()) conflicts.set(id, conflict);
  }
  if (!force && conflicts.size > 0) throw new ConflictsError(conflicts);
  for (const [id, vs] of managed.fields) {
    if (id === writer) continue;
    let set = vs.set;
    const conflict = conflicts.get(id);
    if (conflict) set = set.difference(conflict);
    if (!relevant.removed.isEmpty()) set = set.difference(relevant.removed);
    if (set.isEmpty()) managed.fields.delete(id);
    else managed.fields.set(id, { ...vs, set });
  }
  return comparison;
}

// capUpdateManagers merges the oldest update entries into one `ancient-changes` entry per API
// version until at most max update entries remain (capManagersManager).
export function capUpdateManagers(managed: Managed, max = maxUpdateManagers): void {
  if (managed.fields.size <= max) return;
  const updaters = [...managed.fields].filter(([, vs]) => !vs.applied).map(([id]) => id);
  if (updaters.length <= max) return;
  updaters.sort((a, b) => unixSeconds(managed.times.get(a)) - unixSeconds(managed.times.get(b)) || (a === b ? 0 : a < b ? -1 : 1));
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const id = updaters[i];
    const vs = managed.fields.get(id);
    if (!vs) continue;
    const bucket = managerIdentifier({ manager: ancientChangesManager, operation: 'Update', apiVersion: vs.apiVersion });
    const first = firstOfVersion.get(vs.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(vs.apiVersion, id);
      continue;
    }
    if (!managed.fields.has(bucket)) {
      const moved = managed.fields.get(first);
      managed.fields.delete(first);
      if (moved) managed.fields.set(bucket, moved);
    }
    const current = managed.fields.get(bucket);
    managed.fields.set(bucket, { set: current ? vs.set.union(current.set) : vs.set, apiVersion: vs.apiVersion, applied: vs.applied });
    managed.fields.delete(id);
    length--;
    managed.times.set(bucket, managed.times.get(id));
  }
}

export interface UpdateManagedFieldsOptions {
  // live is the stored object, or null for a create.
  live: KubeObject | null;
  // updated is the object about to be stored, with the managedFields the request carried.
  updated: KubeObject;
  // manager is the field manager (see fieldManagerName); empty means `unknown`.
  manager: string;
  operation?: 'Update';
  // apiVersion is the group/version the request was made in, e.g. `batch/v1`.
  apiVersion: string;
  subresource?: string;
  now: Date;
  schema: Schema;
  // unstructured says the object is a custom resource, compared without Go's zero values.
  unstructured?: boolean;
  // resetFields are fields the strategy resets (see statusResetFields); no one owns them here.
  resetFields?: FieldSet;
}

// currentOperation names the write in progress until it is merged into its manager's entry.
const currentOperation = 'current-operation';

// updateManagedFields computes metadata.managedFields for a create, update or non-apply patch
// (FieldManager.UpdateNoErrors). On create every field the object sets is owned by the manager.
// Errors keep the live object's managedFields, as Kubernetes does.
export function updateManagedFields(options: UpdateManagedFieldsOptions): ManagedFieldsEntry[] | undefined {
  const { live, updated, schema, resetFields } = options;
  try {
    const managed = reconcileWithSchema(decodeLiveOrNew(live, updated, Boolean(options.subresource)), schema);
    if (skipsTracking(live, managed)) return undefined;
    const current = ownedByWriter(comparable(live, schema, options.unstructured), comparable(updated, schema, options.unstructured), schema, managed, resetFields);
    if (!current.isEmpty()) {
      const id = managerIdentifier({ manager: options.manager || 'unknown', operation: 'Update', apiVersion: options.apiVersion, subresource: options.subresource });
      const previous = managed.fields.get(id);
      managed.fields.set(id, { set: previous ? current.union(previous.set) : current, apiVersion: options.apiVersion, applied: false });
      managed.times.set(id, rfc3339(options.now.getTime()));
    }
    capUpdateManagers(managed);
    return encodeManagedFields(managed);
  } catch {
    return live?.metadata?.managedFields;
  }
}

// ownedByWriter is what a non-apply write comes to own: the fields it added or changed, the
// reset fields and the stripped ones aside, taken from every other manager. With no manager
// yet (a create) no one loses anything, and the set is made in one walk.
function ownedByWriter(live: unknown, updated: unknown, schema: Schema, managed: Managed, resetFields: FieldSet | undefined): FieldSet {
  if (managed.fields.size === 0) {
    return changedFields(live, updated, schema, (path) => !stripSet.has(path) && !(resetFields?.hasMemberAlong(path) ?? false));
  }
  const comparison = updateOwners(live, updated, schema, managed, currentOperation, true, resetFields);
  let current = comparison.modified.union(comparison.added).difference(comparison.removed);
  if (resetFields) current = current.recursiveDifference(resetFields);
  return current.difference(stripSet);
}

// skipsTracking is the skip-non-applied manager: an update that starts from no managed fields
// (the live object has none, or the request reset them) does not start tracking them; a create
// (no live object, or one without a uid) always does.
function skipsTracking(live: KubeObject | null, managed: Managed): boolean {
  return managed.fields.size === 0 && Boolean(live?.metadata?.uid);
}

// decodeLiveOrNew picks the managedFields a write starts from: the live object's for
// subresources; none when the request resets them; the request's own when it carries valid,
// non-empty ones (clients may set managedFields directly); the live object's otherwise.
function decodeLiveOrNew(live: KubeObject | null, updated: KubeObject, isSubresource: boolean): Managed {
  const fromLive = (): Managed => {
    try {
      return decodeManagedFields(live?.metadata?.managedFields);
    } catch {
      return emptyManaged();
    }
  };
  if (isSubresource) return fromLive();
  const requested = updated.metadata?.managedFields;
  if (isResetManagedFields(requested)) return emptyManaged();
  try {
    const managed = decodeManagedFields(requested);
    if (managed.fields.size > 0) return managed;
  } catch {
    // Fall back to the live object, so clients that mangle managedFields cannot lose them.
  }
  return fromLive();
}
