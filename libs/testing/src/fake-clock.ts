import { Clock, Timer } from '@plinth/machinery';

interface Scheduled {
  at: number;
  every: number | null;
  fn: () => void;
  cancelled: boolean;
}

// FakeClock is a Clock whose time moves only when a test calls advance().
export class FakeClock implements Clock {
  private current: number;
  private scheduled: Scheduled[] = [];

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): Timer {
    return this.schedule(fn, ms, null);
  }

  setInterval(fn: () => void, ms: number): Timer {
    return this.schedule(fn, ms, Math.max(1, ms));
  }

  // pendingTimers is how many timers wait to fall due: a test that waits for something NOT to
  // happen advances the clock once every party has scheduled its next step.
  get pendingTimers(): number {
    return this.scheduled.filter((s) => !s.cancelled).length;
  }

  // advance moves time forward by ms, running every timer that falls due, in time order.
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      const due = this.scheduled
        .filter((s) => !s.cancelled && s.at <= target)
        .sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.current = due.at;
      if (due.every === null) due.cancelled = true;
      else due.at += due.every;
      due.fn();
    }
    this.current = target;
    this.scheduled = this.scheduled.filter((s) => !s.cancelled);
  }

  private schedule(fn: () => void, ms: number, every: number | null): Timer {
    const entry: Scheduled = { at: this.current + Math.max(0, ms), every, fn, cancelled: false };
    this.scheduled.push(entry);
    return { cancel: () => (entry.cancelled = true) };
  }
}
