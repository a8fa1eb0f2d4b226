// Clock is the time source every component takes instead of calling Date.now() and setTimeout
// directly, so that tests can move time by hand (see FakeClock in @plinth/testing).
export interface Timer {
  cancel(): void;
}

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): Timer;
  setInterval(fn: () => void, ms: number): Timer;
}

// maxTimerMs is the longest delay Node's timers hold (2^31 - 1 ms, about 24.8 days): a longer
// one would fire at once.
export const maxTimerMs = 2 ** 31 - 1;

export const realClock: Clock = {
  now: () => Date.now(),
  // setTimeout waits out a delay longer than maxTimerMs in steps.
  setTimeout(fn, ms) {
    let handle: ReturnType<typeof setTimeout>;
    const arm = (remaining: number) => {
      handle = setTimeout(remaining > maxTimerMs ? () => arm(remaining - maxTimerMs) : fn, Math.min(remaining, maxTimerMs));
      handle.unref?.();
    };
    arm(ms);
    return { cancel: () => clearTimeout(handle) };
  },
  setInterval(fn, ms) {
    const handle = setInterval(fn, ms);
    handle.unref?.();
    return { cancel: () => clearInterval(handle) };
  },
};
