import { FakeClock } from '@plinth/testing';
import { backoffDelayMs, nextBackoffRecord, remainingBackoffMs } from './backoff';
import { newJob, newPod, T0 } from './fixtures';

const job = newJob();
const failedAt = (ms: number) => newPod(job, { phase: 'Failed', finishedAt: T0 + ms });
const succeededAt = (ms: number) => newPod(job, { phase: 'Succeeded', finishedAt: T0 + ms });

describe('backoffDelayMs', () => {
  it.each([
    [0, 0],
    [1, 10_000],
    [2, 20_000],
    [3, 40_000],
    [6, 320_000],
    [7, 360_000],
    [20, 360_000],
  ])('%d failures wait %d ms', (failures, want) => {
    expect(backoffDelayMs(failures)).toBe(want);
  });
});

describe('nextBackoffRecord', () => {
  it.each([
    { name: 'nothing new keeps the record', prev: { failuresAfterLastSuccess: 2, lastFailureTime: T0 }, succeeded: [], failed: [], want: { failuresAfterLastSuccess: 2, lastFailureTime: T0 } },
    { name: 'failures add up', prev: { failuresAfterLastSuccess: 1, lastFailureTime: T0 }, succeeded: [], failed: [failedAt(5_000), failedAt(3_000)], want: { failuresAfterLastSuccess: 3, lastFailureTime: T0 + 5_000 } },
    { name: 'a success resets', prev: { failuresAfterLastSuccess: 4, lastFailureTime: T0 }, succeeded: [succeededAt(1_000)], failed: [], want: { failuresAfterLastSuccess: 0 } },
    { name: 'failures after the last success remain', prev: undefined, succeeded: [succeededAt(2_000)], failed: [failedAt(1_000), failedAt(3_000), failedAt(4_000)], want: { failuresAfterLastSuccess: 2, lastFailureTime: T0 + 4_000 } },
  ])('$name', ({ prev, succeeded, failed, want }) => {
    expect(nextBackoffRecord(prev, succeeded, failed, T0)).toEqual(want);
  });
});

describe('remainingBackoffMs', () => {
  it('counts down from the last failure with the fake clock', () => {
    const clock = new FakeClock(T0);
    const record = { failuresAfterLastSuccess: 2, lastFailureTime: T0 };
    expect(remainingBackoffMs(record, clock.now())).toBe(20_000);
    clock.advance(15_000);
    expect(remainingBackoffMs(record, clock.now())).toBe(5_000);
    clock.advance(10_000);
    expect(remainingBackoffMs(record, clock.now())).toBe(0);
    expect(remainingBackoffMs({ failuresAfterLastSuccess: 0 }, clock.now())).toBe(0);
  });
});
