import { errors } from '@plinth/machinery';
import { eventually, GiveUp, gone } from './eventually';

describe('eventually', () => {
  it('resolves with the first answer that holds, asking again after failures', async () => {
    let asked = 0;
    const answer = await eventually(() => {
      asked++;
      if (asked === 1) throw new Error('not yet');
      return asked === 2 ? undefined : asked === 3 ? false : `at ${asked}`;
    }, { intervalMs: 1 });
    expect(answer).toBe('at 4');
  });

  it('judges answers with until', async () => {
    let n = 0;
    expect(await eventually(async () => ++n, { until: (v) => v >= 3, intervalMs: 1 })).toBe(3);
  });

  it('fails past its timeout with what it waited for and the last answer or error', async () => {
    await expect(eventually(() => ({ phase: 'Pending' }), { what: 'the pod running', until: () => false, timeoutMs: 20, intervalMs: 1 })).rejects.toThrow(
      'the pod running did not hold within 20 ms; last answer: {"phase":"Pending"}',
    );
    await expect(eventually(() => Promise.reject(new Error('connection refused')), { what: () => 'the port open', timeoutMs: 20, intervalMs: 1 })).rejects.toThrow(
      'the port open did not hold within 20 ms; last error: connection refused',
    );
  });

  it('ends at once on GiveUp', async () => {
    let asked = 0;
    await expect(eventually(() => {
      asked++;
      throw new GiveUp('cannot change');
    }, { intervalMs: 1 })).rejects.toThrow('cannot change');
    expect(asked).toBe(1);
  });
});

describe('gone', () => {
  const notFound = errors.notFound({ group: 'batch', resource: 'jobs' }, 'x');

  it('resolves on a 404 answer or a 404 Status error, after the object was still there', async () => {
    const answers = [{ status: 200 }, { status: 404 }];
    await gone(async () => answers.shift(), { intervalMs: 1 });
    expect(answers).toEqual([]);
    let reads = 0;
    await gone(async () => {
      if (++reads < 3) return { metadata: { name: 'x' } };
      throw notFound;
    }, { intervalMs: 1 });
    expect(reads).toBe(3);
  });

  it('fails at once on any other error or status, never taking it for a deletion', async () => {
    await expect(gone(() => Promise.reject(errors.forbidden({ group: 'batch', resource: 'jobs' }, 'x', 'no')), { intervalMs: 1 })).rejects.toThrow('not a 404: jobs.batch "x" is forbidden: no');
    await expect(gone(() => Promise.reject(new Error('ECONNREFUSED')), { intervalMs: 1 })).rejects.toThrow('not a 404: ECONNREFUSED');
    await expect(gone(async () => ({ status: 500 }), { intervalMs: 1 })).rejects.toThrow('not a 404: status 500');
  });
});
