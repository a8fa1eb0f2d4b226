import { rfc3339 } from '@plinth/machinery';
import { FakeClock } from '@plinth/testing';
import { newJob, newPod, T0, withoutFinalizer } from './fixtures';
import { JobSyncInput, JobSyncPlan, syncJob } from './job-sync';
import { Job, JobTrackingFinalizer, Pod } from './types';

const gates = (entries: Record<string, boolean> = {}) => new Map(Object.entries(entries));
const names = (pods: readonly Pod[]) => pods.map((p) => p.metadata.name);
const conditionTypes = (plan: JobSyncPlan) => (plan.status.conditions ?? []).map((c) => `${c.type}=${c.status}:${c.reason ?? ''}`);

// Cluster carries out plans as the controller and the API server would: status written, pods
// deleted (finalizer removed first when asked), created with a generated name, finalizers
// removed. Pods stay visible until they lose every finalizer.
class Cluster {
  pods: Pod[] = [];
  backoff: JobSyncInput['backoff'];
  private created = 0;
  constructor(
    public job: Job,
    public clock = new FakeClock(T0),
    public featureGates = gates(),
  ) {}

  sync(): JobSyncPlan {
    const plan = syncJob({ job: this.job, pods: this.pods, now: this.clock.now(), featureGates: this.featureGates, backoff: this.backoff });
    this.job = { ...this.job, status: plan.status };
    this.backoff = plan.backoff;
    for (const { pod, removeFinalizerFirst } of plan.delete) {
      this.update(pod, (p) => ({
        ...p,
        metadata: {
          ...p.metadata,
          deletionTimestamp: rfc3339(this.clock.now()),
          finalizers: removeFinalizerFirst ? [] : p.metadata.finalizers,
        },
      }));
    }
    for (const pod of plan.create) {
      const name = `${pod.metadata.generateName}${String(++this.created).padStart(5, 'x')}`;
      this.pods.push({ ...pod, metadata: { ...pod.metadata, name, uid: `uid-${name}`, creationTimestamp: rfc3339(this.clock.now()) }, status: { phase: 'Pending' } });
    }
    for (const pod of plan.removeFinalizers) this.update(pod, withoutFinalizer);
    this.pods = this.pods.filter((p) => !p.metadata.deletionTimestamp || (p.metadata.finalizers ?? []).length > 0);
    return plan;
  }

  update(pod: Pod, change: (p: Pod) => Pod): void {
    this.pods = this.pods.map((p) => (p.metadata.uid === pod.metadata.uid ? change(p) : p));
  }

  finish(pod: Pod, phase: 'Succeeded' | 'Failed', exitCode = phase === 'Succeeded' ? 0 : 1, extra: Partial<NonNullable<Pod['status']>> = {}): void {
    const finishedAt = rfc3339(this.clock.now());
    this.update(pod, (p) => ({
      ...p,
      status: { ...p.status, phase, containerStatuses: [{ name: 'main', state: { terminated: { exitCode, finishedAt } } }], ...extra },
    }));
  }

  running(): Pod[] {
    return this.pods.filter((p) => !p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
  }
}

describe('syncJob: NonIndexed', () => {
  it('starts a new Job: startTime, parallelism pods, active', () => {
    const job = newJob({ parallelism: 2, completions: 4 });
    const plan = syncJob({ job, pods: [], now: T0 });
    expect(plan.create).toHaveLength(2);
    expect(plan.create[0].metadata.generateName).toBe('pi-');
    expect(plan.create[0].metadata.finalizers).toEqual([JobTrackingFinalizer]);
    expect(plan.status).toMatchObject({ startTime: rfc3339(T0), active: 2, ready: 0, uncountedTerminatedPods: {} });
    expect(plan.status).not.toHaveProperty('succeeded');
    expect(plan.status).not.toHaveProperty('failed');
    expect(plan.statusChanged).toBe(true);
    expect(plan.requeueAfterMs).toBeUndefined();
  });

  it('runs to completion, counting successes through uncountedTerminatedPods', () => {
    const cluster = new Cluster(newJob({ parallelism: 2, completions: 3 }));
    cluster.sync();
    const [a] = cluster.running();
    cluster.clock.advance(10_000);
    cluster.finish(a, 'Succeeded');
    let plan = cluster.sync();
    // The success is recorded as uncounted, its finalizer released, and a replacement started.
    expect(plan.status.uncountedTerminatedPods).toEqual({ succeeded: [a.metadata.uid] });
    expect(names(plan.removeFinalizers)).toEqual([a.metadata.name]);
    expect(plan.create).toHaveLength(1);
    expect(plan.status.succeeded).toBeUndefined();
    plan = cluster.sync();
    expect(plan.status).toMatchObject({ succeeded: 1, active: 2, uncountedTerminatedPods: {} });
    expect(plan.create).toHaveLength(0);

    for (const pod of cluster.running()) cluster.finish(pod, 'Succeeded');
    cluster.clock.advance(5_000);
    plan = cluster.sync();
    expect(plan.status.conditions ?? []).toEqual([]);
    plan = cluster.sync();
    expect(plan.status).toMatchObject({ succeeded: 3, completionTime: rfc3339(T0 + 15_000) });
    expect(plan.status).not.toHaveProperty('active');
    expect(conditionTypes(plan)).toEqual(['Complete=True:']);
    expect(plan.events).toEqual([{ type: 'Normal', reason: 'Completed', message: 'Job completed' }]);
    expect(plan.backoff).toBeUndefined();
  });

  it('counts status.active, ready and ignores terminating pods as active', () => {
    const job = newJob({ parallelism: 3, completions: 3 });
    const pods = [newPod(job, { ready: true }), newPod(job, { phase: 'Pending' }), newPod(job, { deleting: true })];
    const plan = syncJob({ job, pods, now: T0 + 60_000 });
    expect(plan.status.active).toBe(3);
    expect(plan.status.ready).toBe(1);
    // The terminating pod counts as a failure and is replaced once its back-off has passed.
    expect(plan.create).toHaveLength(1);
    expect(plan.status.uncountedTerminatedPods).toEqual({ failed: [pods[2].metadata.uid] });
    expect(syncJob({ job, pods, now: T0 + 60_000, featureGates: gates({ JobReadyPods: false }) }).status.ready).toBeUndefined();
  });

  it('deletes pods above parallelism, least advanced first, releasing finalizers first', () => {
    const job = newJob({ parallelism: 1, completions: 5 });
    const older = newPod(job, { name: 'older', ready: true });
    const newer = newPod(job, { name: 'newer', ready: true, createdAt: T0 + 1000 });
    const plan = syncJob({ job, pods: [older, newer], now: T0 });
    expect(plan.delete).toEqual([{ pod: newer, reason: 'TooManyActivePods', removeFinalizerFirst: true }]);
    expect(plan.create).toEqual([]);
    expect(plan.status.active).toBe(1);
    expect(plan.removeFinalizers).toEqual([]);
  });

  it('does not create or delete while expectations are unsatisfied', () => {
    const job = newJob({ parallelism: 2, completions: 2 });
    const plan = syncJob({ job, pods: [], now: T0, expectationsSatisfied: false });
    expect(plan.create).toEqual([]);
    expect(plan.status.active).toBeUndefined();
  });

  it('does nothing for an unknown completion mode', () => {
    const job = newJob({ completionMode: 'Elastic' }, { active: 1 });
    const plan = syncJob({ job, pods: [], now: T0 });
    expect(plan).toMatchObject({ skipped: 'unknown completionMode Elastic', create: [], statusChanged: false });
  });
});

describe('syncJob: completions null', () => {
  it('completes once any pod succeeded and all pods finished', () => {
    const cluster = new Cluster(newJob({ parallelism: 3, completions: null }));
    cluster.sync();
    expect(cluster.running()).toHaveLength(3);
    const [a, b, c] = cluster.running();
    cluster.finish(a, 'Succeeded');
    let plan = cluster.sync();
    // After a success nothing new is started; the others may finish.
    expect(plan.create).toEqual([]);
    cluster.sync();
    cluster.finish(b, 'Succeeded');
    plan = cluster.sync();
    plan = cluster.sync();
    expect(plan.status.active).toBe(1);
    expect(conditionTypes(plan)).toEqual([]);
    cluster.finish(c, 'Failed');
    cluster.sync();
    plan = cluster.sync();
    expect(plan.status).toMatchObject({ succeeded: 2, failed: 1 });
    expect(plan.status).not.toHaveProperty('active');
    expect(conditionTypes(plan)).toEqual(['Complete=True:']);
  });
});

describe('syncJob: Indexed', () => {
  const indexedJob = (completions: number, parallelism: number) => newJob({ completionMode: 'Indexed', completions, parallelism });

  it('creates one pod per pending index up to parallelism', () => {
    const plan = syncJob({ job: indexedJob(5, 3), pods: [], now: T0 });
    expect(plan.create.map((p) => p.metadata.generateName)).toEqual(['pi-0-', 'pi-1-', 'pi-2-']);
    expect(plan.create.map((p) => p.spec?.hostname)).toEqual(['pi-0', 'pi-1', 'pi-2']);
    expect(plan.create.map((p) => p.metadata.annotations?.['batch.platform.io/job-completion-index'])).toEqual(['0', '1', '2']);
  });

  it('records completedIndexes, replaces failed indexes and completes with one success per index', () => {
    const cluster = new Cluster(indexedJob(4, 2));
    cluster.sync();
    const [p0, p1] = cluster.running();
    cluster.finish(p0, 'Succeeded');
    cluster.clock.advance(1_000);
    cluster.finish(p1, 'Failed');
    let plan = cluster.sync();
    expect(plan.status).toMatchObject({ completedIndexes: '0', succeeded: 1, uncountedTerminatedPods: { failed: [p1.metadata.uid] } });
    // Back-off holds the replacement of index 1 for 10 s after the failure.
    expect(plan.create).toEqual([]);
    expect(plan.requeueAfterMs).toBe(10_000);
    plan = cluster.sync();
    expect(plan.status).toMatchObject({ failed: 1, uncountedTerminatedPods: {} });
    cluster.clock.advance(10_000);
    plan = cluster.sync();
    expect(plan.create.map((p) => p.metadata.generateName)).toEqual(['pi-1-', 'pi-2-']);
    for (const pod of cluster.running()) cluster.finish(pod, 'Succeeded');
    plan = cluster.sync();
    expect(plan.status.completedIndexes).toBe('0-2');
    expect(plan.create.map((p) => p.metadata.generateName)).toEqual(['pi-3-']);
    for (const pod of cluster.running()) cluster.finish(pod, 'Succeeded');
    plan = cluster.sync();
    expect(plan.status).toMatchObject({ completedIndexes: '0-3', succeeded: 4, failed: 1, completionTime: rfc3339(T0 + 11_000) });
    expect(plan.status).not.toHaveProperty('active');
    expect(conditionTypes(plan)).toEqual(['Complete=True:']);
  });

  it('does not count a second success of the same index', () => {
    const job = newJob({ completionMode: 'Indexed', completions: 3, parallelism: 1 }, { completedIndexes: '1', succeeded: 1 });
    const pods = [newPod(job, { index: 1, phase: 'Succeeded' }), newPod(job, { index: 2, phase: 'Succeeded' })];
    const plan = syncJob({ job, pods, now: T0 });
    expect(plan.status).toMatchObject({ completedIndexes: '1,2', succeeded: 2 });
    expect(plan.create.map((p) => p.metadata.generateName)).toEqual(['pi-0-']);
  });

  it('deletes duplicated and out-of-range index pods before creating', () => {
    const job = indexedJob(3, 3);
    const keep = newPod(job, { index: 0, ready: true });
    const dup = newPod(job, { index: 0, phase: 'Pending' });
    const stray = newPod(job, { index: 9 });
    const plan = syncJob({ job, pods: [keep, dup, stray], now: T0 });
    expect(plan.delete.map((d) => [d.pod.metadata.name, d.reason])).toEqual([
      [stray.metadata.name, 'InvalidOrDuplicateIndex'],
      [dup.metadata.name, 'InvalidOrDuplicateIndex'],
    ]);
    expect(plan.create).toEqual([]);
    expect(plan.status.active).toBe(1);
  });
});

describe('syncJob: backoffLimit', () => {
  it('fails the Job once failures exceed backoffLimit, counting uncounted failures', () => {
    const job = newJob({ parallelism: 2, completions: 4, backoffLimit: 1 }, { uncountedTerminatedPods: { failed: ['uid-earlier'] } });
    const earlier = newPod(job, { name: 'earlier', phase: 'Failed' });
    const failed = newPod(job, { name: 'now', phase: 'Failed' });
    const running = newPod(job, { name: 'running' });
    const cluster = new Cluster(job);
    cluster.pods = [earlier, failed, running];
    let plan = cluster.sync();
    expect(plan.delete).toEqual([{ pod: running, reason: 'BackoffLimitExceeded', removeFinalizerFirst: false }]);
    expect(plan.status.uncountedTerminatedPods).toEqual({ failed: ['uid-earlier', 'uid-now', 'uid-running'] });
    expect(names(plan.removeFinalizers)).toEqual(['earlier', 'now', 'running']);
    expect(conditionTypes(plan)).toEqual([]);
    plan = cluster.sync();
    expect(plan.status).toMatchObject({ failed: 3, uncountedTerminatedPods: {} });
    expect(plan.status).not.toHaveProperty('active');
    expect(plan.status.conditions).toEqual([
      { type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit', lastProbeTime: rfc3339(T0), lastTransitionTime: rfc3339(T0) },
    ]);
    expect(plan.status.completionTime).toBeUndefined();
    expect(plan.events).toEqual([{ type: 'Warning', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' }]);
  });

  it.each([
    { name: 'at the limit', limit: 2, failedBefore: 1, newFailures: 1, fails: false },
    { name: 'above the limit', limit: 2, failedBefore: 2, newFailures: 1, fails: true },
    { name: 'zero limit, first failure', limit: 0, failedBefore: 0, newFailures: 1, fails: true },
    { name: 'no new failure', limit: 0, failedBefore: 3, newFailures: 0, fails: false },
  ])('$name', ({ limit, failedBefore, newFailures, fails }) => {
    const job = newJob({ parallelism: 1, completions: 5, backoffLimit: limit }, { failed: failedBefore, startTime: rfc3339(T0) });
    const pods = Array.from({ length: newFailures }, () => newPod(job, { phase: 'Failed' }));
    const plan = syncJob({ job, pods, now: T0 + 60_000 });
    // The failures finished 30 s ago, past their back-off: only a failing Job creates nothing.
    expect(plan.create).toHaveLength(fails ? 0 : 1);
    expect(plan.status.uncountedTerminatedPods?.failed ?? []).toHaveLength(newFailures);
    expect(plan.delete).toEqual([]);
    const next = syncJob({ job: { ...job, status: plan.status }, pods: pods.map(withoutFinalizer), now: T0 + 60_000, backoff: plan.backoff });
    expect(conditionTypes(next)).toEqual(fails ? ['Failed=True:BackoffLimitExceeded'] : []);
  });

  it('counts container restarts for restartPolicy OnFailure', () => {
    const job = newJob({ backoffLimit: 2 });
    job.spec!.template!.spec!.restartPolicy = 'OnFailure';
    const plan = syncJob({ job, pods: [newPod(job, { restarts: 2 })], now: T0 });
    expect(plan.delete.map((d) => d.reason)).toEqual(['BackoffLimitExceeded']);
  });

  it('backs off replacements exponentially from the last failure', () => {
    const cluster = new Cluster(newJob({ completions: 1, backoffLimit: 6 }));
    const waits: number[] = [];
    cluster.sync();
    for (let i = 0; i < 3; i++) {
      cluster.finish(cluster.running()[0], 'Failed');
      const plan = cluster.sync();
      waits.push(plan.requeueAfterMs ?? 0);
      cluster.sync();
      cluster.clock.advance(plan.requeueAfterMs ?? 0);
      expect(cluster.sync().create).toHaveLength(1);
    }
    expect(waits).toEqual([10_000, 20_000, 40_000]);
    expect(cluster.job.status?.failed).toBe(3);
  });
});

describe('syncJob: activeDeadlineSeconds', () => {
  it('requeues for the deadline, then fails the Job and deletes its pods', () => {
    const clock = new FakeClock(T0);
    const cluster = new Cluster(newJob({ parallelism: 2, completions: 2, activeDeadlineSeconds: 100 }), clock);
    let plan = cluster.sync();
    expect(plan.requeueAfterMs).toBe(100_000);
    clock.advance(40_000);
    expect(cluster.sync().requeueAfterMs).toBe(60_000);
    clock.advance(60_000);
    plan = cluster.sync();
    expect(plan.delete.map((d) => d.reason)).toEqual(['DeadlineExceeded', 'DeadlineExceeded']);
    expect(plan.status.active).toBeUndefined();
    plan = cluster.sync();
    expect(conditionTypes(plan)).toEqual(['Failed=True:DeadlineExceeded']);
    expect(plan.status.conditions?.[0].message).toBe('Job was active longer than specified deadline');
    expect(plan.status.failed).toBe(2);
    expect(plan.requeueAfterMs).toBeUndefined();
  });
});

describe('syncJob: suspend and resume', () => {
  it('creates nothing and leaves startTime unset for a Job created suspended', () => {
    const plan = syncJob({ job: newJob({ suspend: true, activeDeadlineSeconds: 10 }), pods: [], now: T0 });
    expect(plan.create).toEqual([]);
    expect(plan.status.startTime).toBeUndefined();
    expect(plan.requeueAfterMs).toBeUndefined();
    expect(conditionTypes(plan)).toEqual(['Suspended=True:JobSuspended']);
    expect(plan.status.conditions?.[0].message).toBe('Job suspended');
    expect(plan.events).toEqual([{ type: 'Normal', reason: 'Suspended', message: 'Job suspended' }]);
  });

  it('deletes active pods without counting them, and resets startTime on resume', () => {
    const clock = new FakeClock(T0);
    const cluster = new Cluster(newJob({ parallelism: 2, completions: 2, activeDeadlineSeconds: 100 }), clock);
    cluster.sync();
    clock.advance(90_000);
    cluster.job = { ...cluster.job, spec: { ...cluster.job.spec, suspend: true } };
    let plan = cluster.sync();
    expect(plan.delete.map((d) => [d.reason, d.removeFinalizerFirst])).toEqual([
      ['JobSuspended', true],
      ['JobSuspended', true],
    ]);
    expect(plan.removeFinalizers).toEqual([]);
    expect(plan.status).toMatchObject({ uncountedTerminatedPods: {} });
    expect(plan.status).not.toHaveProperty('active');
    expect(plan.status).not.toHaveProperty('failed');
    expect(plan.status.startTime).toBeUndefined();
    expect(conditionTypes(plan)).toEqual(['Suspended=True:JobSuspended']);
    // Suspended time does not count against the deadline.
    clock.advance(600_000);
    plan = cluster.sync();
    expect(plan.statusChanged).toBe(false);
    expect(plan.requeueAfterMs).toBeUndefined();

    cluster.job = { ...cluster.job, spec: { ...cluster.job.spec, suspend: false } };
    plan = cluster.sync();
    expect(plan.create).toHaveLength(2);
    expect(conditionTypes(plan)).toEqual(['Suspended=False:JobResumed']);
    expect(plan.status.conditions?.[0].message).toBe('Job resumed');
    expect(plan.status.startTime).toBe(rfc3339(T0 + 690_000));
    expect(plan.requeueAfterMs).toBe(100_000);
    expect(plan.events.map((e) => e.reason)).toEqual(['Resumed']);
  });

  it('sets startTime on the first resume of a Job created suspended', () => {
    const job = newJob({ suspend: false }, { conditions: [{ type: 'Suspended', status: 'True', reason: 'JobSuspended', message: 'Job suspended' }] });
    const plan = syncJob({ job, pods: [], now: T0 + 5_000 });
    expect(plan.status.startTime).toBe(rfc3339(T0 + 5_000));
    expect(plan.create).toHaveLength(1);
  });
});

describe('syncJob: finishing in the sync that releases the last pods', () => {
  it('fails a Job whose container restarts passed backoffLimit once the pod is counted, though the pod goes', () => {
    const job = newJob({ backoffLimit: 1 }, { startTime: rfc3339(T0), active: 1 });
    job.spec!.template!.spec!.restartPolicy = 'OnFailure';
    const pod = newPod(job);
    pod.status = { phase: 'Running', containerStatuses: [{ name: 'c', restartCount: 2 }] } as Pod['status'];
    const plan = syncJob({ job, pods: [pod], now: T0 + 1000 });
    expect(plan.status.uncountedTerminatedPods).toEqual({ failed: [pod.metadata.uid] });
    expect(names(plan.removeFinalizers)).toEqual([pod.metadata.name]);
    expect(plan.statusAfterFinalizers).toMatchObject({ failed: 1, uncountedTerminatedPods: {} });
    expect(plan.statusAfterFinalizers?.conditions?.map((c) => `${c.type}:${c.reason}`)).toEqual(['Failed:BackoffLimitExceeded']);
  });
});

describe('syncJob: pods being deleted', () => {
  it('does not count a pod whose deletion is pending as active', () => {
    const cluster = new Cluster(newJob({ parallelism: 1, completions: 1 }), new FakeClock(T0));
    cluster.sync();
    const [pod] = cluster.running();
    const job = { ...cluster.job, spec: { ...cluster.job.spec, suspend: true } };
    const plan = syncJob({ job, pods: [withoutFinalizer(pod)], now: cluster.clock.now(), expectationsSatisfied: false, deletionsPending: new Set([pod.metadata.name ?? '']) });
    expect(plan.status).not.toHaveProperty('active');
    const stale = syncJob({ job, pods: [withoutFinalizer(pod)], now: cluster.clock.now(), expectationsSatisfied: false });
    expect(stale.status.active).toBe(1);
  });
});

describe('syncJob: podFailurePolicy', () => {
  const policyGate = gates({ JobPodFailurePolicy: true });
  const policyJob = () =>
    newJob({
      parallelism: 2,
      completions: 4,
      backoffLimit: 0,
      podFailurePolicy: {
        rules: [
          { action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } },
          { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
        ],
      },
    });

  it('FailJob: records FailureTarget, deletes running pods, then fails the Job', () => {
    const cluster = new Cluster(policyJob(), new FakeClock(T0), policyGate);
    cluster.sync();
    const [x, other] = cluster.running();
    cluster.update(x, (p) => ({ ...p, metadata: { ...p.metadata, name: 'x' } }));
    cluster.finish(x, 'Failed', 42);
    let plan = cluster.sync();
    const message = 'Container main for pod default/x failed with exit code 42 matching FailJob rule at index 0';
    expect(plan.status.conditions).toEqual([{ type: 'FailureTarget', status: 'True', reason: 'PodFailurePolicy', message, lastProbeTime: rfc3339(T0), lastTransitionTime: rfc3339(T0) }]);
    expect(plan.delete).toEqual([{ pod: expect.objectContaining({ metadata: expect.objectContaining({ uid: other.metadata.uid }) }), reason: 'PodFailurePolicy', removeFinalizerFirst: false }]);
    plan = cluster.sync();
    expect(conditionTypes(plan)).toEqual(['FailureTarget=True:PodFailurePolicy', 'Failed=True:PodFailurePolicy']);
    expect(plan.status.conditions?.[1].message).toBe(message);
    expect(plan.status.failed).toBe(2);
  });

  it('Ignore: the failure is not counted and the pod is replaced', () => {
    const cluster = new Cluster(policyJob(), new FakeClock(T0), policyGate);
    cluster.sync();
    const [victim] = cluster.running();
    cluster.finish(victim, 'Failed', 137, { conditions: [{ type: 'DisruptionTarget', status: 'True' }] });
    let plan = cluster.sync();
    expect(plan.status.uncountedTerminatedPods).toEqual({});
    expect(names(plan.removeFinalizers)).toEqual([victim.metadata.name]);
    // The replacement waits out the pod failure back-off, as in Kubernetes 1.28.
    expect(plan.requeueAfterMs).toBe(10_000);
    cluster.clock.advance(10_000);
    plan = cluster.sync();
    expect(plan.status).toMatchObject({ active: 2 });
    expect(plan.status).not.toHaveProperty('failed');
    expect(conditionTypes(plan)).toEqual([]);
  });

  it('Ignore: a sync before the finalizer removal is seen does not count the failure twice in the back-off', () => {
    const cluster = new Cluster(policyJob(), new FakeClock(T0), policyGate);
    cluster.sync();
    const [victim] = cluster.running();
    cluster.finish(victim, 'Failed', 137, { conditions: [{ type: 'DisruptionTarget', status: 'True' }] });
    const first = cluster.sync();
    expect(first.backoff?.failuresAfterLastSuccess).toBe(1);
    // The informer still shows the finalizer the first sync took off.
    const pending = new Set([victim.metadata.uid ?? '']);
    const again = syncJob({ job: cluster.job, pods: cluster.pods, now: cluster.clock.now(), featureGates: policyGate, backoff: first.backoff, finalizerRemovalsPending: pending });
    expect(again.backoff?.failuresAfterLastSuccess).toBe(1);
    expect(again.removeFinalizers).toEqual([]);
    expect(again.requeueAfterMs).toBe(10_000);
  });

  it('Count: default handling fails the Job past backoffLimit', () => {
    const cluster = new Cluster(policyJob(), new FakeClock(T0), policyGate);
    cluster.sync();
    cluster.finish(cluster.running()[0], 'Failed', 3);
    cluster.sync();
    expect(conditionTypes(cluster.sync())).toEqual(['Failed=True:BackoffLimitExceeded']);
  });

  it('is ignored while the JobPodFailurePolicy gate is off', () => {
    const job = policyJob();
    const plan = syncJob({ job, pods: [newPod(job, { phase: 'Failed', exitCode: 42 })], now: T0 });
    expect(conditionTypes(plan)).toEqual([]);
    expect(plan.delete).toEqual([]);
  });
});

describe('syncJob: finished and deleted Jobs', () => {
  it('only removes tracking finalizers from the pods of a finished Job', () => {
    const job = newJob({}, { succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }] });
    const pods = [newPod(job, { phase: 'Succeeded' }), newPod(job, { phase: 'Failed', finalizer: false })];
    const plan = syncJob({ job, pods, now: T0 });
    expect(plan).toMatchObject({ create: [], delete: [], statusChanged: false, backoff: undefined });
    expect(plan.removeFinalizers).toEqual([pods[0]]);
    expect(plan.status).toEqual(job.status);
  });

  it('does not create pods for a Job being deleted, and releases its pods', () => {
    const job = newJob({ parallelism: 2, completions: 2 });
    job.metadata.deletionTimestamp = rfc3339(T0);
    const running = newPod(job);
    const plan = syncJob({ job, pods: [running], now: T0 });
    expect(plan.create).toEqual([]);
    expect(plan.removeFinalizers).toEqual([running]);
  });

  it('leaves the input Job untouched', () => {
    const job = newJob({ parallelism: 2 }, { conditions: [] });
    const before = structuredClone(job);
    syncJob({ job, pods: [newPod(job, { phase: 'Succeeded' })], now: T0 });
    expect(job).toEqual(before);
  });
});
