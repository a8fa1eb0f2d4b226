import { FakeClock } from '@plinth/testing';
import { requestTimeoutError, serveWithTimeout } from './request-timeout';

describe('serveWithTimeout', () => {
  it('answers with the timeout once the time passes, and drops the late answer', async () => {
    const clock = new FakeClock();
    let finish: () => void = () => undefined;
    let timedOut = 0;
    const served = serveWithTimeout(() => new Promise<void>((resolve) => (finish = resolve)), 60_000, clock, () => timedOut++);
    clock.advance(59_999);
    await Promise.resolve();
    expect(timedOut).toBe(0);
    clock.advance(1);
    await served;
    expect(timedOut).toBe(1);
    finish();
    expect(requestTimeoutError().errStatus).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Timeout: request did not complete within the allotted timeout',
      reason: 'Timeout',
      details: {},
      code: 504,
    });
  });

  it('does nothing more for a request answered in time', async () => {
    const clock = new FakeClock();
    let timedOut = 0;
    const late: string[] = [];
    await serveWithTimeout(async () => undefined, 1000, clock, () => timedOut++, (status) => late.push(status));
    clock.advance(5000);
    expect(timedOut).toBe(0);
    expect(late).toEqual([]);
  });

  it('tells how a handler returned after its timeout: ok, or panic for a failure it did not answer', async () => {
    for (const [outcome, expected] of [['resolve', 'ok'], ['reject', 'panic']] as const) {
      const clock = new FakeClock();
      const late: string[] = [];
      let settle: (() => void) | undefined;
      const served = serveWithTimeout(
        () => new Promise<void>((resolve, reject) => (settle = outcome === 'resolve' ? resolve : () => reject(new Error('broken')))),
        1000,
        clock,
        () => undefined,
        (status) => late.push(status),
      );
      clock.advance(1000);
      await served;
      expect(late).toEqual([]);
      settle?.();
      await new Promise((resolve) => setImmediate(resolve));
      expect(late).toEqual([expected]);
    }
  });

  it('passes on a failure in time, and then never answers the timeout', async () => {
    const clock = new FakeClock();
    let timedOut = 0;
    await expect(serveWithTimeout(() => Promise.reject(new Error('broken')), 1000, clock, () => timedOut++)).rejects.toThrow('broken');
    await expect(
      serveWithTimeout(
        () => {
          throw new Error('thrown');
        },
        1000,
        clock,
        () => timedOut++,
      ),
    ).rejects.toThrow('thrown');
    clock.advance(5000);
    expect(timedOut).toBe(0);
  });

  it('drops a failure that comes after the timeout', async () => {
    const clock = new FakeClock();
    let fail: (err: Error) => void = () => undefined;
    let timedOut = 0;
    const served = serveWithTimeout(() => new Promise<void>((_, reject) => (fail = reject)), 1000, clock, () => timedOut++);
    clock.advance(1000);
    await served;
    fail(new Error('late'));
    await Promise.resolve();
    expect(timedOut).toBe(1);
  });
});
