// The pod failure back-off of a Job, after backoff_utils.go (v1.28). The record lives in the
// controller (one per Job key) and is passed in and out of each sync, so the sync stays pure.
import { finishedTime } from './pod-status';
import { Pod } from './types';

export const DefaultJobPodFailureBackOffMs = 10_000;
export const MaxJobPodFailureBackOffMs = 360_000;

export interface BackoffRecord {
  // failuresAfterLastSuccess counts pod failures that finished after the last success.
  failuresAfterLastSuccess: number;
  // lastFailureTime is the finish time (ms) of the latest of those failures.
  lastFailureTime?: number;
}

export const emptyBackoffRecord: BackoffRecord = { failuresAfterLastSuccess: 0 };

// nextBackoffRecord is newBackoffRecord: new failures add up; a new success resets the count
// to the failures that finished after it.
export function nextBackoffRecord(previous: BackoffRecord | undefined, newSucceeded: readonly Pod[], newFailed: readonly Pod[], now: number): BackoffRecord {
  const record = previous ?? emptyBackoffRecord;
  const failedTimes = newFailed.map((p) => finishedTime(p, now)).sort((a, b) => a - b);
  if (newSucceeded.length === 0) {
    if (failedTimes.length === 0) return record;
    return { failuresAfterLastSuccess: record.failuresAfterLastSuccess + failedTimes.length, lastFailureTime: failedTimes[failedTimes.length - 1] };
  }
  const lastSuccess = Math.max(...newSucceeded.map((p) => finishedTime(p, now)));
  const after = failedTimes.filter((t) => t > lastSuccess);
  return after.length === 0 ? emptyBackoffRecord : { failuresAfterLastSuccess: after.length, lastFailureTime: after[after.length - 1] };
}

// backoffDelayMs is 10 s doubled for each failure after the first, capped at 6 min.
export function backoffDelayMs(failures: number): number {
  if (failures <= 0) return 0;
  let delay = DefaultJobPodFailureBackOffMs;
  for (let i = 1; i < failures && delay < MaxJobPodFailureBackOffMs; i++) delay *= 2;
  return Math.min(delay, MaxJobPodFailureBackOffMs);
}

// remainingBackoffMs is getRemainingTime: how long to wait, from the last failure, before
// creating replacement pods.
export function remainingBackoffMs(record: BackoffRecord, now: number): number {
  if (record.failuresAfterLastSuccess === 0 || record.lastFailureTime === undefined) return 0;
  const remaining = backoffDelayMs(record.failuresAfterLastSuccess) - (now - record.lastFailureTime);
  return Math.max(0, remaining);
}
