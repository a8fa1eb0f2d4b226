// CustomResourceDefinitionController follows the CRDs in storage and serves what they define,
// in every API server process (several gateways share one storage, so each follows storage,
// not its own writes). It does the work of apiextensions-apiserver's naming, establishing
// and finalizing controllers: accept the names (or report the conflict), mark the CRD
// Established, add its versions to the catalog; on deletion, delete every custom resource,
// then drop the cleanup finalizer, and stop serving once the CRD is gone.
import { KubeObject } from '@plinth/api';
import { Clock, isStatusError, rfc3339 } from '@plinth/machinery';
import {
  CrdObject,
  customResourceCleanupFinalizer,
  customResourceDefinitionDefinition,
  customResourceDefinitionsOf,
  ResourceDefinition,
  setCrdCondition,
  stableJson,
  StoreInformer,
} from '@plinth/registry';
import { ServerContext } from './server-context';

const retryMs = 200;

export class CustomResourceDefinitionController {
  private informer: StoreInformer | null = null;
  private readonly crds = new Map<string, CrdObject>();
  private readonly served = new Map<string, ResourceDefinition[]>();
  // servedFrom is the CRD content each served entry was built from.
  private readonly servedFrom = new Map<string, string>();
  private readonly cleaning = new Set<string>();
  private stopped = false;

  constructor(
    private readonly context: ServerContext,
    private readonly clock: Clock,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  private get crdDefinition(): ResourceDefinition | undefined {
    const def = customResourceDefinitionDefinition;
    return this.context.catalog.lookup(def.group, def.version, def.resource);
  }

  start(): void {
    const def = this.crdDefinition;
    if (!def) return;
    this.informer = new StoreInformer(
      this.context.storeFor(def),
      {
        replace: (objects) => {
          const names = new Set(objects.map((o) => o.metadata.name ?? ''));
          for (const name of [...this.crds.keys()]) if (!names.has(name)) this.removed(name);
          for (const object of objects) this.upsert(object);
        },
        upsert: (object) => this.upsert(object),
        remove: (object) => this.removed(object.metadata.name ?? ''),
      },
      this.clock,
      this.context.storageLink,
    );
    this.informer.start();
  }

  stop(): void {
    this.stopped = true;
    this.informer?.stop();
  }

  private upsert(object: KubeObject): void {
    const crd = object as CrdObject;
    const name = crd.metadata.name ?? '';
    this.crds.set(name, crd);
    void this.reconcile(name).catch((err: unknown) => this.onError(err));
  }

  private removed(name: string): void {
    const group = this.crds.get(name)?.spec.group;
    this.crds.delete(name);
    this.unserve(name);
    // Names the removed CRD held may be free now for another of its group.
    for (const [other, crd] of this.crds) {
      if (crd.spec.group === group) void this.reconcile(other).catch((err: unknown) => this.onError(err));
    }
  }

  private async reconcile(name: string): Promise<void> {
    const crd = this.crds.get(name);
    if (!crd || this.stopped) return;
    if (crd.metadata.deletionTimestamp) {
      this.serve(crd);
      await this.cleanup(name);
      return;
    }
    const desired = this.desiredStatus(crd);
    if (stableJson(desired.status) !== stableJson(crd.status)) {
      await this.writeStatus(desired);
      return;
    }
    if (desired.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) this.serve(crd);
  }

  // desiredStatus is the naming and establishing controllers' view: the names are accepted
  // unless another CRD of the group already uses them.
  private desiredStatus(crd: CrdObject): CrdObject {
    const next = structuredClone(crd);
    const now = rfc3339(this.clock.now());
    const conflict = this.nameConflict(crd);
    if (conflict) {
      setCrdCondition(next, { type: 'NamesAccepted', status: 'False', reason: conflict.reason, message: conflict.message }, now);
      if (!next.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) {
        setCrdCondition(next, { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' }, now);
      }
      return next;
    }
    next.status = { ...next.status, acceptedNames: structuredClone(crd.spec.names) };
    setCrdCondition(next, { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' }, now);
    setCrdCondition(next, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }, now);
    return next;
  }

  private nameConflict(crd: CrdObject): { reason: string; message: string } | null {
    const names = crd.spec.names;
    for (const other of this.crds.values()) {
      if (other.metadata.name === crd.metadata.name || other.spec.group !== crd.spec.group) continue;
      const accepted = other.status?.acceptedNames;
      if (!accepted?.plural) continue;
      if (accepted.plural === names.plural || accepted.singular === names.plural || (accepted.shortNames ?? []).includes(names.plural)) {
        return { reason: 'PluralConflict', message: `"${names.plural}" is already in use` };
      }
      if (accepted.kind === names.kind || accepted.listKind === names.kind) return { reason: 'KindConflict', message: `"${names.kind}" is already in use` };
    }
    return null;
  }

  // writeStatus reports whether the write went through; a conflict or a deletion brings a
  // newer event, and that one reconciles again.
  private async writeStatus(crd: CrdObject): Promise<boolean> {
    const def = this.crdDefinition;
    if (!def) return false;
    try {
      await this.context.storeFor(def).update(undefined, crd.metadata.name ?? '', crd, { subresource: 'status' });
      return true;
    } catch (err) {
      if (!(isStatusError(err) && (err.code === 409 || err.code === 404))) throw err;
      return false;
    }
  }

  private retry(name: string): void {
    this.clock.setTimeout(() => void this.reconcile(name).catch((err: unknown) => this.onError(err)), retryMs);
  }

  private serve(crd: CrdObject): void {
    const name = crd.metadata.name ?? '';
    const from = stableJson({ spec: crd.spec, names: crd.status?.acceptedNames, terminating: Boolean(crd.metadata.deletionTimestamp) });
    if (this.servedFrom.get(name) === from) return;
    this.unserve(name);
    const next = customResourceDefinitionsOf(crd);
    for (const def of next) this.context.catalog.add(def);
    this.served.set(name, next);
    this.servedFrom.set(name, from);
  }

  private unserve(name: string): void {
    for (const def of this.served.get(name) ?? []) {
      this.context.catalog.remove(def.group, def.version, def.resource);
      this.context.forget(def);
    }
    this.served.delete(name);
    this.servedFrom.delete(name);
  }

  // cleanup deletes every custom resource of a deleted CRD, then removes its finalizer.
  private async cleanup(name: string): Promise<void> {
    if (this.cleaning.has(name)) return;
    this.cleaning.add(name);
    try {
      const crd = this.crds.get(name);
      const defs = this.served.get(name) ?? [];
      if (!crd || !(crd.metadata.finalizers ?? []).includes(customResourceCleanupFinalizer)) return;
      const terminating = crd.status?.conditions?.find((c) => c.type === 'Terminating');
      if (terminating?.reason !== 'InstanceDeletionInProgress') {
        const next = structuredClone(crd);
        setCrdCondition(next, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' }, rfc3339(this.clock.now()));
        if (!(await this.writeStatus(next))) {
          this.retry(name);
          return;
        }
      }
      let remaining = 0;
      if (defs.length > 0) {
        const store = this.context.storeFor(defs[0]);
        const list = await store.list(undefined);
        for (const object of list.items) {
          remaining++;
          if (object.metadata.deletionTimestamp) continue;
          try {
            await store.delete(object.metadata.namespace, object.metadata.name ?? '', { propagationPolicy: 'Background' });
          } catch (err) {
            if (!(isStatusError(err) && err.code === 404)) throw err;
          }
        }
        if (remaining > 0) remaining = (await store.list(undefined)).items.length;
      }
      if (remaining > 0) {
        this.retry(name);
        return;
      }
      const latest = this.crds.get(name) ?? crd;
      const finalizers = (latest.metadata.finalizers ?? []).filter((f) => f !== customResourceCleanupFinalizer);
      const def = this.crdDefinition;
      if (!def) return;
      try {
        await this.context.storeFor(def).update(undefined, name, { ...latest, metadata: { ...latest.metadata, finalizers } });
      } catch (err) {
        if (!(isStatusError(err) && (err.code === 409 || err.code === 404))) throw err;
        this.retry(name);
      }
    } catch (err) {
      this.retry(name);
      throw err;
    } finally {
      this.cleaning.delete(name);
    }
  }
}
