import { isPodAvailable, isPodReady, msUntilAvailable } from './pod-availability';
import { Pod } from '@plinth/api';

const now = Date.parse('2026-01-01T00:01:00Z');

function pod(status: string | undefined, since = '2026-01-01T00:00:00Z'): Pod {
  return { metadata: { name: 'p' }, status: { conditions: status ? [{ type: 'Ready', status, lastTransitionTime: since }] : [] } };
}

describe('pod availability', () => {
  it.each([
    ['no Ready condition', pod(undefined), 0, false, false],
    ['Ready False', pod('False'), 0, false, false],
    ['Ready, minReadySeconds 0', pod('True'), 0, true, true],
    ['Ready 60s, minReadySeconds 30', pod('True'), 30, true, true],
    ['Ready exactly 60s, minReadySeconds 60', pod('True'), 60, true, false],
    ['Ready 60s, minReadySeconds 90', pod('True'), 90, true, false],
  ])('%s', (_name, p, minReady, ready, available) => {
    expect(isPodReady(p)).toBe(ready);
    expect(isPodAvailable(p, minReady, now)).toBe(available);
  });

  it('msUntilAvailable counts the remaining wait, plus the strict comparison', () => {
    expect(msUntilAvailable(pod('True'), 90, now)).toBe(30_001);
    expect(msUntilAvailable(pod('True'), 30, now)).toBeUndefined();
    expect(msUntilAvailable(pod('False'), 90, now)).toBeUndefined();
  });

  it('a Ready transition ahead of the clock waits no longer than minReadySeconds', () => {
    expect(isPodAvailable(pod('True', '2099-01-01T00:00:00Z'), 3600, now)).toBe(false);
    expect(msUntilAvailable(pod('True', '2099-01-01T00:00:00Z'), 3600, now)).toBe(3_600_000);
  });
});
