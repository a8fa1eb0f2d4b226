// DaemonSetController runs the DaemonSet sync of @plinth/controllers against the API: informers
// on DaemonSets, nodes, pods and ControllerRevisions feed a keyed work queue; each sync turns
// the plan into API calls (revisions, pod labels, pod creations and deletions, status).
// Expectations hold the next placement until the creations and deletions it made are seen.
import { KubeObject } from '@plinth/api';
import { ApiClient, Informer, objectKey, resourcePath, runWorkers, WorkQueue } from '@plinth/client';
import { BackoffEntry, ControllerRevision, DaemonPod, DaemonSet, Node, syncDaemonSet } from '@plinth/controllers';
import { Clock, isStatusError } from '@plinth/machinery';

const paths = {
  daemonsets: resourcePath({ group: 'apps', version: 'v1', resource: 'daemonsets' }),
  pods: resourcePath({ group: '', version: 'v1', resource: 'pods' }),
  nodes: resourcePath({ group: '', version: 'v1', resource: 'nodes' }),
  revisions: resourcePath({ group: 'apps', version: 'v1', resource: 'controllerrevisions' }),
};

interface Expectations {
  adds: number;
  deletes: Set<string>;
}

export class DaemonSetController {
  private readonly daemonSets: Informer;
  private readonly pods: Informer;
  private readonly nodes: Informer;
  private readonly revisions: Informer;
  private readonly queue: WorkQueue;
  private readonly expectations = new Map<string, Expectations>();
  private backoff: Map<string, BackoffEntry> = new Map();
  private running: Promise<void> | null = null;

  constructor(
    private readonly client: ApiClient,
    private readonly clock: Clock,
    private readonly workers = 2,
    private readonly onError: (err: unknown) => void = () => undefined,
    // resyncPeriodMs re-delivers every DaemonSet each period (0: never).
    resyncPeriodMs = 0,
  ) {
    this.daemonSets = new Informer(client, paths.daemonsets, clock, {}, onError, resyncPeriodMs);
    this.pods = new Informer(client, paths.pods, clock, {}, onError);
    this.nodes = new Informer(client, paths.nodes, clock, {}, onError);
    this.revisions = new Informer(client, paths.revisions, clock, {}, onError);
    this.queue = new WorkQueue(clock, { name: 'daemonset' });
    this.daemonSets.addHandlers({ onAdd: (o) => this.queue.add(objectKey(o)), onUpdate: (o) => this.queue.add(objectKey(o)) });
    const byOwner = (o: KubeObject) => {
      const owner = (o.metadata.ownerReferences ?? []).find((r) => r.controller && r.kind === 'DaemonSet');
      if (owner) this.queue.add(`${o.metadata.namespace}/${owner.name}`);
    };
    this.pods.addHandlers({
      onAdd: (o) => {
        this.observeAdd(o);
        byOwner(o);
      },
      onUpdate: byOwner,
      onDelete: (o) => {
        this.observeDelete(o);
        byOwner(o);
      },
    });
    this.revisions.addHandlers({ onAdd: byOwner, onUpdate: byOwner, onDelete: byOwner });
    const all = () => this.daemonSets.list().forEach((ds) => this.queue.add(objectKey(ds)));
    this.nodes.addHandlers({ onAdd: all, onUpdate: all, onDelete: all });
  }

  async start(): Promise<void> {
    for (const informer of [this.daemonSets, this.pods, this.nodes, this.revisions]) informer.start();
    await Promise.all([this.daemonSets, this.pods, this.nodes, this.revisions].map((i) => i.hasSynced()));
    this.running = runWorkers(this.queue, this.workers, (key) => this.sync(key), (_k, err) => this.onError(err));
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    for (const informer of [this.daemonSets, this.pods, this.nodes, this.revisions]) informer.stop();
    await this.running;
  }

  private ownerKey(o: KubeObject): string | null {
    const owner = (o.metadata.ownerReferences ?? []).find((r) => r.controller && r.kind === 'DaemonSet');
    return owner ? `${o.metadata.namespace}/${owner.name}` : null;
  }

  private observeAdd(o: KubeObject): void {
    const key = this.ownerKey(o);
    const e = key ? this.expectations.get(key) : undefined;
    if (e && e.adds > 0) e.adds--;
  }

  private observeDelete(o: KubeObject): void {
    const key = this.ownerKey(o);
    if (key) this.expectations.get(key)?.deletes.delete(o.metadata.name ?? '');
  }

  private satisfied(key: string): boolean {
    const e = this.expectations.get(key);
    return !e || (e.adds <= 0 && e.deletes.size === 0);
  }

  private async sync(key: string): Promise<void> {
    const ds = this.daemonSets.get(key);
    if (!ds) {
      this.expectations.delete(key);
      return;
    }
    const namespace = ds.metadata.namespace ?? '';
    const inNamespace = (o: KubeObject) => o.metadata.namespace === namespace;
    const plan = syncDaemonSet({
      daemonSet: ds as unknown as DaemonSet,
      nodes: this.nodes.list() as unknown as Node[],
      pods: this.pods.list().filter(inNamespace) as unknown as DaemonPod[],
      revisions: this.revisions.list().filter(inNamespace) as unknown as ControllerRevision[],
      now: this.clock.now(),
      failedPodsBackoff: this.backoff,
      expectationsSatisfied: this.satisfied(key),
    });
    this.backoff = new Map([...this.backoff, ...plan.failedPodsBackoff]);
    const revisions = resourcePath({ group: 'apps', version: 'v1', resource: 'controllerrevisions', namespace });
    const pods = resourcePath({ group: '', version: 'v1', resource: 'pods', namespace });
    for (const revision of plan.revisionsToCreate) await this.tolerate(this.client.create(revisions, revision), [409]);
    for (const revision of plan.revisionsToUpdate) await this.tolerate(this.client.update(`${revisions}/${revision.metadata.name}`, revision), [404, 409]);
    for (const name of plan.revisionsToDelete) await this.tolerate(this.client.delete(`${revisions}/${name}`), [404]);
    for (const { name, hash } of plan.podsToRelabel) {
      await this.tolerate(this.client.patch(`${pods}/${name}`, 'merge', { metadata: { labels: { 'controller-revision-hash': hash } } }), [404]);
    }
    if (plan.podsToCreate.length > 0 || plan.podsToDelete.length > 0) {
      this.expectations.set(key, { adds: plan.podsToCreate.length, deletes: new Set(plan.podsToDelete) });
    }
    for (const { pod } of plan.podsToCreate) {
      try {
        await this.client.create(pods, pod);
      } catch (err) {
        const e = this.expectations.get(key);
        if (e) e.adds--;
        throw err;
      }
    }
    for (const name of plan.podsToDelete) {
      try {
        await this.client.delete(`${pods}/${name}`);
      } catch (err) {
        this.expectations.get(key)?.deletes.delete(name);
        if (!(isStatusError(err) && err.code === 404)) throw err;
      }
    }
    if (plan.status && plan.statusChanged) {
      await this.tolerate(this.client.update(`${resourcePath({ group: 'apps', version: 'v1', resource: 'daemonsets', namespace, name: ds.metadata.name })}/status`, { ...ds, status: plan.status }), [404]);
    }
    if (plan.requeueAfterMs !== undefined) this.queue.addAfter(key, plan.requeueAfterMs);
  }

  private async tolerate(call: Promise<unknown>, codes: number[]): Promise<void> {
    try {
      await call;
    } catch (err) {
      if (!(isStatusError(err) && codes.includes(err.code))) throw err;
    }
  }
}
