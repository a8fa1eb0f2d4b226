import { KubeObject } from '@plinth/api';
import { decideTtl, expiresAt, finishedAt } from './ttl';

const job = (ttl: number | undefined, conditions: { type: string; status: string; lastTransitionTime: string }[], deleting = false): KubeObject => ({
  metadata: { name: 'j', ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:09Z' } : {}) },
  spec: ttl === undefined ? {} : { ttlSecondsAfterFinished: ttl },
  status: { conditions },
});

describe('TTL after finished', () => {
  const done = [{ type: 'Complete', status: 'True', lastTransitionTime: '2026-01-01T00:00:10Z' }];

  it('expires a finished Job ttlSecondsAfterFinished after it finished', () => {
    expect(finishedAt(job(5, done))).toBe(Date.parse('2026-01-01T00:00:10Z'));
    expect(expiresAt(job(5, done))).toBe(Date.parse('2026-01-01T00:00:15Z'));
    expect(expiresAt(job(0, [{ type: 'Failed', status: 'True', lastTransitionTime: '2026-01-01T00:00:10Z' }]))).toBe(Date.parse('2026-01-01T00:00:10Z'));
  });

  it('never expires a running Job, one without a TTL, or one already being deleted', () => {
    expect(expiresAt(job(5, [{ type: 'Suspended', status: 'True', lastTransitionTime: '2026-01-01T00:00:10Z' }]))).toBeNull();
    expect(expiresAt(job(undefined, done))).toBeNull();
    expect(expiresAt(job(5, done, true))).toBeNull();
    expect(expiresAt(job(5, [{ type: 'Complete', status: 'False', lastTransitionTime: '2026-01-01T00:00:10Z' }]))).toBeNull();
  });

  it('waits until the Job expires, then deletes it, and leaves a Job that never expires alone', () => {
    const expires = Date.parse('2026-01-01T00:00:15Z');
    expect(decideTtl(job(5, done), expires - 2000)).toEqual({ action: 'wait', afterMs: 2000 });
    expect(decideTtl(job(5, done), expires)).toEqual({ action: 'delete' });
    expect(decideTtl(job(5, done), expires + 60_000)).toEqual({ action: 'delete' });
    expect(decideTtl(job(undefined, done), expires)).toEqual({ action: 'none' });
  });
});
