import { newJob } from './fixtures';
import { releasesOrphanFinalizer } from './orphan-pods';
import { Pod } from './types';

const tracked: Pod = { metadata: { name: 'p', finalizers: ['batch.platform.io/job-tracking'] } };
const untracked: Pod = { metadata: { name: 'p' } };

describe('releasesOrphanFinalizer', () => {
  it('takes the tracking finalizer off a pod no Job controls', () => {
    expect(releasesOrphanFinalizer(tracked, undefined)).toBe(true);
  });

  it('takes it off a pod of a finished Job', () => {
    const job = newJob();
    job.status = { conditions: [{ type: 'Complete', status: 'True' }] };
    expect(releasesOrphanFinalizer(tracked, job)).toBe(true);
  });

  it('leaves the pods of an unfinished Job to its sync', () => {
    expect(releasesOrphanFinalizer(tracked, newJob())).toBe(false);
  });

  it('has nothing to do for a pod without the finalizer', () => {
    expect(releasesOrphanFinalizer(untracked, undefined)).toBe(false);
  });
});
