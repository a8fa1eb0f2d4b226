// JobController runs the Job sync of @plinth/controllers against the API: informers on Jobs and
// pods feed a keyed work queue; each sync carries out the plan in its required order: status
// first, then deletions, creations, and only then the removal of tracking finalizers from
// counted pods (and, when that released a finishing Job's last pods, its final status). Expectations hold scaling until the pods created and deleted are seen. A pod
// that keeps the tracking finalizer while no unfinished Job controls it (an orphan) is queued
// under its own key (`orphanPodKey`), and its sync takes the finalizer off. Each sync
// is measured as kube-controller-manager measures it (job_controller_job_sync_duration_seconds,
// job_controller_job_syncs_total).
import { performance } from 'node:perf_hooks';
import { KubeObject } from '@plinth/api';
import { ApiClient, Informer, objectKey, resourcePath } from '@plinth/client';
import { BackoffRecord, hasJobTrackingFinalizer, Job, JobPod, JobSyncPlan, JobTrackingFinalizer, releasesOrphanFinalizer, syncJob } from '@plinth/controllers';
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
// orphanPodPrefix marks a queue key as an orphan pod's (`orphan-pod:<namespace>/<name>`), kube's
// orphanQueue; a Job's key is `<namespace>/<name>`.
const orphanPodPrefix = 'orphan-pod:';
// statusSyncBatchMs is how long a Job's sync waits after a write that left its generation (its
// own status writes, labels): kube-controller-manager's syncJobBatchPeriod, by which time the
// pods a sync just created have reached the pod informer, so the next sync counts them active.
export const statusSyncBatchMs = 1000;

export class JobController implements Controller {
  private readonly runner: ControllerRunner;
  private readonly jobs: Informer;
  private readonly pods: Informer;
  private readonly expectations = new Expectations();
  private readonly podMetrics = controllerPodMetrics(defaultRegistry(), 'job');
  private readonly syncMetrics = jobSyncMetrics(defaultRegistry());
  private readonly backoff = new Map<string, BackoffRecord>();
  // finalizerRemovals are the uids of pods whose tracking finalizer a sync took off and the
  // informer does not show gone yet.
  private readonly finalizerRemovals = new Set<string>();
  private readonly featureGates: ReadonlyMap<string, boolean>;

  constructor(
    private readonly client: ApiClient,
    private readonly clock: Clock,
    options: JobControllerOptions = {},
  ) {
    this.featureGates = options.featureGates ?? new Map();
    const runner = (this.runner = new ControllerRunner(client, clock, { queue: { name: 'job' }, workers: options.workers ?? 5, onError: options.onError }));
    const ownerKey = (pod: KubeObject) => controllerOwnerKey(pod, 'Job');
    this.jobs = runner.watch(
      jobsPath,
      {
        onAdd: runner.enqueue(objectKey),
        onUpdate: (job, old) => {
          if (job.metadata.generation === old.metadata.generation) runner.queue.addAfter(objectKey(job), statusSyncBatchMs);
          else runner.queue.add(objectKey(job));
        },
        onDelete: (o) => {
          this.forget(objectKey(o));
          // Its pods' finalizers are left to the orphan syncs, which check again.
          for (const pod of this.podsOf(o)) if (hasJobTrackingFinalizer(pod as unknown as JobPod)) runner.queue.add(orphanPodPrefix + objectKey(pod));
        },
      },
      { resyncPeriodMs: options.resyncPeriodMs },
    );
    this.pods = runner.watch(podsPath, {
      onAdd: (o) => {
        const key = ownerKey(o);
        if (key) this.expectations.creationObserved(key);
        runner.enqueue(ownerKey)(o);
        this.enqueueIfOrphan(o);
      },
      onUpdate: (o) => {
        if (!hasJobTrackingFinalizer(o as unknown as JobPod)) this.finalizerRemovals.delete(o.metadata.uid ?? '');
        runner.enqueue(ownerKey)(o);
        this.enqueueIfOrphan(o);
      },
      onDelete: (o) => {
        this.finalizerRemovals.delete(o.metadata.uid ?? '');
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

  // controllingJob is the Job the informer holds that controls the pod (none: no such Job, or one
  // of another uid under the name).
  private controllingJob(pod: KubeObject): KubeObject | undefined {
    const owner = (pod.metadata.ownerReferences ?? []).find((r) => r.controller && r.kind === 'Job');
    const job = owner ? this.jobs.get(`${pod.metadata.namespace}/${owner.name}`) : undefined;
    return job && job.metadata.uid === owner?.uid ? job : undefined;
  }

  // podsOf are the pods the informer holds that the Job controls.
  private podsOf(job: KubeObject): KubeObject[] {
    return this.pods.list().filter((p) => p.metadata.namespace === job.metadata.namespace && (p.metadata.ownerReferences ?? []).some((r) => r.controller && r.uid === job.metadata.uid));
  }

  private isOrphan(pod: KubeObject): boolean {
    return releasesOrphanFinalizer(pod as unknown as JobPod, this.controllingJob(pod) as unknown as Job | undefined);
  }

  private enqueueIfOrphan(pod: KubeObject): void {
    if (this.isOrphan(pod)) this.runner.queue.add(orphanPodPrefix + objectKey(pod));
  }

  // syncOrphanPod takes the tracking finalizer off a pod that is still an orphan.
  private async syncOrphanPod(podKey: string): Promise<void> {
    const pod = this.pods.get(podKey);
    if (!pod || !this.isOrphan(pod)) return;
    const path = resourcePath({ group: '', version: 'v1', resource: 'pods', namespace: pod.metadata.namespace, name: pod.metadata.name });
    await this.removeTrackingFinalizer(path, pod);
  }

  private async sync(key: string): Promise<void> {
    if (key.startsWith(orphanPodPrefix)) return this.syncOrphanPod(key.slice(orphanPodPrefix.length));
    const job = this.jobs.get(key);
    if (!job) return this.forget(key);
    const started = performance.now();
    const namespace = job.metadata.namespace ?? '';
    const owned = this.podsOf(job);
    const plan = syncJob({
      job: job as unknown as Job,
      pods: owned as unknown as JobPod[],
      now: this.clock.now(),
      featureGates: this.featureGates,
      backoff: this.backoff.get(key),
      expectationsSatisfied: this.expectations.satisfied(key),
      finalizerRemovalsPending: this.finalizerRemovals,
      deletionsPending: this.expectations.deletionsPending(key),
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
    let written = job;
    if (plan.statusChanged) written = await this.client.update(`${jobPath}/status`, { ...job, status: plan.status });
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
    if (plan.statusAfterFinalizers) await this.client.update(`${jobPath}/status`, { ...written, status: plan.statusAfterFinalizers });
    if (plan.requeueAfterMs !== undefined) this.runner.queue.addAfter(key, plan.requeueAfterMs);
  }

  private async removeTrackingFinalizer(path: string, pod: KubeObject): Promise<void> {
    const finalizers = (pod.metadata.finalizers ?? []).filter((f) => f !== JobTrackingFinalizer);
    const uid = pod.metadata.uid ?? '';
    this.finalizerRemovals.add(uid);
    try {
      await tolerating(this.client.patch(path, 'merge', { metadata: { finalizers: finalizers.length ? finalizers : null } }), [404]);
    } catch (err) {
      this.finalizerRemovals.delete(uid);
      throw err;
    }
  }
}
