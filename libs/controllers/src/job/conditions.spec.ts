import { rfc3339 } from '@plinth/machinery';
import { ensureConditionStatus, isJobFinished, newCondition } from './conditions';
import { newJob, T0 } from './fixtures';

describe('ensureConditionStatus', () => {
  const suspended = newCondition('Suspended', 'True', 'JobSuspended', 'Job suspended', T0);

  it.each([
    { name: 'adds a True condition', list: [], status: 'True', reason: 'JobSuspended', message: 'Job suspended', changed: true, length: 1 },
    { name: 'does not add a False condition', list: [], status: 'False', reason: 'JobResumed', message: 'Job resumed', changed: false, length: 0 },
    { name: 'keeps an identical condition', list: [suspended], status: 'True', reason: 'JobSuspended', message: 'Job suspended', changed: false, length: 1 },
    { name: 'flips an existing condition', list: [suspended], status: 'False', reason: 'JobResumed', message: 'Job resumed', changed: true, length: 1 },
  ])('$name', ({ list, status, reason, message, changed, length }) => {
    const result = ensureConditionStatus(list, 'Suspended', status, reason, message, T0 + 1000);
    expect(result.changed).toBe(changed);
    expect(result.conditions).toHaveLength(length);
    if (changed) expect(result.conditions[0]).toEqual({ type: 'Suspended', status, reason, message, lastProbeTime: rfc3339(T0 + 1000), lastTransitionTime: rfc3339(T0 + 1000) });
  });
});

describe('isJobFinished', () => {
  it.each([
    [[], false],
    [[{ type: 'Suspended', status: 'True' }], false],
    [[{ type: 'Complete', status: 'True' }], true],
    [[{ type: 'Failed', status: 'True' }], true],
    [[{ type: 'Failed', status: 'False' }], false],
  ])('%j → %s', (conditions, want) => {
    expect(isJobFinished(newJob({}, { conditions }))).toBe(want);
  });
});
