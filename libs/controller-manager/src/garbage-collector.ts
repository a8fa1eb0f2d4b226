// GarbageCollector follows ownerReferences, as Kubernetes' garbage collector does, over the
// resources discovery lists (list, watch and delete verbs):
// - an object whose owners are all gone is deleted (in the background);
// - an owner deleted in the foreground (finalizer foregroundDeletion) has its dependents deleted
//   first, and loses the finalizer once no dependent with blockOwnerDeletion is left;
// - an owner deleted with the orphan policy (finalizer orphan) has its ownerReferences removed
//   from its dependents, then loses the finalizer.
// An ownerReference the API would refuse today (null, or without apiVersion, kind, name or uid:
// stored before it was validated, or written around the API) is skipped, and reported once per
// object, rather than failing every sync of the object.
import { KubeObject, OwnerReference } from '@plinth/api';
import { ApiClient, Informer, resourcePath, runWorkers, WorkQueue } from '@plinth/client';
import { Clock, isStatusError } from '@plinth/machinery';
import { groupDiscoveryFailedMessage, serverPreferredResources } from './discovery';

interface Resource {
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
}

interface Node {
  object: KubeObject;
  resource: Resource;
}

const foregroundDeletion = 'foregroundDeletion';
const orphan = 'orphan';

export class GarbageCollector {
  private readonly informers: Informer[] = [];
  private readonly nodes = new Map<string, Node>();
  private readonly dependents = new Map<string, Set<string>>();
  private readonly queue: WorkQueue;
  private resources: Resource[] = [];
  private running: Promise<void> | null = null;
  private readonly reportedBadReferences = new Set<string>();

  constructor(
    private readonly client: ApiClient,
    private readonly clock: Clock,
    private readonly workers = 4,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    this.queue = new WorkQueue(clock, { name: 'garbage_collector_attempt_to_delete' });
  }

  async start(): Promise<void> {
    this.resources = await this.discover();
    for (const resource of this.resources) {
      const informer = new Informer(this.client, resourcePath({ group: resource.group, version: resource.version, resource: resource.resource }), this.clock, {}, this.onError);
      informer.addHandlers({
        onAdd: (o) => this.observe(o, resource),
        onUpdate: (o) => this.observe(o, resource),
        onDelete: (o) => this.forget(o),
      });
      this.informers.push(informer);
      informer.start();
    }
    await Promise.all(this.informers.map((i) => i.hasSynced()));
    this.running = runWorkers(this.queue, this.workers, (uid) => this.sync(uid), (_k, err) => this.onError(err));
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    for (const informer of this.informers) informer.stop();
    await this.running;
  }

  private async discover(): Promise<Resource[]> {
    // As Kubernetes' garbage collector, work with the groups discovery found.
    const { resources, failedGroups } = await serverPreferredResources(this.client);
    if (failedGroups.size > 0) this.onError(new Error(groupDiscoveryFailedMessage(failedGroups)));
    return resources
      .filter((r) => ['list', 'watch', 'delete'].every((v) => r.verbs.includes(v)))
      .map(({ group, version, resource, kind, namespaced }) => ({ group, version, resource, kind, namespaced }));
  }

  // ownerReferencesOf lists an object's well-formed owner references.
  private ownerReferencesOf(object: KubeObject): OwnerReference[] {
    const refs: unknown = object.metadata.ownerReferences;
    if (refs === undefined || refs === null) return [];
    const all: unknown[] = Array.isArray(refs) ? refs : [refs];
    const wellFormed = all.filter(isWellFormedOwnerReference);
    const uid = object.metadata.uid ?? '';
    if (wellFormed.length < all.length && !this.reportedBadReferences.has(uid)) {
      this.reportedBadReferences.add(uid);
      const where = `${object.metadata.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata.name ?? ''}`;
      this.onError(new Error(`garbage collector: ignoring ${all.length - wellFormed.length} malformed ownerReferences of ${where} (uid ${uid})`));
    }
    return wellFormed;
  }

  private observe(object: KubeObject, resource: Resource): void {
    const uid = object.metadata.uid ?? '';
    const previous = this.nodes.get(uid);
    for (const ref of previous ? this.ownerReferencesOf(previous.object) : []) this.dependents.get(ref.uid)?.delete(uid);
    this.nodes.set(uid, { object, resource });
    for (const ref of this.ownerReferencesOf(object)) {
      let set = this.dependents.get(ref.uid);
      if (!set) this.dependents.set(ref.uid, (set = new Set()));
      set.add(uid);
      this.queue.add(ref.uid);
    }
    this.queue.add(uid);
  }

  private forget(object: KubeObject): void {
    const uid = object.metadata.uid ?? '';
    this.nodes.delete(uid);
    this.reportedBadReferences.delete(uid);
    for (const ref of this.ownerReferencesOf(object)) {
      this.dependents.get(ref.uid)?.delete(uid);
      this.queue.add(ref.uid);
    }
    for (const dependent of this.dependents.get(uid) ?? []) this.queue.add(dependent);
  }

  private async sync(uid: string): Promise<void> {
    const node = this.nodes.get(uid);
    if (!node) return;
    const { object } = node;
    const finalizers = object.metadata.finalizers ?? [];
    if (object.metadata.deletionTimestamp && finalizers.includes(orphan)) return this.orphanDependents(node);
    if (object.metadata.deletionTimestamp && finalizers.includes(foregroundDeletion)) return this.deleteDependentsFirst(node);
    await this.collectIfOrphaned(node);
  }

  private async collectIfOrphaned(node: Node): Promise<void> {
    const refs = this.ownerReferencesOf(node.object);
    if (refs.length === 0 || node.object.metadata.deletionTimestamp) return;
    for (const ref of refs) if (await this.ownerExists(ref, node)) return;
    await this.ignoreGone(this.client.delete(this.pathOf(node), { propagationPolicy: 'Background', preconditions: { uid: node.object.metadata.uid } }));
  }

  // ownerExists asks the API when the graph does not know the owner (it may not be watched).
  private async ownerExists(ref: OwnerReference, dependent: Node): Promise<boolean> {
    const known = this.nodes.get(ref.uid);
    if (known) return true;
    const owner = this.resourceOfKind(ref);
    if (!owner) return true;
    try {
      const found = await this.client.get(resourcePath({ ...owner, namespace: owner.namespaced ? dependent.object.metadata.namespace : undefined, name: ref.name }));
      return found.metadata.uid === ref.uid;
    } catch (err) {
      if (isStatusError(err) && err.code === 404) return false;
      throw err;
    }
  }

  private resourceOfKind(ref: OwnerReference): Resource | undefined {
    const [group, version] = ref.apiVersion.includes('/') ? ref.apiVersion.split('/') : ['', ref.apiVersion];
    return this.resources.find((r) => r.kind === ref.kind && r.group === group && r.version === version);
  }

  private async deleteDependentsFirst(owner: Node): Promise<void> {
    let blocking = 0;
    for (const uid of this.dependents.get(owner.object.metadata.uid ?? '') ?? []) {
      const dependent = this.nodes.get(uid);
      if (!dependent) continue;
      const ref = this.ownerReferencesOf(dependent.object).find((r) => r.uid === owner.object.metadata.uid);
      if (ref?.blockOwnerDeletion) blocking++;
      if (!dependent.object.metadata.deletionTimestamp) {
        await this.ignoreGone(this.client.delete(this.pathOf(dependent), { propagationPolicy: 'Foreground', preconditions: { uid } }));
      }
    }
    if (blocking === 0) await this.removeFinalizer(owner, foregroundDeletion);
  }

  private async orphanDependents(owner: Node): Promise<void> {
    const ownerUid = owner.object.metadata.uid ?? '';
    for (const uid of [...(this.dependents.get(ownerUid) ?? [])]) {
      const dependent = this.nodes.get(uid);
      if (!dependent) continue;
      const refs = this.ownerReferencesOf(dependent.object).filter((r) => r.uid !== ownerUid);
      await this.ignoreGone(
        this.client.patch(this.pathOf(dependent), 'merge', { metadata: { ownerReferences: refs.length ? refs : null, uid } }),
      );
    }
    await this.removeFinalizer(owner, orphan);
  }

  private async removeFinalizer(node: Node, finalizer: string): Promise<void> {
    const finalizers = (node.object.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    await this.ignoreGone(
      this.client.patch(this.pathOf(node), 'merge', { metadata: { finalizers: finalizers.length ? finalizers : null, resourceVersion: node.object.metadata.resourceVersion } }),
    );
  }

  private pathOf(node: Node): string {
    return resourcePath({ ...node.resource, namespace: node.resource.namespaced ? node.object.metadata.namespace : undefined, name: node.object.metadata.name });
  }

  private async ignoreGone(call: Promise<unknown>): Promise<void> {
    try {
      await call;
    } catch (err) {
      if (isStatusError(err) && (err.code === 404 || err.code === 409)) {
        return;
      }
      throw err;
    }
  }
}

// isWellFormedOwnerReference holds for an owner reference validation accepts: an object with a
// non-empty apiVersion, kind, name and uid.
function isWellFormedOwnerReference(ref: unknown): ref is OwnerReference {
  if (typeof ref !== 'object' || ref === null || Array.isArray(ref)) return false;
  const r = ref as Record<string, unknown>;
  return ['apiVersion', 'kind', 'name', 'uid'].every((k) => typeof r[k] === 'string' && r[k] !== '');
}
