// JobController runs the Job sync of @plinth/controllers against the API: informers on Jobs and
// pods feed a keyed work queue; each sync carries out the plan in its required order: status
// first, then deletions, creations, and only then the removal of tracking finalizers from
// counted pods. Expectations hold scaling until the pods created and deleted are seen. Each sync
// is measured as kube-controller-manager measures it (job_controller_job_sync_duration_seconds,
// job_controller_job_syncs_total).
import { performance } from 'node:perf_hooks';
import { KubeObject } from '@plinth/api';
import { ApiClient, Informer, objectKey, resourcePath } from '@plinth/client';
import { BackoffRecord, Job, JobPod, JobSyncPlan, JobTrackingFinalizer, syncJob } from '@plinth/controllers';
import { Clock, isStatusError } from '@plinth/machinery';
import { controllerPodMetrics, defaultRegistry, JobSyncAction, jobSyncMetrics, JobSyncResult } from '@plinth/metrics';
import { Controller, ControllerOptions, controllerOwnerKey, ControllerRunner, tolerating } from './controller-runner';
import { Expectations } from './expectations';

export interface JobControllerOptions extends ControllerOptions {
  // featureGates turn the Job features behind gates on and off (their defaults otherwise).
  featureGates?: ReadonlyMap<string, boolean>;
}

const jobsPath = resourcePath({ group: 'batch', version: 'v1', resource: 'jobs' });
const podsPath = resourcePath({ group: '', version: 'v1', resource: 'pods' });

export class JobController implements Controller {
  private readonly runner: ControllerRunner;
  private readonly jobs: Informer;
  private readonly pods: Informer;
  private readonly expectations = new Expectations();
  private readonly podMetrics = controllerPodMetrics(defaultRegistry(), 'job');
  private readonly syncMetrics = jobSyncMetrics(defaultRegistry());
  private readonly backoff = new Map<string, BackoffRecord>();
  private readonly featureGates: ReadonlyMap<string, boolean>;

  constructor(
    private readonly client: ApiClient,
    private readonly clock: Clock,
    options: JobControllerOptions = {},
  ) {
    this.featureGates = options.featureGates ?? new Map();
    const runner = (this.runner = new ControllerRunner(client, clock, { queue: { name: 'job' }, workers: options.workers ?? 5, onError: options.onError }));
    const ownerKey = (pod: KubeObject) => controllerOwnerKey(pod, 'Job');
    // A deleted Job is synced once more to release its pods' tracking finalizers.
    const deleted = (o: KubeObject) => {
      this.forget(objectKey(o));
      runner.enqueue(objectKey)(o);
    };
    this.jobs = runner.watch(jobsPath, { onAdd: runner.enqueue(objectKey), onUpdate: runner.enqueue(objectKey), onDelete: deleted }, { resyncPeriodMs: options.resyncPeriodMs });
    this.pods = runner.watch(podsPath, {
      onAdd: (o) => {
        const key = ownerKey(o);
        if (key) this.expectations.creationObserved(key);
        runner.enqueue(ownerKey)(o);
      },
      onUpdate: runner.enqueue(ownerKey),
      onDelete: (o) => {
        const key = ownerKey(o);
        if (key) this.expectations.deletionObserved(key, o.metadata.name ?? '');
        runner.enqueue(ownerKey)(o);
      },
    });
  }

  start(): Promise<void> {
    return this.runner.run((key) => this.sync(key));
  }

  stop(): Promise<void> {
    return this.runner.stop();
  }

  private forget(key: string): void {
    this.expectations.forget(key);
    this.backoff.delete(key);
  }

  private async sync(key: string): Promise<void> {
    const job = this.jobs.get(key);
    await this.releaseOrphans(key, job);
    if (!job) return this.forget(key);
    const started = performance.now();
    const namespace = job.metadata.namespace ?? '';
    const owned = this.pods.list().filter((p) => p.metadata.namespace === namespace && (p.metadata.ownerReferences ?? []).some((r) => r.controller && r.uid === job.metadata.uid));
    const plan = syncJob({
      job: job as unknown as Job,
      pods: owned as unknown as JobPod[],
      now: this.clock.now(),
      featureGates: this.featureGates,
      backoff: this.backoff.get(key),
      expectationsSatisfied: this.expectations.satisfied(key),
    });
    if (plan.skipped) return;
    if (plan.backoff) this.backoff.set(key, plan.backoff);
    else this.backoff.delete(key);
    const action: JobSyncAction = plan.delete.length > 0 ? 'pods_deleted' : plan.create.length > 0 ? 'pods_created' : 'reconciling';
    const completionMode = (job.spec as { completionMode?: string } | undefined)?.completionMode ?? 'NonIndexed';
    let result: JobSyncResult = 'error';
    try {
      await this.carryOut(key, job, namespace, plan);
      result = 'success';
    } finally {
      this.syncMetrics.observe(completionMode, result, action, (performance.now() - started) / 1000);
    }
  }

  // carryOut makes the plan's changes through the API: the status, then the pods.
  private async carryOut(key: string, job: KubeObject, namespace: string, plan: JobSyncPlan): Promise<void> {
    const jobPath = resourcePath({ group: 'batch', version: 'v1', resource: 'jobs', namespace, name: job.metadata.name });
    const pods = resourcePath({ group: '', version: 'v1', resource: 'pods', namespace });
    if (plan.statusChanged) await this.client.update(`${jobPath}/status`, { ...job, status: plan.status });
    if (plan.create.length > 0 || plan.delete.length > 0) {
      this.expectations.expect(key, plan.create.length, plan.delete.map((d) => d.pod.metadata.name ?? ''));
    }
    for (const deletion of plan.delete) {
      const name = deletion.pod.metadata.name ?? '';
      if (deletion.removeFinalizerFirst) await this.removeTrackingFinalizer(`${pods}/${name}`, deletion.pod as unknown as KubeObject);
      try {
        await this.client.delete(`${pods}/${name}`);
        this.podMetrics.deleted.inc();
      } catch (err) {
        this.expectations.deletionObserved(key, name);
        if (!(isStatusError(err) && err.code === 404)) throw err;
      }
    }
    for (const pod of plan.create) {
      try {
        await this.client.create(pods, pod);
        this.podMetrics.created.inc();
      } catch (err) {
        this.expectations.creationObserved(key);
        throw err;
      }
    }
    for (const pod of plan.removeFinalizers) await this.removeTrackingFinalizer(`${pods}/${pod.metadata.name}`, pod as unknown as KubeObject);
    if (plan.requeueAfterMs !== undefined) this.runner.queue.addAfter(key, plan.requeueAfterMs);
  }

  // releaseOrphans removes the tracking finalizer from the pods whose controller is a Job of this
  // key that no longer exists (gone, or replaced by one of the same name), as kube-controller-
  // manager's orphan pod handling does: nothing else would ever release them.
  private async releaseOrphans(key: string, job: KubeObject | undefined): Promise<void> {
    const orphans = this.pods.list().filter((pod) => {
      const owner = (pod.metadata.ownerReferences ?? []).find((r) => r.controller && r.kind === 'Job');
      return owner && `${pod.metadata.namespace}/${owner.name}` === key && owner.uid !== job?.metadata.uid && (pod.metadata.finalizers ?? []).includes(JobTrackingFinalizer);
    });
    for (const pod of orphans) await this.removeTrackingFinalizer(resourcePath({ group: '', version: 'v1', resource: 'pods', namespace: pod.metadata.namespace, name: pod.metadata.name }), pod);
  }

  private async removeTrackingFinalizer(path: string, pod: KubeObject): Promise<void> {
    const finalizers = (pod.metadata.finalizers ?? []).filter((f) => f !== JobTrackingFinalizer);
    await tolerating(this.client.patch(path, 'merge', { metadata: { finalizers: finalizers.length ? finalizers : null } }), [404]);
  }
}
