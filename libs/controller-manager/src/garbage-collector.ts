// GarbageCollector follows ownerReferences, as Kubernetes' garbage collector does, over the
// resources discovery lists (list, watch and delete verbs), carrying out the decisions of
// @plinth/controllers (garbageAction, foregroundPlan, ...):
// - an object whose owners are all gone is deleted (in the background);
// - an owner deleted in the foreground (finalizer foregroundDeletion) has its dependents deleted
//   first, and loses the finalizer once no dependent with blockOwnerDeletion is left;
// - an owner deleted with the orphan policy (finalizer orphan) has its ownerReferences removed
//   from its dependents, then loses the finalizer.
// A malformed ownerReference is skipped, and reported once per object, rather than failing
// every sync of the object.
import { KubeObject, OwnerReference } from '@plinth/api';
import { ApiClient, resourcePath } from '@plinth/client';
import { finalizersWithout, foregroundDeletion, foregroundPlan, garbageAction, orphanFinalizer, ownerGroups, ownerReferences, referencesWithout } from '@plinth/controllers';
import { Clock, isStatusError } from '@plinth/machinery';
import { Controller, ControllerOptions, ControllerRunner, tolerating } from './controller-runner';
import { groupDiscoveryFailedMessage, serverPreferredResources } from './discovery';

export type GarbageCollectorOptions = Omit<ControllerOptions, 'resyncPeriodMs'>;

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

// graphObject is what the graph keeps of an object, as kube-controller-manager's garbage
// collector keeps a node's identity and owners only: the metadata the decisions and the
// informer read (name, namespace, uid, resourceVersion, deletion, finalizers, owners), always
// in one shape; its type is the node's resource.
export function graphObject(object: KubeObject): KubeObject {
  const { name, namespace, uid, resourceVersion, deletionTimestamp, finalizers, ownerReferences } = object.metadata;
  return { metadata: { name, namespace, uid, resourceVersion, deletionTimestamp, finalizers, ownerReferences } };
}

// gone are the answers that mean the change is moot: the object is gone or was replaced.
const gone = [404, 409];

export class GarbageCollector implements Controller {
  private readonly runner: ControllerRunner;
  private readonly nodes = new Map<string, Node>();
  private readonly dependents = new Map<string, Set<string>>();
  private resources: Resource[] = [];
  private readonly reportedBadReferences = new Set<string>();

  constructor(
    private readonly client: ApiClient,
    clock: Clock,
    options: GarbageCollectorOptions = {},
  ) {
    this.runner = new ControllerRunner(client, clock, { queue: { name: 'garbage_collector_attempt_to_delete' }, workers: options.workers ?? 4, onError: options.onError });
  }

  async start(): Promise<void> {
    this.resources = await this.discover();
    for (const resource of this.resources) {
      this.runner.watch(
        resourcePath({ group: resource.group, version: resource.version, resource: resource.resource }),
        {
          onAdd: (o) => this.observe(o, resource),
          onUpdate: (o) => this.observe(o, resource),
          onDelete: (o) => this.forget(o),
        },
        { transform: graphObject },
      );
    }
    await this.runner.run((uid) => this.sync(uid));
  }

  stop(): Promise<void> {
    return this.runner.stop();
  }

  private async discover(): Promise<Resource[]> {
    // As Kubernetes' garbage collector, work with the groups discovery found.
    const { resources, failedGroups } = await serverPreferredResources(this.client);
    if (failedGroups.size > 0) this.runner.onError(new Error(groupDiscoveryFailedMessage(failedGroups)));
    return resources
      .filter((r) => ['list', 'watch', 'delete'].every((v) => r.verbs.includes(v)))
      .map(({ group, version, resource, kind, namespaced }) => ({ group, version, resource, kind, namespaced }));
  }

  // ownerReferencesOf lists an object's well-formed owner references, reporting the others once.
  private ownerReferencesOf(object: KubeObject): OwnerReference[] {
    const { references, malformed } = ownerReferences(object);
    const uid = object.metadata.uid ?? '';
    if (malformed > 0 && !this.reportedBadReferences.has(uid)) {
      this.reportedBadReferences.add(uid);
      const where = `${object.metadata.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata.name ?? ''}`;
      this.runner.onError(new Error(`garbage collector: ignoring ${malformed} malformed ownerReferences of ${where} (uid ${uid})`));
    }
    return references;
  }

  private observe(object: KubeObject, resource: Resource): void {
    const uid = object.metadata.uid ?? '';
    const previous = this.nodes.get(uid);
    for (const ref of previous ? this.ownerReferencesOf(previous.object) : []) this.dependents.get(ref.uid)?.delete(uid);
    this.nodes.set(uid, { object, resource });
    const references = this.ownerReferencesOf(object);
    for (const ref of references) {
      let set = this.dependents.get(ref.uid);
      if (!set) this.dependents.set(ref.uid, (set = new Set()));
      set.add(uid);
      this.runner.queue.add(ref.uid);
    }
    // An object with no owner that is not being deleted has nothing to collect (its sync would
    // return at once): it is not queued, as Kubernetes' graph builder queues only owners and
    // dependents to look at. Every write to the API would otherwise pass through the queue.
    if (references.length > 0 || garbageAction(object) !== 'collectIfOrphaned') this.runner.queue.add(uid);
  }

  private forget(object: KubeObject): void {
    const uid = object.metadata.uid ?? '';
    this.nodes.delete(uid);
    this.reportedBadReferences.delete(uid);
    for (const ref of this.ownerReferencesOf(object)) {
      this.dependents.get(ref.uid)?.delete(uid);
      this.runner.queue.add(ref.uid);
    }
    for (const dependent of this.dependents.get(uid) ?? []) this.runner.queue.add(dependent);
  }

  private dependentNodes(owner: Node): Node[] {
    return [...(this.dependents.get(owner.object.metadata.uid ?? '') ?? [])].flatMap((uid) => this.nodes.get(uid) ?? []);
  }

  private async sync(uid: string): Promise<void> {
    const node = this.nodes.get(uid);
    if (!node) return;
    switch (garbageAction(node.object)) {
      case 'orphanDependents':
        return this.orphanDependents(node);
      case 'deleteDependentsFirst':
        return this.deleteDependentsFirst(node);
      case 'collectIfOrphaned':
        return this.collectIfOrphaned(node);
    }
  }

  private async collectIfOrphaned(node: Node): Promise<void> {
    const refs = this.ownerReferencesOf(node.object);
    if (refs.length === 0 || node.object.metadata.deletionTimestamp) return;
    for (const ref of refs) if (await this.ownerExists(ref, node)) return;
    await tolerating(this.client.delete(this.pathOf(node), { propagationPolicy: 'Background', preconditions: { uid: node.object.metadata.uid } }), gone);
  }

  // ownerExists asks the API when the graph does not know the owner (it may not be watched).
  private async ownerExists(ref: OwnerReference, dependent: Node): Promise<boolean> {
    if (this.nodes.has(ref.uid)) return true;
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

  // resourceOfKind finds the resource an owner reference names; a reference written in a
  // *.k8s.io alias group names the *.platform.io group's resource (the same objects).
  private resourceOfKind(ref: OwnerReference): Resource | undefined {
    const [group, version] = ref.apiVersion.includes('/') ? ref.apiVersion.split('/') : ['', ref.apiVersion];
    const groups = ownerGroups(group);
    return this.resources.find((r) => r.kind === ref.kind && groups.includes(r.group) && r.version === version);
  }

  private async deleteDependentsFirst(owner: Node): Promise<void> {
    const dependents = this.dependentNodes(owner);
    const plan = foregroundPlan(owner.object, dependents.map((d) => d.object));
    // A dependent with dependents of its own goes in the foreground too; one without goes in the
    // background, so that it never carries a foregroundDeletion finalizer it has no use for
    // (attemptToDeleteItem).
    for (const dependent of dependents.filter((d) => plan.toDelete.includes(d.object))) {
      const propagationPolicy = this.dependentNodes(dependent).length > 0 ? 'Foreground' : 'Background';
      await tolerating(this.client.delete(this.pathOf(dependent), { propagationPolicy, preconditions: { uid: dependent.object.metadata.uid } }), gone);
    }
    if (plan.removeFinalizer) await this.removeFinalizer(owner, foregroundDeletion);
  }

  private async orphanDependents(owner: Node): Promise<void> {
    const ownerUid = owner.object.metadata.uid ?? '';
    for (const dependent of this.dependentNodes(owner)) {
      const uid = dependent.object.metadata.uid;
      await tolerating(this.client.patch(this.pathOf(dependent), 'merge', { metadata: { ownerReferences: referencesWithout(dependent.object, ownerUid), uid } }), gone);
    }
    await this.removeFinalizer(owner, orphanFinalizer);
  }

  private async removeFinalizer(node: Node, finalizer: string): Promise<void> {
    const patch = { metadata: { finalizers: finalizersWithout(node.object, finalizer), resourceVersion: node.object.metadata.resourceVersion } };
    await tolerating(this.client.patch(this.pathOf(node), 'merge', patch), gone);
  }

  private pathOf(node: Node): string {
    return resourcePath({ ...node.resource, namespace: node.resource.namespaced ? node.object.metadata.namespace : undefined, name: node.object.metadata.name });
  }
}

