import { isStatusError } from '@plinth/machinery';
import { FakeClock } from '@plinth/testing';
import { parseRequestInfo } from '../request-info';
import { finisherBoundMs, finishWithin, requestTimeoutError, requestTimeoutMs, serveWithTimeout } from './request-timeout';


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

  it('answers a timeout below a millisecond at once, without serving', async () => {
    let served = 0;
    let timedOut = 0;
    await serveWithTimeout(async () => void served++, 0.000001, new FakeClock(), () => timedOut++);
    expect({ served, timedOut }).toEqual({ served: 0, timedOut: 1 });
  });

});

describe('requestTimeoutMs', () => {
  const timeoutOf = (query: string) => requestTimeoutMs(new URLSearchParams(query), 60_000);

  it('takes the first ?timeout= when it is shorter than --request-timeout', () => {
    expect(timeoutOf('timeout=1.5s')).toBe(1500);
    expect(timeoutOf('timeout=1ns&timeout=bad')).toBe(0.000001);
    expect(timeoutOf('timeout=1m30s')).toBe(60_000);
  });

  it('keeps --request-timeout for no, an empty, a zero or a negative timeout', () => {
    expect([timeoutOf(''), timeoutOf('timeout='), timeoutOf('timeout=0'), timeoutOf('timeout=-1s'), timeoutOf('timeout=100h')]).toEqual([60_000, 60_000, 60_000, 60_000, 60_000]);
  });

  it.each([
    ['soon', 'invalid timeout specified in the request URL - time: invalid duration "soon"'],
    ['10', 'invalid timeout specified in the request URL - time: missing unit in duration "10"'],
    ['3x', 'invalid timeout specified in the request URL - time: unknown unit "x" in duration "3x"'],
  ])('refuses %s with a 400 in time.ParseDuration words', (value, message) => {
    let thrown: unknown;
    try {
      timeoutOf(`timeout=${value}`);
    } catch (err) {
      thrown = err;
    }
    expect(isStatusError(thrown) && thrown.errStatus).toMatchObject({ code: 400, reason: 'BadRequest', message });
  });
});

describe('the finisher bound', () => {
  const info = (method: string, path: string) => parseRequestInfo(method, path, new URLSearchParams());

  it('bounds create, update, patch and delete by 34 s when the request may run longer', () => {
    const object = '/api/v1/namespaces/default/configmaps/a';
    const collection = '/api/v1/namespaces/default/configmaps';
    expect([info('POST', collection), info('PUT', object), info('PATCH', object), info('DELETE', object)].map((i) => finisherBoundMs(i, 60_000))).toEqual([34_000, 34_000, 34_000, 34_000]);
    expect(finisherBoundMs(info('POST', collection), 34_000)).toBeUndefined();
    expect([info('GET', object), info('GET', collection), info('DELETE', collection), info('GET', '/version')].map((i) => finisherBoundMs(i, 60_000))).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('fails work still running at its bound with the finisher Status, and lets work done in time through', async () => {
    const clock = new FakeClock();
    const late = finishWithin(new Promise<string>(() => undefined), 34_000, clock).catch((err: unknown) => err);
    clock.advance(34_000);
    const err = await late;
    expect(isStatusError(err) && err.errStatus).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Timeout: request did not complete within requested timeout - context deadline exceeded',
      reason: 'Timeout',
      details: {},
      code: 504,
    });
    await expect(finishWithin(Promise.resolve('done'), 34_000, clock)).resolves.toBe('done');
    await expect(finishWithin(Promise.resolve('unbounded'), undefined, clock)).resolves.toBe('unbounded');
  });
});
