import { newJob, newPod, T0 } from './fixtures';
import { byRemovalPreference, finishedTime, isActive, isPodFailed, isReady } from './pod-status';

const job = newJob();

describe('pod status', () => {
  it.each([
    { name: 'pending', pod: newPod(job, { phase: 'Pending' }), active: true, failed: false },
    { name: 'running', pod: newPod(job, { phase: 'Running' }), active: true, failed: false },
    { name: 'succeeded', pod: newPod(job, { phase: 'Succeeded' }), active: false, failed: false },
    { name: 'failed', pod: newPod(job, { phase: 'Failed' }), active: false, failed: true },
    { name: 'terminating running', pod: newPod(job, { phase: 'Running', deleting: true }), active: false, failed: true },
    { name: 'terminating succeeded', pod: newPod(job, { phase: 'Succeeded', deleting: true }), active: false, failed: false },
  ])('$name pod: active $active, failed $failed', ({ pod, active, failed }) => {
    expect(isActive(pod)).toBe(active);
    expect(isPodFailed(pod, job)).toBe(failed);
  });

  it('counts only phase Failed with a pod failure policy and disruption conditions', () => {
    const withPolicy = newJob({ podFailurePolicy: { rules: [] } });
    const gates = new Map([['JobPodFailurePolicy', true]]);
    expect(isPodFailed(newPod(withPolicy, { deleting: true }), withPolicy, gates)).toBe(false);
    expect(isPodFailed(newPod(withPolicy, { deleting: true }), withPolicy)).toBe(true);
  });

  it('reads readiness and finish time', () => {
    expect(isReady(newPod(job, { ready: true }))).toBe(true);
    expect(isReady(newPod(job, { ready: false }))).toBe(false);
    expect(finishedTime(newPod(job, { phase: 'Failed', finishedAt: T0 + 7_000 }), T0 + 60_000)).toBe(T0 + 7_000);
    expect(finishedTime(newPod(job, { phase: 'Running', deleting: true }), T0 + 60_000)).toBe(T0 + 40_000);
  });

  it('removes pending, not ready, then newer pods first', () => {
    const ready = newPod(job, { name: 'ready', ready: true });
    const running = newPod(job, { name: 'running', ready: false });
    const pending = newPod(job, { name: 'pending', phase: 'Pending' });
    const newer = newPod(job, { name: 'newer', ready: false, createdAt: T0 + 1000 });
    expect([ready, running, pending, newer].sort(byRemovalPreference).map((p) => p.metadata.name)).toEqual(['pending', 'newer', 'running', 'ready']);
  });
});
