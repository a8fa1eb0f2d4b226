import { backoffRemainingMs, failedPodsBackoffKey, maxFailedPodBackoffMs, nextBackoff } from './failed-pod-backoff';

describe('failed pod back-off', () => {
  it('starts at 1s, doubles, and caps at 15m', () => {
    let entry = nextBackoff(undefined, 0);
    expect(entry).toEqual({ delayMs: 1000, lastUpdateMs: 0 });
    const delays = [];
    for (let i = 1; i <= 12; i++) {
      entry = nextBackoff(entry, i);
      delays.push(entry.delayMs);
    }
    expect(delays.slice(0, 3)).toEqual([2000, 4000, 8000]);
    expect(delays[11]).toBe(maxFailedPodBackoffMs);
  });

  it.each([
    ['no entry', undefined, 0, 0],
    ['inside the delay', { delayMs: 4000, lastUpdateMs: 1000 }, 2000, 3000],
    ['after the delay', { delayMs: 4000, lastUpdateMs: 1000 }, 6000, 0],
    ['expired after twice the maximum', { delayMs: maxFailedPodBackoffMs, lastUpdateMs: 0 }, 2 * maxFailedPodBackoffMs + 1, 0],
  ])('remaining: %s', (_name, entry, now, want) => {
    expect(backoffRemainingMs(entry, now)).toBe(want);
  });

  it('restarts after expiry and keys by uid, observed generation and node', () => {
    expect(nextBackoff({ delayMs: 8000, lastUpdateMs: 0 }, 2 * maxFailedPodBackoffMs + 1).delayMs).toBe(1000);
    const key = failedPodsBackoffKey({ metadata: { uid: 'u' }, spec: { template: {} }, status: { observedGeneration: 3, currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 } }, 'n1');
    expect(key).toBe('u/3/n1');
  });
});
