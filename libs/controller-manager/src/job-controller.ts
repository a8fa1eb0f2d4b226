// JobController runs the Job sync of @plinth/controllers against the API: informers on Jobs and
// pods feed a keyed work queue; each sync carries out the plan in its required order: status
// first, then deletions, creations, and only then the removal of tracking finalizers from
// counted pods. Expectations hold scaling until the pods created and deleted are seen.
import { KubeObject } from '@plinth/api';
import { ApiClient, Informer, objectKey, resourcePath, runWorkers, WorkQueue } from '@plinth/client';
import { BackoffRecord, Job, JobPod, JobTrackingFinalizer, syncJob } from '@plinth/controllers';
import { Clock, isStatusError } from '@plinth/machinery';

interface Expectations {
  adds: number;
  deletes: Set<string>;
}

export class JobController {
  private readonly jobs: Informer;
  private readonly pods: Informer;
  private readonly queue: WorkQueue;
  private readonly expectations = new Map<string, Expectations>();
  private readonly backoff = new Map<string, BackoffRecord>();
  private running: Promise<void> | null = null;

  constructor(
    private readonly client: ApiClient,
    private readonly clock: Clock,
    private readonly featureGates: ReadonlyMap<string, boolean>,
    private readonly workers = 5,
    private readonly onError: (err: unknown) => void = () => undefined,
    // resyncPeriodMs re-delivers every Job each period (0: never).
    resyncPeriodMs = 0,
  ) {
    this.jobs = new Informer(client, resourcePath({ group: 'batch', version: 'v1', resource: 'jobs' }), clock, {}, onError, resyncPeriodMs);
    this.pods = new Informer(client, resourcePath({ group: '', version: 'v1', resource: 'pods' }), clock, {}, onError);
    this.queue = new WorkQueue(clock, { name: 'job' });
    this.jobs.addHandlers({ onAdd: (o) => this.queue.add(objectKey(o)), onUpdate: (o) => this.queue.add(objectKey(o)), onDelete: (o) => this.forget(objectKey(o)) });
    this.pods.addHandlers({
      onAdd: (o) => {
        const key = this.ownerKey(o);
        const e = key ? this.expectations.get(key) : undefined;
        if (e && e.adds > 0) e.adds--;
        if (key) this.queue.add(key);
      },
      onUpdate: (o) => {
        const key = this.ownerKey(o);
        if (key) this.queue.add(key);
      },
      onDelete: (o) => {
        const key = this.ownerKey(o);
        if (key) {
          this.expectations.get(key)?.deletes.delete(o.metadata.name ?? '');
          this.queue.add(key);
        }
      },
    });
  }

  async start(): Promise<void> {
    this.jobs.start();
    this.pods.start();
    await Promise.all([this.jobs.hasSynced(), this.pods.hasSynced()]);
    this.running = runWorkers(this.queue, this.workers, (key) => this.sync(key), (_k, err) => this.onError(err));
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    this.jobs.stop();
    this.pods.stop();
    await this.running;
  }

  private forget(key: string): void {
    this.expectations.delete(key);
    this.backoff.delete(key);
  }

  private ownerKey(pod: KubeObject): string | null {
    const owner = (pod.metadata.ownerReferences ?? []).find((r) => r.controller && r.kind === 'Job');
    return owner ? `${pod.metadata.namespace}/${owner.name}` : null;
  }

  private async sync(key: string): Promise<void> {
    const job = this.jobs.get(key);
    if (!job) return this.forget(key);
    const namespace = job.metadata.namespace ?? '';
    const owned = this.pods.list().filter((p) => p.metadata.namespace === namespace && (p.metadata.ownerReferences ?? []).some((r) => r.controller && r.uid === job.metadata.uid));
    const e = this.expectations.get(key);
    const plan = syncJob({
      job: job as unknown as Job,
      pods: owned as unknown as JobPod[],
      now: this.clock.now(),
      featureGates: this.featureGates,
      backoff: this.backoff.get(key),
      expectationsSatisfied: !e || (e.adds <= 0 && e.deletes.size === 0),
    });
    if (plan.skipped) return;
    if (plan.backoff) this.backoff.set(key, plan.backoff);
    else this.backoff.delete(key);
    const jobPath = resourcePath({ group: 'batch', version: 'v1', resource: 'jobs', namespace, name: job.metadata.name });
    const podsPath = resourcePath({ group: '', version: 'v1', resource: 'pods', namespace });
    if (plan.statusChanged) await this.client.update(`${jobPath}/status`, { ...job, status: plan.status });
    if (plan.create.length > 0 || plan.delete.length > 0) {
      this.expectations.set(key, { adds: plan.create.length, deletes: new Set(plan.delete.map((d) => d.pod.metadata.name ?? '')) });
    }
    for (const deletion of plan.delete) {
      const name = deletion.pod.metadata.name ?? '';
      if (deletion.removeFinalizerFirst) await this.removeTrackingFinalizer(`${podsPath}/${name}`, deletion.pod as unknown as KubeObject);
      await this.tolerate(this.client.delete(`${podsPath}/${name}`), [404], () => this.expectations.get(key)?.deletes.delete(name));
    }
    for (const pod of plan.create) {
      await this.tolerate(this.client.create(podsPath, pod), [], () => {
        const pending = this.expectations.get(key);
        if (pending) pending.adds--;
      });
    }
    for (const pod of plan.removeFinalizers) await this.removeTrackingFinalizer(`${podsPath}/${pod.metadata.name}`, pod as unknown as KubeObject);
    if (plan.requeueAfterMs !== undefined) this.queue.addAfter(key, plan.requeueAfterMs);
  }

  private async removeTrackingFinalizer(path: string, pod: KubeObject): Promise<void> {
    const finalizers = (pod.metadata.finalizers ?? []).filter((f) => f !== JobTrackingFinalizer);
    await this.tolerate(this.client.patch(path, 'merge', { metadata: { finalizers: finalizers.length ? finalizers : null } }), [404]);
  }

  // tolerate ignores the listed status codes; on any failure it runs onFailure first.
  private async tolerate(call: Promise<unknown>, codes: number[], onFailure: () => void = () => undefined): Promise<void> {
    try {
      await call;
    } catch (err) {
      onFailure();
      if (!(isStatusError(err) && codes.includes(err.code))) throw err;
    }
  }
}
