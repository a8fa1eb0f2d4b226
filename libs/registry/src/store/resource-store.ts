// ResourceStore is the generic store of one resource type over an ObjectStore: the create,
// update, delete, get, list and watch semantics shared by every type, with the type's policy
// taken from its strategy (k8s.io/apiserver/pkg/registry/generic/registry/store.go).
import { KubeObject } from '@plinth/api';
import { statusResetFields, updateManagedFields } from '@plinth/apply';
import { alreadyExists, badRequest, Clock, cloneJson, conflict, field, GoLiteral, goQuote, invalid, isStatusError, notFound, rfc3339, StatusError, unclassifiedError, withBigInts } from '@plinth/machinery';
import { isStorageError, KeyValue, ObjectStore, StorageErrorCode } from '@plinth/storage';
import { QualifiedKind, QualifiedResource, ResourceDefinition, StrategyContext } from '../resource';
import { decodeObject, encodeObject } from './codec';
import { conflictDetail, interpretStorageError } from './interpret-storage-error';
import { collectionPrefix, objectKey, preconditionFailed } from './keys';
import { fillCreateMetadata, keepServerMetadata, setResourceVersion, specChanged, stableJson, wipeSystemMetadata } from './object-meta';
import { validateObjectMeta, validateObjectMetaUpdate } from './validate-meta';

export interface WriteOptions {
  dryRun?: boolean;
  // fieldManager records the write in metadata.managedFields (an Update by this manager, in
  // this apiVersion); absent for writes that computed managedFields themselves (apply).
  fieldManager?: { manager: string; apiVersion: string };
  // admit is the write's mutating admission, run where kube-apiserver runs it: on the defaulted
  // object once its managedFields are recorded (what admission sets is no manager's), before
  // the strategy prepares and validates it. old is the stored object of an update.
  admit?: (object: KubeObject, old: KubeObject | null) => Promise<void>;
}

export type CreateOptions = WriteOptions;

export interface UpdateOptions extends WriteOptions {
  // binding writes only a pod's spec.nodeName (the scheduler's pods/binding).
  subresource?: 'status' | 'finalize' | 'binding';
}

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

export interface DeleteOptions extends WriteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: PropagationPolicy;
  preconditions?: { uid?: string; resourceVersion?: string };
}

// ListPredicate filters a list or watch by label and field selectors.
export interface ListPredicate {
  matches(object: KubeObject): boolean;
  // empty is true when nothing is selected on: then remainingItemCount is reported.
  empty: boolean;
}

export const everything: ListPredicate = { matches: () => true, empty: true };

export interface ListOptions {
  predicate?: ListPredicate;
  limit?: number;
  continue?: string;
  // revision reads at this exact revision; absent reads the latest.
  revision?: number;
}

export interface UpdateResult {
  object: KubeObject;
  created: boolean;
}

export interface DeleteResult {
  // object is the deleted object, or the object now pending deletion.
  object: KubeObject;
  // deleted is false when finalizers or a grace period keep the object for now.
  deleted: boolean;
}

const maxUpdateAttempts = 20;

export class ResourceStore {
  readonly qualifiedResource: QualifiedResource;
  readonly qualifiedKind: QualifiedKind;
  // apiVersion is the group/version every object read is answered with: one string, shared by
  // them all (rather than a concatenation held by each).
  readonly apiVersion: string;

  constructor(
    readonly def: ResourceDefinition,
    private readonly storage: ObjectStore,
    private readonly clock: Clock,
    private readonly featureGates: ReadonlyMap<string, boolean>,
  ) {
    this.qualifiedResource = { group: def.group, resource: def.resource };
    this.qualifiedKind = { group: def.group, kind: def.kind };
    this.apiVersion = def.group === '' ? def.version : `${def.group}/${def.version}`;
  }

  async get(namespace: string | undefined, name: string, revision?: number): Promise<KubeObject> {
    const kv = await this.read(objectKey(this.def, namespace, name), name, revision);
    return this.decode(kv);
  }

  async create(namespace: string | undefined, input: KubeObject, options: CreateOptions = {}): Promise<KubeObject> {
    const ctx = this.context();
    const object = await this.prepareCreate(namespace, input, ctx, options);
    const key = objectKey(this.def, object.metadata.namespace, object.metadata.name ?? '');
    if (options.dryRun) {
      await this.assertAbsent(key, object.metadata.name ?? '');
      return object;
    }
    if (input.metadata && setResourceVersion(input.metadata)) throw unclassifiedError('resourceVersion should not be set on objects to be created');
    try {
      const kv = await withoutManagedFieldsIfTooLarge(object, () => this.storage.create(key, encodeObject(object)));
      // The stored value is this object's JSON: it is answered as it is, with the revision.
      object.metadata = { ...object.metadata, resourceVersion: String(kv.revision) };
      object.apiVersion = this.apiVersion;
      object.kind = this.def.kind;
      return object;
    } catch (err) {
      throw interpretStorageError(err, this.qualifiedResource, object.metadata.name ?? '');
    }
  }

  // update replaces an object (PUT), or its status for the status subresource. It is a
  // compare-and-swap on metadata.resourceVersion when the client sent one; otherwise it
  // retries against concurrent writers. transform, when given, computes the new object from
  // the current one (patch), and is re-run on each retry.
  async update(
    namespace: string | undefined,
    name: string,
    input: KubeObject | ((current: KubeObject | null) => KubeObject | Promise<KubeObject>),
    options: UpdateOptions = {},
    allowCreate = this.def.allowCreateOnUpdate ?? false,
  ): Promise<UpdateResult> {
    const key = objectKey(this.def, namespace, name);
    for (let attempt = 0; attempt < maxUpdateAttempts; attempt++) {
      const currentKv = await this.readOptional(key, name);
      const current = currentKv ? this.decode(currentKv) : null;
      const proposed = typeof input === 'function' ? await input(current ? cloneJson(current) : null) : cloneJson(input);
      if (!current) {
        if (!allowCreate || options.subresource) throw notFound(this.qualifiedResource, name);
        // Created by an update, the object starts afresh: the resourceVersion it carried names
        // nothing (kube-apiserver's Store.Update creates it all the same).
        const { resourceVersion: _stale, ...metadata } = proposed.metadata ?? {};
        proposed.metadata = { ...metadata, name };
        try {
          return { object: await this.create(namespace, proposed, options), created: true };
        } catch (err) {
          if (isStatusError(err) && err.reason === 'AlreadyExists') continue;
          throw err;
        }
      }
      const expected = proposed.metadata?.resourceVersion;
      // Storage parses the resourceVersion the update names (strconv.ParseUint).
      if (expected && !/^\d+$/.test(expected)) throw unclassifiedError(`strconv.ParseUint: parsing ${goQuote(expected)}: invalid syntax`);
      if (expected !== undefined && expected !== '' && expected !== current.metadata.resourceVersion) {
        throw conflict(this.qualifiedResource, name, conflictDetail);
      }
      const object = await this.prepareUpdate(namespace, name, proposed, current, options);
      if (sameObject(object, current)) return { object: current, created: false };
      if (options.dryRun) return { object: { ...object, metadata: { ...object.metadata, resourceVersion: current.metadata.resourceVersion } }, created: false };
      try {
        if (object.metadata.deletionTimestamp && !object.metadata.finalizers?.length && !this.def.strategy.holdsDeletion?.(object)) {
          const result = await this.storage.delete(key, { revision: currentKv?.revision });
          return { object: { ...object, metadata: { ...object.metadata, resourceVersion: String(result.revision) } }, created: false };
        }
        const kv = await withoutManagedFieldsIfTooLarge(object, () => this.storage.update(key, encodeObject(object), currentKv?.revision ?? 0));
        return { object: this.decode(kv), created: false };
      } catch (err) {
        // Another writer got in between the read and the write. A computed object (a patch, a
        // PUT's) is computed again from the new current one, whose resourceVersion the check
        // above holds the client's to, as GuaranteedUpdate retries its tryUpdate.
        if (isStorageError(err, StorageErrorCode.Conflict) && (typeof input === 'function' || expected === undefined || expected === '')) continue;
        if (isStorageError(err, StorageErrorCode.Conflict)) throw conflict(this.qualifiedResource, name, conflictDetail);
        throw interpretStorageError(err, this.qualifiedResource, name);
      }
    }
    throw conflict(this.qualifiedResource, name, conflictDetail);
  }

  // unconditionalUpdate is the refusal of an update without a resourceVersion where the strategy
  // does not allow one (the resourceVersion printed as Go prints a uint64 with %#v).
  private unconditionalUpdate(name: string): StatusError {
    const path = field.newPath('metadata', 'resourceVersion');
    return invalid({ group: this.def.group, kind: this.def.resource }, name, [field.invalid(path, new GoLiteral('0x0'), 'must be specified for an update')]);
  }

  // delete removes an object, or marks it for deletion while finalizers (or a grace period) hold
  // it. listed, when given, is the object as a list just read it (a deletecollection's): the
  // first attempt takes it for the current state and writes with a compare on its
  // resourceVersion, saving a read per object, as kube-apiserver's etcd3 store deletes with a
  // cached object; when it proves stale (the compare or a precondition fails) or would mean
  // writing nothing, the object is read afresh.
  async delete(namespace: string | undefined, name: string, options: DeleteOptions = {}, listed?: KubeObject): Promise<DeleteResult> {
    const key = objectKey(this.def, namespace, name);
    let guess = options.dryRun ? undefined : listed;
    for (let attempt = 0; attempt < maxUpdateAttempts; attempt++) {
      const current = guess ?? this.decode(await this.read(key, name));
      const revision = Number(current.metadata.resourceVersion);
      const fromList = guess !== undefined;
      guess = undefined;
      try {
        checkPreconditions(this.def, name, current, options.preconditions);
      } catch (err) {
        if (fromList) continue;
        throw err;
      }
      const pending = this.pendingDeletion(current, options);
      try {
        if (pending) {
          if (options.dryRun || sameObject(pending, current)) {
            if (fromList) continue;
            return { object: pending, deleted: false };
          }
          const kv = await this.storage.update(key, encodeObject(pending), revision);
          return { object: this.decode(kv), deleted: false };
        }
        const deleted = this.immediatelyDeleted(current);
        if (options.dryRun) return { object: deleted, deleted: true };
        const result = await this.storage.delete(key, { revision });
        return { object: { ...deleted, metadata: { ...deleted.metadata, resourceVersion: String(result.revision) } }, deleted: true };
      } catch (err) {
        if (isStorageError(err, StorageErrorCode.Conflict)) continue;
        throw interpretStorageError(err, this.qualifiedResource, name);
      }
    }
    throw conflict(this.qualifiedResource, name, conflictDetail);
  }

  // list reads a page of the collection. With a predicate it keeps reading storage pages until
  // the limit is filled, so a page never comes back short while more matches exist.
  async list(namespace: string | undefined, options: ListOptions = {}) {
    const predicate = options.predicate ?? everything;
    const prefix = collectionPrefix(this.def, namespace);
    const limit = options.limit && options.limit > 0 ? options.limit : 0;
    const items: KubeObject[] = [];
    let token = options.continue;
    let revision = options.revision;
    let remainingItemCount: number | undefined;
    for (;;) {
      const page = await this.storage
        .list({ prefix, limit: limit ? Math.max(limit - items.length, predicate.empty ? 0 : limit) : 0, continue: token, revision: token ? undefined : revision })
        .catch((err: unknown) => {
          throw interpretStorageError(err, this.qualifiedResource, '', revision);
        });
      revision = page.revision;
      for (const kv of page.items) {
        const object = this.decode(kv);
        if (!predicate.matches(object)) continue;
        if (limit && items.length === limit) break;
        items.push(object);
      }
      token = page.continue;
      remainingItemCount = predicate.empty ? page.remainingItemCount : undefined;
      if (!token || (limit && items.length >= limit)) break;
    }
    return { items, revision: revision ?? 0, continue: token, remainingItemCount: token ? remainingItemCount : undefined };
  }

  // listStored reads every object of the resource at one revision with what storage holds it
  // as, its key and stored bytes (what an informer hands a cache), storage's errors as they are.
  async listStored(): Promise<{ objects: KubeObject[]; stored: KeyValue[]; revision: number }> {
    const prefix = collectionPrefix(this.def, undefined);
    const objects: KubeObject[] = [];
    const stored: KeyValue[] = [];
    let page = await this.storage.list({ prefix });
    for (;;) {
      for (const kv of page.items) {
        objects.push(this.decode(kv));
        stored.push(kv);
      }
      if (!page.continue) return { objects, stored, revision: page.revision };
      page = await this.storage.list({ prefix, continue: page.continue });
    }
  }

  // assertRevisionKept fails with 410 Expired when storage has compacted the revision away. It
  // reads the collection's prefix, where no object lives, at that revision: one key looked up,
  // where a page read there would count every key after it for remainingItemCount.
  async assertRevisionKept(namespace: string | undefined, revision: number): Promise<void> {
    try {
      await this.storage.get(collectionPrefix(this.def, namespace), { revision });
    } catch (err) {
      if (isStorageError(err, StorageErrorCode.KeyNotFound)) return;
      throw interpretStorageError(err, this.qualifiedResource, '', revision);
    }
  }

  // currentRevision is storage's current revision (of every resource).
  currentRevision(): Promise<number> {
    return this.storage.currentRevision();
  }

  watch(namespace: string | undefined, revision: number, progressNotify: boolean) {
    return this.storage.watch({ prefix: collectionPrefix(this.def, namespace), revision, progressNotify });
  }

  decode(kv: KeyValue, revision?: number): KubeObject {
    const object = decodeObject(kv, revision);
    object.apiVersion = this.apiVersion;
    object.kind = this.def.kind;
    return object;
  }

  context(): StrategyContext {
    return { featureGates: this.featureGates, now: this.clock.now() };
  }

  private async prepareCreate(namespace: string | undefined, input: KubeObject, ctx: StrategyContext, options: WriteOptions): Promise<KubeObject> {
    const object = cloneJson(input);
    object.metadata = object.metadata ?? {};
    wipeSystemMetadata(object.metadata);
    this.assignNamespace(object, namespace);
    this.def.strategy.defaults?.(object, ctx);
    this.recordManagedFields(null, object, options, undefined, ctx);
    await options.admit?.(object, null);
    fillCreateMetadata(object, ctx.now, this.def.tracksGeneration ?? false);
    if (this.def.subresources?.includes('status') && !this.def.statusOnCreate) delete object.status;
    this.def.strategy.prepareForCreate?.(object, ctx);
    const fieldErrors = [...validateObjectMeta(object, this.def), ...this.def.strategy.validate(object, ctx)];
    if (fieldErrors.length > 0) throw invalid(this.qualifiedKind, object.metadata.name ?? '', fieldErrors);
    this.def.strategy.canonicalize?.(object, ctx);
    return object;
  }

  private async prepareUpdate(namespace: string | undefined, name: string, proposed: KubeObject, current: KubeObject, options: UpdateOptions): Promise<KubeObject> {
    const ctx = this.context();
    let object = proposed;
    object.metadata = object.metadata ?? {};
    this.assignNamespace(object, namespace);
    if (object.metadata.name !== undefined && object.metadata.name !== name) {
      throw badRequest(`the name of the object (${object.metadata.name}) does not match the name on the URL (${name})`);
    }
    object.metadata.name = name;
    if (options.subresource === 'status') {
      object = { ...current, metadata: object.metadata, status: object.status };
    } else if (options.subresource === 'binding') {
      const spec = (object.spec ?? {}) as Record<string, unknown>;
      object = { ...current, metadata: current.metadata, spec: { ...(current.spec as object), nodeName: spec.nodeName }, status: object.status ?? current.status };
    } else if (options.subresource === 'finalize') {
      const spec = (object.spec ?? {}) as Record<string, unknown>;
      object = { ...current, metadata: object.metadata, spec: { ...(current.spec as object), finalizers: spec.finalizers } };
    } else if (this.def.subresources?.includes('status')) {
      if (current.status === undefined) delete object.status;
      else object.status = current.status;
    }
    this.def.strategy.defaults?.(object, ctx);
    this.recordManagedFields(current, object, options, options.subresource, ctx);
    await options.admit?.(object, current);
    const uidChanged = object.metadata.uid !== undefined && object.metadata.uid !== current.metadata.uid;
    if (uidChanged) {
      const detail = `UID in precondition: ${object.metadata.uid}, UID in object meta: ${current.metadata.uid}`;
      throw conflict(this.qualifiedResource, name, preconditionFailed(this.def, current.metadata.namespace, name, detail));
    }
    if (this.def.allowUnconditionalUpdate === false && !proposed.metadata.resourceVersion) throw this.unconditionalUpdate(name);
    keepServerMetadata(object, current);
    if (!options.subresource) this.def.strategy.prepareForUpdate?.(object, current, ctx);
    else if (options.subresource === 'status') this.def.strategy.prepareForStatusUpdate?.(object, current, ctx);
    if (this.def.tracksGeneration && !options.subresource && specChanged(object, current)) {
      object.metadata.generation = (current.metadata.generation ?? 0) + 1;
    }
    const fieldErrors = [
      ...validateObjectMetaUpdate(object, current, this.def),
      ...(options.subresource === 'binding'
        ? []
        : options.subresource
        ? this.def.strategy.validateStatusUpdate?.(object, current, ctx) ?? []
        : [...this.def.strategy.validate(object, ctx, current), ...(this.def.strategy.validateUpdate?.(object, current, ctx) ?? [])]),
    ];
    if (fieldErrors.length > 0) throw invalid(this.qualifiedKind, name, fieldErrors);
    if (!options.subresource) this.def.strategy.canonicalize?.(object, ctx);
    return object;
  }

  // recordManagedFields sets metadata.managedFields for an Update operation: the manager owns
  // the fields this write set or changed (on create, every field it set).
  private recordManagedFields(live: KubeObject | null, object: KubeObject, options: WriteOptions, subresource: string | undefined, ctx: StrategyContext): void {
    if (!options.fieldManager) return;
    const managedFields = updateManagedFields({
      live,
      updated: object,
      manager: options.fieldManager.manager,
      apiVersion: options.fieldManager.apiVersion,
      subresource,
      now: new Date(ctx.now),
      schema: this.def.schema,
      unstructured: this.def.unstructured,
      resetFields: this.def.subresources?.includes('status') ? statusResetFields(subresource) : undefined,
    });
    if (managedFields && managedFields.length > 0) object.metadata.managedFields = managedFields;
    else delete object.metadata.managedFields;
  }

  private assignNamespace(object: KubeObject, namespace: string | undefined): void {
    if (!this.def.namespaced) {
      delete object.metadata.namespace;
      return;
    }
    if (object.metadata.namespace && object.metadata.namespace !== namespace) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    object.metadata.namespace = namespace;
  }

  // immediatelyDeleted is the object a delete without grace answers with: one of a type with
  // graceful deletion (a pod never scheduled) carries the deletionTimestamp and the grace period
  // of 0 that rest.BeforeDelete gave it before it went.
  // An object already in its grace period that a delete of grace 0 removes carries the shortened
  // period (and a deletionTimestamp moved by as much), as rest.BeforeDelete set them.
  private immediatelyDeleted(current: KubeObject): KubeObject {
    if (!this.def.strategy.gracePeriodSeconds) return current;
    const { deletionTimestamp, deletionGracePeriodSeconds } = current.metadata;
    if (!deletionTimestamp) return { ...current, metadata: { ...current.metadata, deletionTimestamp: rfc3339(this.clock.now()), deletionGracePeriodSeconds: 0 } };
    if (!deletionGracePeriodSeconds) return current;
    const shortened = rfc3339(Date.parse(deletionTimestamp) - deletionGracePeriodSeconds * 1000);
    return { ...current, metadata: { ...current.metadata, deletionTimestamp: shortened, deletionGracePeriodSeconds: 0 } };
  }

  // pendingDeletion returns the object as it stays while finalizers (or a grace period) hold
  // its deletion, or null when it can be removed now.
  private pendingDeletion(current: KubeObject, options: DeleteOptions): KubeObject | null {
    const policy = options.propagationPolicy ?? this.def.defaultPropagationPolicy ?? 'Background';
    const finalizers = new Set(current.metadata.finalizers ?? []);
    if (!current.metadata.deletionTimestamp) {
      if (policy === 'Orphan') finalizers.add('orphan');
      if (policy === 'Foreground') finalizers.add('foregroundDeletion');
    } else if (options.propagationPolicy === 'Orphan') {
      finalizers.delete('foregroundDeletion');
      finalizers.add('orphan');
    } else if (options.propagationPolicy === 'Foreground') {
      finalizers.delete('orphan');
      finalizers.add('foregroundDeletion');
    } else if (options.propagationPolicy === 'Background') {
      finalizers.delete('orphan');
      finalizers.delete('foregroundDeletion');
    }
    const grace = this.def.strategy.gracePeriodSeconds?.(current, options.gracePeriodSeconds) ?? 0;
    const held = this.def.strategy.holdsDeletion?.(current) ?? false;
    if (finalizers.size === 0 && grace === 0 && !held) return null;
    // Only an object that stays is copied: most deletes remove theirs.
    const object = cloneJson(current);
    const meta = object.metadata;
    if (finalizers.size > 0) meta.finalizers = [...finalizers];
    else delete meta.finalizers;
    if (!meta.deletionTimestamp) {
      meta.deletionTimestamp = rfc3339(this.clock.now() + grace * 1000);
      meta.deletionGracePeriodSeconds = grace;
      if (this.def.tracksGeneration) meta.generation = (meta.generation ?? 0) + 1;
      this.def.strategy.prepareForDeletion?.(object);
    } else if (grace < (meta.deletionGracePeriodSeconds ?? 0)) {
      meta.deletionTimestamp = rfc3339(this.clock.now() + grace * 1000);
      meta.deletionGracePeriodSeconds = grace;
    }
    return object;
  }

  private async read(key: string, name: string, revision?: number): Promise<KeyValue> {
    try {
      return await this.storage.get(key, revision ? { revision } : undefined);
    } catch (err) {
      throw interpretStorageError(err, this.qualifiedResource, name, revision);
    }
  }

  private async readOptional(key: string, name: string): Promise<KeyValue | null> {
    try {
      return await this.storage.get(key);
    } catch (err) {
      if (isStorageError(err, StorageErrorCode.KeyNotFound)) return null;
      throw interpretStorageError(err, this.qualifiedResource, name);
    }
  }

  private async assertAbsent(key: string, name: string): Promise<void> {
    if (await this.readOptional(key, name)) throw alreadyExists(this.qualifiedResource, name);
  }
}

// checkPreconditions refuses a delete whose preconditions the object does not meet, with the
// Conflict kube-apiserver's registry answers (naming the kind, not the resource).
function checkPreconditions(def: ResourceDefinition, name: string, current: KubeObject, preconditions: DeleteOptions['preconditions']): void {
  const failed = (detail: string) => conflict({ group: def.group, resource: def.kind }, name, detail);
  if (preconditions?.uid && preconditions.uid !== current.metadata.uid) {
    throw failed(`the UID in the precondition (${preconditions.uid}) does not match the UID in record (${current.metadata.uid}). The object might have been deleted and then recreated`);
  }
  if (preconditions?.resourceVersion && preconditions.resourceVersion !== current.metadata.resourceVersion) {
    throw failed(
      `the ResourceVersion in the precondition (${preconditions.resourceVersion}) does not match the ResourceVersion in record (${current.metadata.resourceVersion}). The object might have been modified`,
    );
  }
}

// sameObject compares two objects as stored (resourceVersion aside), ignoring key order.
function sameObject(a: KubeObject, b: KubeObject): boolean {
  const strip = (o: KubeObject) => withBigInts({ ...o, metadata: { ...o.metadata, resourceVersion: undefined } }, o);
  return stableJson(strip(a)) === stableJson(strip(b));
}

// withoutManagedFieldsIfTooLarge writes, and when the backend finds the object too large, writes
// it once more without managedFields, as kube-apiserver's create and update handlers do: the
// field ownership of a huge object may cost more than the object.
async function withoutManagedFieldsIfTooLarge<T>(object: KubeObject, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!isStorageError(err, StorageErrorCode.RequestTooLarge) || !object.metadata.managedFields) throw err;
    delete object.metadata.managedFields;
    return write();
  }
}
