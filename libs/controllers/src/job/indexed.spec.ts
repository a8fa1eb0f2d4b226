import { newJob, newPod } from './fixtures';
import {
  completionIndex,
  duplicatedIndexPods,
  firstPendingIndexes,
  formatCompletedIndexes,
  hasIndex,
  Interval,
  parseCompletedIndexes,
  totalIndexes,
  withIndexes,
} from './indexed';

describe('completedIndexes', () => {
  it.each<[string, number, Interval[]]>([
    ['', 5, []],
    ['0', 5, [[0, 0]]],
    ['1,3-5,7', 10, [[1, 1], [3, 5], [7, 7]]],
    ['0,1,2', 5, [[0, 2]]],
    ['3-5,7', 5, [[3, 4]]],
    ['x,2,-1,4-3', 10, [[2, 2]]],
    ['6-9', 5, []],
  ])('parses %j with completions %d', (value, completions, want) => {
    expect(parseCompletedIndexes(value, completions)).toEqual(want);
  });

  it.each<[Interval[], string]>([
    [[], ''],
    [[[0, 0]], '0'],
    [[[1, 2]], '1,2'],
    [[[1, 1], [3, 5], [7, 7]], '1,3-5,7'],
    [[[0, 99999]], '0-99999'],
  ])('formats %j as %j', (intervals, want) => {
    expect(formatCompletedIndexes(intervals)).toBe(want);
  });

  it('adds indexes, joining runs', () => {
    const merged = withIndexes([[1, 1], [5, 5]], [2, 3, 4, 7]);
    expect(formatCompletedIndexes(merged)).toBe('1-5,7');
    expect(totalIndexes(merged)).toBe(6);
    expect(hasIndex(merged, 4)).toBe(true);
    expect(hasIndex(merged, 6)).toBe(false);
  });
});

describe('completion index of a pod', () => {
  const job = newJob({ completionMode: 'Indexed', completions: 3 });
  it.each<[string | undefined, number | undefined]>([
    ['0', 0],
    ['12', 12],
    ['-1', undefined],
    ['abc', undefined],
    [undefined, undefined],
  ])('annotation %j reads as %j', (value, want) => {
    const pod = newPod(job);
    if (value !== undefined) pod.metadata.annotations = { 'batch.platform.io/job-completion-index': value };
    expect(completionIndex(pod)).toBe(want);
  });
});

describe('firstPendingIndexes', () => {
  const job = newJob({ completionMode: 'Indexed', completions: 6, parallelism: 3 });
  it('skips succeeded and active indexes, lowest first', () => {
    const active = [newPod(job, { index: 0 }), newPod(job, { index: 3 })];
    expect(firstPendingIndexes(active, [[1, 1]], 3, 6)).toEqual([2, 4, 5]);
    expect(firstPendingIndexes(active, [[1, 1]], 1, 6)).toEqual([2]);
    expect(firstPendingIndexes([], [[0, 5]], 3, 6)).toEqual([]);
  });
});

describe('duplicatedIndexPods', () => {
  const job = newJob({ completionMode: 'Indexed', completions: 3, parallelism: 3 });
  it('removes pods without a valid index and all but the most advanced pod of an index', () => {
    const pending = newPod(job, { index: 1, phase: 'Pending' });
    const running = newPod(job, { index: 1, phase: 'Running', ready: true });
    const outOfRange = newPod(job, { index: 7 });
    const noIndex = newPod(job);
    const single = newPod(job, { index: 0 });
    const { remove, keep } = duplicatedIndexPods([pending, running, outOfRange, noIndex, single], 3);
    expect(remove.map((p) => p.metadata.name)).toEqual([outOfRange, noIndex, pending].map((p) => p.metadata.name));
    expect(keep.map((p) => p.metadata.name)).toEqual([single, running].map((p) => p.metadata.name));
  });
});
