// syncJob decides what the Job controller does for one Job, after syncJob, manageJob and
// trackJobStatusAndRemoveFinalizers of job_controller.go (v1.28). It does no I/O: it takes the
// Job, the pods it owns (already matched by selector and controller reference), the feature
// gates, the back-off record and the time, and returns a plan for the controller to carry out.
//
// syncJob counts a terminated pod in two steps, as Kubernetes does, so that no pod is counted
// twice or lost: first its UID is written to status.uncountedTerminatedPods while the pod still
// has the tracking finalizer, then, once the finalizer is gone, a later sync moves it into
// succeeded or failed. Indexed Jobs count successes through completedIndexes, which is safe to
// write again, so their successes skip the uncounted list.
import { rfc3339 } from '@plinth/machinery';
import { BackoffRecord, nextBackoffRecord, remainingBackoffMs } from './backoff';
import {
  ensureConditionStatus,
  findCondition,
  isJobFinished,
  JobComplete,
  JobFailed,
  JobFailureTarget,
  JobReasons,
  JobSuspended,
  newCondition,
  PodFailurePolicyReason,
} from './conditions';
import {
  completionIndex,
  duplicatedIndexPods,
  firstPendingIndexes,
  formatCompletedIndexes,
  Interval,
  parseCompletedIndexes,
  totalIndexes,
  validIndex,
  withIndexes,
} from './indexed';
import { matchPodFailurePolicy } from './pod-failure-policy';
import { byRemovalPreference, hasTrackingFinalizer, isActive, isPodFailed, isReady, isTerminal } from './pod-status';
import { podFromTemplate } from './pod-template';
import { gateEnabled, IndexedCompletion, Job, JobStatus, NonIndexedCompletion, Pod, PodFailurePolicy } from './types';

// MaxPodCreateDeletePerSync bounds the pods created or deleted by one sync.
export const MaxPodCreateDeletePerSync = 500;

export interface JobSyncInput {
  job: Job;
  pods: readonly Pod[];
  now: number;
  featureGates?: ReadonlyMap<string, boolean>;
  // backoff is the record the previous sync of this Job returned.
  backoff?: BackoffRecord;
  // expectationsSatisfied is false while pod creations or deletions of an earlier sync have not
  // been observed yet; pods are then neither created nor deleted for scaling.
  expectationsSatisfied?: boolean;
  // finalizerRemovalsPending are the uids of pods whose tracking finalizer an earlier sync took
  // off without the informer showing it yet (kube's expectedRmFinalizers): they are counted
  // already, and a failure the pod failure policy ignores would otherwise count twice in the
  // back-off.
  finalizerRemovalsPending?: ReadonlySet<string>;
  // deletionsPending are the names of pods an earlier sync deleted that the informer still
  // shows: they are no longer active. (Kubernetes batches a Job's syncs over a second, by which
  // time such a pod is gone; without this, a sync between the removal of a deleted pod's
  // finalizer and its deletion counted it active again, a suspended Job as still running.)
  deletionsPending?: ReadonlySet<string>;
}

export interface PodDeletion {
  pod: Pod;
  reason: string;
  // removeFinalizerFirst: remove the tracking finalizer before deleting, so that the pod is not
  // counted as failed (suspension, scale-down). Pods of a failing Job keep it and are counted.
  removeFinalizerFirst: boolean;
}

export interface JobEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

// JobSyncPlan is carried out in order: write status (if statusChanged), delete pods, create
// pods, remove the tracking finalizer from removeFinalizers, keep backoff for the next sync,
// requeue after requeueAfterMs.
export interface JobSyncPlan {
  // skipped names why nothing is done (an unknown completion mode).
  skipped?: string;
  create: Pod[];
  delete: PodDeletion[];
  removeFinalizers: Pod[];
  status: JobStatus;
  statusChanged: boolean;
  // statusAfterFinalizers is written once removeFinalizers are removed, when they release the
  // last pods a finishing Job counts: the pods counted and the Job's final condition, in the
  // same sync as kube's flushUncountedAndRemoveFinalizers. A later sync could not always tell
  // the Job finished: a pod whose container restarts passed backoffLimit is gone by then.
  statusAfterFinalizers?: JobStatus;
  // backoff is undefined once the Job is finished: the controller may forget it.
  backoff?: BackoffRecord;
  requeueAfterMs?: number;
  events: JobEvent[];
}

interface Finish {
  type: string;
  reason: string;
  message: string;
}

interface Managed {
  active: number;
  create: Pod[];
  delete: PodDeletion[];
  requeueAfterMs?: number;
}

interface SyncContext {
  job: Job;
  now: number;
  indexed: boolean;
  completions?: number;
  parallelism: number;
  suspended: boolean;
  activePods: Pod[];
  succeeded: number;
  succeededIndexes: Interval[];
  backoff: BackoffRecord;
  gates?: ReadonlyMap<string, boolean>;
}

export function syncJob(input: JobSyncInput): JobSyncPlan {
  const { job, pods, now } = input;
  const gates = input.featureGates;
  const previous = job.status ?? {};
  const unchanged: JobSyncPlan = { create: [], delete: [], removeFinalizers: [], status: structuredClone(previous), statusChanged: false, backoff: input.backoff, events: [] };
  const spec = job.spec ?? {};
  const mode = spec.completionMode ?? NonIndexedCompletion;
  const completions = spec.completions ?? undefined;
  if (mode !== NonIndexedCompletion && mode !== IndexedCompletion) return { ...unchanged, skipped: `unknown completionMode ${mode}` };
  const indexed = mode === IndexedCompletion;
  if (indexed && completions === undefined) return { ...unchanged, skipped: 'Indexed Job without completions' };
  if (isJobFinished(job)) return { ...unchanged, removeFinalizers: pods.filter(hasTrackingFinalizer), backoff: undefined };

  const suspended = spec.suspend === true;
  const parallelism = spec.parallelism ?? 1;
  const backoffLimit = spec.backoffLimit ?? 6;
  const policy = gateEnabled(gates, 'JobPodFailurePolicy') ? spec.podFailurePolicy ?? undefined : undefined;
  const countsAsFailure = (pod: Pod) => matchPodFailurePolicy(policy, pod).countFailed;
  const inRange = (pod: Pod) => !indexed || validIndex(pod, completions ?? 0);

  const status: JobStatus = structuredClone(previous);
  const uncountedSucceeded = new Set(previous.uncountedTerminatedPods?.succeeded ?? []);
  const uncountedFailed = new Set(previous.uncountedTerminatedPods?.failed ?? []);
  const uid = (pod: Pod) => pod.metadata.uid ?? '';
  const removalPending = (pod: Pod) => input.finalizerRemovalsPending?.has(uid(pod)) ?? false;
  const notYetCounted = pods.filter((p) => hasTrackingFinalizer(p) && !uncountedSucceeded.has(uid(p)) && !uncountedFailed.has(uid(p)) && !removalPending(p) && inRange(p));
  const newSucceeded = notYetCounted.filter((p) => p.status?.phase === 'Succeeded');
  const newFailed = notYetCounted.filter((p) => p.status?.phase !== 'Succeeded' && isPodFailed(p, job, gates));

  const activePods = pods.filter((p) => isActive(p) && !(input.deletionsPending?.has(p.metadata.name ?? '') ?? false));
  let active = activePods.length;
  let succeeded = (previous.succeeded ?? 0) + newSucceeded.length + uncountedSucceeded.size;
  const failed = (previous.failed ?? 0) + newFailed.filter(countsAsFailure).length + uncountedFailed.size;

  if (!status.startTime && !suspended) status.startTime = rfc3339(now);
  const backoff = nextBackoffRecord(input.backoff, newSucceeded, newFailed, now);
  let requeueAfterMs: number | undefined;
  const requeue = (ms: number | undefined) => {
    if (ms !== undefined) requeueAfterMs = requeueAfterMs === undefined ? ms : Math.min(requeueAfterMs, ms);
  };
  const events: JobEvent[] = [];

  let finished: Finish | undefined;
  if (policy) {
    const target = findCondition(previous.conditions, JobFailureTarget);
    const message = target ? undefined : failJobMessage(job, pods, policy, gates);
    if (target) finished = { type: JobFailed, reason: target.reason ?? '', message: target.message ?? '' };
    else if (message) {
      // FailureTarget keeps the decision while the pods' finalizers are removed.
      status.conditions = [...(status.conditions ?? []), newCondition(JobFailureTarget, 'True', PodFailurePolicyReason, message, now)];
      finished = { type: JobFailed, reason: PodFailurePolicyReason, message };
    }
  }
  if (!finished) {
    const newFailures = failed > (previous.failed ?? 0);
    if ((newFailures && active !== parallelism && failed > backoffLimit) || pastBackoffLimitOnFailure(job, pods, backoffLimit)) {
      finished = { type: JobFailed, ...JobReasons.BackoffLimitExceeded };
    } else if (isSetNumber(spec.activeDeadlineSeconds) && status.startTime && !suspended) {
      const remaining = spec.activeDeadlineSeconds * 1000 - (now - Date.parse(status.startTime));
      if (remaining <= 0) finished = { type: JobFailed, ...JobReasons.DeadlineExceeded };
      else requeue(remaining);
    }
  }

  let succeededIndexes: Interval[] = [];
  if (indexed) {
    const n = completions ?? 0;
    const newIndexes = pods
      .filter((p) => p.status?.phase === 'Succeeded' && hasTrackingFinalizer(p) && validIndex(p, n) && !uncountedFailed.has(uid(p)))
      .map((p) => completionIndex(p) ?? 0);
    succeededIndexes = withIndexes(parseCompletedIndexes(previous.completedIndexes, n), newIndexes);
    succeeded = totalIndexes(succeededIndexes);
  }

  const create: Pod[] = [];
  const deletions: PodDeletion[] = [];
  if (finished) {
    // A failing Job's pods are deleted with their finalizer, so that they are counted as failed.
    deletions.push(...activePods.map((pod) => ({ pod, reason: (finished as Finish).reason, removeFinalizerFirst: false })));
    active = 0;
  } else {
    let managed = false;
    if (input.expectationsSatisfied !== false && !job.metadata.deletionTimestamp) {
      const ctx: SyncContext = { job, now, indexed, completions, parallelism, suspended, activePods, succeeded, succeededIndexes, backoff, gates };
      const result = manageJob(ctx);
      active = result.active;
      create.push(...result.create);
      deletions.push(...result.delete);
      requeue(result.requeueAfterMs);
      managed = true;
    }
    const complete = completions === undefined ? succeeded > 0 && active === 0 : succeeded >= completions && active === 0;
    if (complete) finished = { type: JobComplete, reason: '', message: '' };
    else if (managed) {
      const wanted = suspended ? { status: 'True', ...JobReasons.JobSuspended } : { status: 'False', ...JobReasons.JobResumed };
      const result = ensureConditionStatus(status.conditions ?? [], JobSuspended, wanted.status, wanted.reason, wanted.message, now);
      if (result.changed) {
        status.conditions = result.conditions;
        events.push({ type: 'Normal', reason: suspended ? 'Suspended' : 'Resumed', message: wanted.message });
        // A resumed Job starts its activeDeadlineSeconds anew.
        if (!suspended) status.startTime = rfc3339(now);
      }
      // A suspended Job's active deadline stops: startTime is unset until it resumes (Document 2,
      // Job, the suspend transition: "startTime reset"; Kubernetes 1.28 keeps it, and then fails
      // a Job resumed after its deadline at once, before it sets startTime anew).
      if (suspended) delete status.startTime;
    }
  }

  setCounter(status, 'active', active);
  if (gateEnabled(gates, 'JobReadyPods')) status.ready = activePods.filter(isReady).length;
  else delete status.ready;

  // Tracking: record newly terminated pods as uncounted and release their finalizers.
  const releasedByDeletion = new Set(deletions.filter((d) => d.removeFinalizerFirst).map((d) => uid(d.pod)));
  const removeFinalizers: Pod[] = [];
  const nextSucceeded = [...uncountedSucceeded];
  const nextFailed = [...uncountedFailed];
  for (const pod of pods) {
    if (!hasTrackingFinalizer(pod) || releasedByDeletion.has(uid(pod)) || removalPending(pod)) continue;
    const consideredFailed = isPodFailed(pod, job, gates);
    if (isTerminal(pod) || consideredFailed || finished || job.metadata.deletionTimestamp) removeFinalizers.push(pod);
    if (pod.status?.phase === 'Succeeded' && !uncountedFailed.has(uid(pod))) {
      if (!indexed && !uncountedSucceeded.has(uid(pod))) nextSucceeded.push(uid(pod));
    } else if (consideredFailed || finished) {
      if (!uncountedFailed.has(uid(pod)) && inRange(pod) && countsAsFailure(pod)) nextFailed.push(uid(pod));
    }
  }
  // Pods whose finalizer is gone (or that are gone) are moved from uncounted to the counters.
  const withFinalizer = new Set(pods.filter(hasTrackingFinalizer).map(uid));
  const stillUncounted = (list: string[]) => list.filter((u) => withFinalizer.has(u));
  const flushedSucceeded = nextSucceeded.length - stillUncounted(nextSucceeded).length;
  const flushedFailed = nextFailed.length - stillUncounted(nextFailed).length;
  setCounter(status, 'succeeded', indexed ? totalIndexes(succeededIndexes) : (previous.succeeded ?? 0) + flushedSucceeded);
  setCounter(status, 'failed', (previous.failed ?? 0) + flushedFailed);
  if (indexed) {
    const completedIndexes = formatCompletedIndexes(succeededIndexes);
    if (completedIndexes) status.completedIndexes = completedIndexes;
    else delete status.completedIndexes;
  }
  const uncounted = { succeeded: stillUncounted(nextSucceeded), failed: stillUncounted(nextFailed) };
  status.uncountedTerminatedPods = {
    ...(uncounted.succeeded.length > 0 ? { succeeded: uncounted.succeeded } : {}),
    ...(uncounted.failed.length > 0 ? { failed: uncounted.failed } : {}),
  };

  // The Job finishes only when every terminated pod is counted: at once, or, when this sync
  // releases the last uncounted pods, in the status written after their finalizers are removed.
  let done = false;
  let statusAfterFinalizers: JobStatus | undefined;
  const finish = (into: JobStatus, how: Finish) => {
    into.conditions = ensureConditionStatus(into.conditions ?? [], how.type, 'True', how.reason, how.message, now).conditions;
    if (how.type === JobComplete) {
      into.completionTime = rfc3339(now);
      events.push({ type: 'Normal', reason: 'Completed', message: 'Job completed' });
    } else events.push({ type: 'Warning', reason: how.reason, message: how.message });
    done = true;
    requeueAfterMs = undefined;
  };
  if (finished && uncounted.succeeded.length === 0 && uncounted.failed.length === 0) finish(status, finished);
  else if (finished && releasesAll([...uncounted.succeeded, ...uncounted.failed], [...removeFinalizers, ...deletions.filter((d) => d.removeFinalizerFirst).map((d) => d.pod)])) {
    statusAfterFinalizers = structuredClone(status);
    if (!indexed) setCounter(statusAfterFinalizers, 'succeeded', (status.succeeded ?? 0) + uncounted.succeeded.length);
    setCounter(statusAfterFinalizers, 'failed', (status.failed ?? 0) + uncounted.failed.length);
    statusAfterFinalizers.uncountedTerminatedPods = {};
    finish(statusAfterFinalizers, finished);
  }

  return {
    create,
    delete: deletions,
    removeFinalizers,
    status,
    statusChanged: !deepEqual(previous, status),
    ...(statusAfterFinalizers ? { statusAfterFinalizers } : {}),
    backoff: done ? undefined : backoff,
    ...(requeueAfterMs !== undefined ? { requeueAfterMs } : {}),
    events,
  };
}

// manageJob creates or deletes pods to move the active count towards what the Job wants:
// none while suspended, else parallelism bounded by the completions still missing.
function manageJob(ctx: SyncContext): Managed {
  const { job, activePods, completions, parallelism, succeeded } = ctx;
  let active = activePods.length;
  if (ctx.suspended) {
    const pods = [...activePods].sort(byRemovalPreference);
    return { active: 0, create: [], delete: pods.map((pod) => ({ pod, reason: 'JobSuspended', removeFinalizerFirst: true })) };
  }
  let wantActive: number;
  if (completions === undefined) wantActive = succeeded > 0 ? active : parallelism;
  else wantActive = Math.max(0, Math.min(completions - succeeded, parallelism));

  const toDelete = activePodsForRemoval(ctx, Math.max(0, active - wantActive)).slice(0, MaxPodCreateDeletePerSync);
  if (toDelete.length > 0) {
    // A sync either deletes or creates; deletion goes first.
    return { active: active - toDelete.length, create: [], delete: toDelete };
  }
  if (active >= wantActive) return { active, create: [], delete: [] };
  const wait = remainingBackoffMs(ctx.backoff, ctx.now);
  if (wait > 0) return { active, create: [], delete: [], requeueAfterMs: wait };
  const diff = Math.min(wantActive - active, MaxPodCreateDeletePerSync);
  const create = ctx.indexed
    ? firstPendingIndexes(activePods, ctx.succeededIndexes, diff, completions ?? 0).map((index) => podFromTemplate(job, index, ctx.gates))
    : Array.from({ length: diff }, () => podFromTemplate(job, undefined, ctx.gates));
  active += create.length;
  return { active, create, delete: [] };
}

// activePodsForRemoval picks at least rmAtLeast pods to delete; an Indexed Job also loses pods
// with an invalid or repeated index.
function activePodsForRemoval(ctx: SyncContext, rmAtLeast: number): PodDeletion[] {
  let remove: PodDeletion[] = [];
  let left = ctx.activePods;
  if (ctx.indexed) {
    const split = duplicatedIndexPods(ctx.activePods, ctx.completions ?? 0);
    remove = split.remove.map((pod) => ({ pod, reason: 'InvalidOrDuplicateIndex', removeFinalizerFirst: true }));
    left = split.keep;
  }
  if (remove.length < rmAtLeast) {
    const extra = [...left].sort(byRemovalPreference).slice(0, rmAtLeast - remove.length);
    remove.push(...extra.map((pod) => ({ pod, reason: 'TooManyActivePods', removeFinalizerFirst: true })));
  }
  return remove;
}

// failJobMessage is the message of the first failed pod that matches a FailJob rule.
function failJobMessage(job: Job, pods: readonly Pod[], policy: PodFailurePolicy, gates?: ReadonlyMap<string, boolean>): string | undefined {
  for (const pod of pods) {
    if (!isPodFailed(pod, job, gates)) continue;
    const message = matchPodFailurePolicy(policy, pod).message;
    if (message) return message;
  }
  return undefined;
}

// pastBackoffLimitOnFailure applies to restartPolicy OnFailure, where failures show up as
// container restarts of pods that are still pending or running.
export function pastBackoffLimitOnFailure(job: Job, pods: readonly Pod[], backoffLimit: number): boolean {
  if (job.spec?.template?.spec?.restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const pod of pods) {
    if (pod.status?.phase !== 'Running' && pod.status?.phase !== 'Pending') continue;
    for (const s of [...(pod.status.initContainerStatuses ?? []), ...(pod.status.containerStatuses ?? [])]) restarts += s.restartCount ?? 0;
  }
  return backoffLimit === 0 ? restarts > 0 : restarts >= backoffLimit;
}

// releasesAll says whether the pods released include every one of the uids.
function releasesAll(uids: readonly string[], released: readonly Pod[]): boolean {
  const releasedUids = new Set(released.map((pod) => pod.metadata.uid ?? ''));
  return uids.every((u) => releasedUids.has(u));
}

function isSetNumber(value: number | null | undefined): value is number {
  return value !== null && value !== undefined;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

// setCounter writes one of the status counters, which are int32 fields with omitempty in Go:
// Kubernetes never shows one that is zero.
function setCounter(status: JobStatus, name: 'active' | 'succeeded' | 'failed', value: number): void {
  if (value !== 0) status[name] = value;
  else delete status[name];
}
