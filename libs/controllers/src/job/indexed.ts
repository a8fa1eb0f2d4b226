// Completion indexes of Indexed Jobs, after indexed_job_utils.go (v1.28): the index annotation
// on pods, status.completedIndexes as ordered intervals ("1,3-5,7"), and the choice of which
// indexes to start next and which duplicated pods to remove.
import { JobCompletionIndexAnnotation, Pod } from './types';
import { byRemovalPreference } from './pod-status';

// Interval is a run of indexes, both ends included.
export type Interval = readonly [first: number, last: number];

// completionIndex is the pod's index, or undefined when the annotation is absent or malformed.
export function completionIndex(pod: Pod): number | undefined {
  const value = pod.metadata.annotations?.[JobCompletionIndexAnnotation];
  if (value === undefined || !/^\+?[0-9]+$/.test(value)) return undefined;
  const index = Number.parseInt(value, 10);
  return Number.isSafeInteger(index) ? index : undefined;
}

// validIndex is true when the pod carries an index below completions.
export function validIndex(pod: Pod, completions: number): boolean {
  const index = completionIndex(pod);
  return index !== undefined && index < completions;
}

// mergeIntervals orders the intervals and joins the ones that overlap or touch.
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  const result: [number, number][] = [];
  for (const [first, last] of sorted) {
    const previous = result[result.length - 1];
    if (previous && first <= previous[1] + 1) previous[1] = Math.max(previous[1], last);
    else result.push([first, last]);
  }
  return result;
}

// parseCompletedIndexes is parseIndexesFromString: malformed parts are skipped and indexes at
// or above completions are dropped, so that a shrunk Job does not count them.
export function parseCompletedIndexes(value: string | null | undefined, completions: number): Interval[] {
  if (!value) return [];
  const intervals: Interval[] = [];
  for (const part of value.split(',')) {
    const match = /^([0-9]+)(?:-([0-9]+))?$/.exec(part);
    if (!match) continue;
    const first = Number.parseInt(match[1], 10);
    const last = Math.min(match[2] === undefined ? first : Number.parseInt(match[2], 10), completions - 1);
    if (first <= last) intervals.push([first, last]);
  }
  return mergeIntervals(intervals);
}

// formatCompletedIndexes is orderedIntervals.String: runs of three or more as first-last.
export function formatCompletedIndexes(intervals: readonly Interval[]): string {
  return intervals
    .map(([first, last]) => (last === first ? `${first}` : last === first + 1 ? `${first},${last}` : `${first}-${last}`))
    .join(',');
}

export function withIndexes(intervals: readonly Interval[], indexes: Iterable<number>): Interval[] {
  return mergeIntervals([...intervals, ...[...indexes].map((i): Interval => [i, i])]);
}

export function totalIndexes(intervals: readonly Interval[]): number {
  return intervals.reduce((sum, [first, last]) => sum + last - first + 1, 0);
}

export function hasIndex(intervals: readonly Interval[], index: number): boolean {
  return intervals.some(([first, last]) => first <= index && index <= last);
}

// firstPendingIndexes returns up to count indexes below completions that neither succeeded
// nor have an active pod, lowest first: failed indexes are replaced this way.
export function firstPendingIndexes(activePods: readonly Pod[], succeeded: readonly Interval[], count: number, completions: number): number[] {
  const taken = new Set(activePods.map(completionIndex).filter((i): i is number => i !== undefined));
  const result: number[] = [];
  for (let index = 0; index < completions && result.length < count; index++) {
    if (!taken.has(index) && !hasIndex(succeeded, index)) result.push(index);
  }
  return result;
}

// duplicatedIndexPods splits active pods into those to remove (no valid index, or a second
// pod for an index) and those to keep; of pods sharing an index the most advanced one stays.
export function duplicatedIndexPods(activePods: readonly Pod[], completions: number): { remove: Pod[]; keep: Pod[] } {
  const remove: Pod[] = [];
  const byIndex = new Map<number, Pod[]>();
  for (const pod of activePods) {
    const index = completionIndex(pod);
    if (index === undefined || index >= completions) remove.push(pod);
    else byIndex.set(index, [...(byIndex.get(index) ?? []), pod]);
  }
  const keep: Pod[] = [];
  for (const index of [...byIndex.keys()].sort((a, b) => a - b)) {
    const group = [...(byIndex.get(index) ?? [])].sort(byRemovalPreference);
    remove.push(...group.slice(0, -1));
    keep.push(group[group.length - 1]);
  }
  return { remove, keep };
}
