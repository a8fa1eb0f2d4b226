import { maxTimerMs, realClock } from './clock';

describe('realClock', () => {
  it('fires a timer after its delay', async () => {
    const fired = await new Promise<boolean>((resolve) => {
      realClock.setTimeout(() => resolve(true), 1);
    });
    expect(fired).toBe(true);
  });

  it('holds a delay longer than a Node timer can instead of firing it at once', async () => {
    let fired = false;
    const timer = realClock.setTimeout(() => (fired = true), maxTimerMs + 1000);
    // A Node timer given more than maxTimerMs fires after 1 ms; this one must still be waiting
    // once a 1 ms timer set after it has fired.
    await new Promise((resolve) => setTimeout(resolve, 20));
    timer.cancel();
    expect(fired).toBe(false);
  });
});
