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

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const handle = setTimeout(fn, ms);
    handle.unref?.();
    return { cancel: () => clearTimeout(handle) };
  },
  setInterval(fn, ms) {
    const handle = setInterval(fn, ms);
    handle.unref?.();
    return { cancel: () => clearInterval(handle) };
  },
};
