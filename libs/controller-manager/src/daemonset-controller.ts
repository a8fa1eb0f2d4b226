// DaemonSetController runs the DaemonSet sync of @plinth/controllers against the API: informers
// on DaemonSets, nodes, pods and ControllerRevisions feed a keyed work queue; each sync turns
// the plan into API calls (revisions, pod labels, pod creations and deletions, status).
// Expectations hold the next placement until the creations and deletions it made are seen.
import { ControllerRevision, DaemonSet, KubeObject, Node, Pod } from '@plinth/api';
import { ApiClient, Informer, objectKey, resourcePath } from '@plinth/client';
import { BackoffEntry, syncDaemonSet } from '@plinth/controllers';
import { Clock, isStatusError } from '@plinth/machinery';
import { controllerPodMetrics, defaultRegistry } from '@plinth/metrics';
import { Controller, ControllerOptions, controllerOwnerKey, ControllerRunner, tolerating } from './controller-runner';
import { Expectations } from './expectations';

export type DaemonSetControllerOptions = ControllerOptions;

const paths = {
  daemonsets: resourcePath({ group: 'apps', version: 'v1', resource: 'daemonsets' }),
  pods: resourcePath({ group: '', version: 'v1', resource: 'pods' }),
  nodes: resourcePath({ group: '', version: 'v1', resource: 'nodes' }),
  revisions: resourcePath({ group: 'apps', version: 'v1', resource: 'controllerrevisions' }),
};

export class DaemonSetController implements Controller {
  private readonly runner: ControllerRunner;
  private readonly daemonSets: Informer;
  private readonly pods: Informer;
  private readonly nodes: Informer;
  private readonly revisions: Informer;
  private readonly expectations = new Expectations();
  private readonly podMetrics = controllerPodMetrics(defaultRegistry(), 'daemonset');
  private backoff: Map<string, BackoffEntry> = new Map();

  constructor(
    private readonly client: ApiClient,
    private readonly clock: Clock,
    options: DaemonSetControllerOptions = {},
  ) {
    const runner = (this.runner = new ControllerRunner(client, clock, { queue: { name: 'daemonset' }, workers: options.workers ?? 2, onError: options.onError }));
    const ownerKey = (o: KubeObject) => controllerOwnerKey(o, 'DaemonSet');
    const byOwner = runner.enqueue(ownerKey);
    this.daemonSets = runner.watch(paths.daemonsets, { onAdd: runner.enqueue(objectKey), onUpdate: runner.enqueue(objectKey) }, { resyncPeriodMs: options.resyncPeriodMs });
    this.pods = runner.watch(paths.pods, {
      onAdd: (o) => {
        const key = ownerKey(o);
        if (key) this.expectations.creationObserved(key);
        byOwner(o);
      },
      onUpdate: byOwner,
      onDelete: (o) => {
        const key = ownerKey(o);
        if (key) this.expectations.deletionObserved(key, o.metadata.name ?? '');
        byOwner(o);
      },
    });
    const all = () => this.daemonSets.list().forEach((ds) => runner.queue.add(objectKey(ds)));
    this.nodes = runner.watch(paths.nodes, { onAdd: all, onUpdate: all, onDelete: all });
    this.revisions = runner.watch(paths.revisions, { onAdd: byOwner, onUpdate: byOwner, onDelete: byOwner });
  }

  start(): Promise<void> {
    return this.runner.run((key) => this.sync(key));
  }

  stop(): Promise<void> {
    return this.runner.stop();
  }

  private async sync(key: string): Promise<void> {
    const ds = this.daemonSets.get(key);
    if (!ds) {
      this.expectations.forget(key);
      return;
    }
    const namespace = ds.metadata.namespace ?? '';
    const inNamespace = (o: KubeObject) => o.metadata.namespace === namespace;
    const plan = syncDaemonSet({
      daemonSet: ds as unknown as DaemonSet,
      nodes: this.nodes.list() as unknown as Node[],
      pods: this.pods.list().filter(inNamespace) as unknown as Pod[],
      revisions: this.revisions.list().filter(inNamespace) as unknown as ControllerRevision[],
      now: this.clock.now(),
      failedPodsBackoff: this.backoff,
      expectationsSatisfied: this.expectations.satisfied(key),
    });
    this.backoff = new Map([...this.backoff, ...plan.failedPodsBackoff]);
    const revisions = resourcePath({ group: 'apps', version: 'v1', resource: 'controllerrevisions', namespace });
    const pods = resourcePath({ group: '', version: 'v1', resource: 'pods', namespace });
    for (const revision of plan.revisionsToCreate) await tolerating(this.client.create(revisions, revision), [409]);
    for (const revision of plan.revisionsToUpdate) await tolerating(this.client.update(`${revisions}/${revision.metadata.name}`, revision), [404, 409]);
    for (const name of plan.revisionsToDelete) await tolerating(this.client.delete(`${revisions}/${name}`), [404]);
    for (const { name, hash } of plan.podsToRelabel) {
      await tolerating(this.client.patch(`${pods}/${name}`, 'merge', { metadata: { labels: { 'controller-revision-hash': hash } } }), [404]);
    }
    if (plan.podsToCreate.length > 0 || plan.podsToDelete.length > 0) this.expectations.expect(key, plan.podsToCreate.length, plan.podsToDelete);
    for (const { pod } of plan.podsToCreate) {
      try {
        await this.client.create(pods, pod);
        this.podMetrics.created.inc();
      } catch (err) {
        this.expectations.creationObserved(key);
        throw err;
      }
    }
    for (const name of plan.podsToDelete) {
      try {
        await this.client.delete(`${pods}/${name}`);
        this.podMetrics.deleted.inc();
      } catch (err) {
        this.expectations.deletionObserved(key, name);
        if (!(isStatusError(err) && err.code === 404)) throw err;
      }
    }
    if (plan.status && plan.statusChanged) {
      const status = `${resourcePath({ group: 'apps', version: 'v1', resource: 'daemonsets', namespace, name: ds.metadata.name })}/status`;
      await tolerating(this.client.update(status, { ...ds, status: plan.status }), [404]);
    }
    if (plan.requeueAfterMs !== undefined) this.runner.queue.addAfter(key, plan.requeueAfterMs);
  }
}
