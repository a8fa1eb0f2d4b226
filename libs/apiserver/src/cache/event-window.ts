// EventWindow is a watch cache's window of recent events: a ring of events, oldest first, whose
// capacity follows kube-apiserver 1.28's watchCache.resizeCacheLocked. When the ring is full
// and a new event comes, the capacity doubles (up to the upper bound) while the oldest event
// kept is younger than eventFreshMs, and halves (down to the lower bound) once even the
// oldest of the newest quarter is older than that; otherwise the oldest event is dropped.
// A burst of writes thus keeps every event of the last 75 s (at most the upper bound), so a
// watcher falling behind resumes from the cache, while a quiet resource keeps a small window.
// Unlike kube-apiserver's, the window is also bounded by the stored bytes of its events
// (maxBytes), so that a burst of large objects cannot hold 102,400 of them.
import { Clock } from '@plinth/machinery';

// eventFreshMs is how long the window means to keep events (kube-apiserver's
// eventFreshDuration: the bookmark period plus a margin).
export const eventFreshMs = 75_000;
// The capacity's bounds (kube-apiserver's defaultLowerBoundCapacity and
// defaultUpperBoundCapacity); a window starts at the lower one.
export const defaultLowerBound = 100;
export const defaultUpperBound = 100 * 1024;
// defaultMaxBytes bounds the stored bytes of the events kept (their objects as storage holds
// them; in memory each costs some 3 times that, with its encodings).
export const defaultMaxBytes = 64 * 1024 * 1024;

export interface WindowEvent {
  readonly revision: number;
}

export class EventWindow<T extends WindowEvent> {
  private ring: (T | undefined)[];
  private times: number[];
  private sizes: number[];
  private bytes = 0;
  // start and end count the events ever pushed since the last clear: the window holds those
  // from start (inclusive) to end, at index (count % capacity).
  private start = 0;
  private end = 0;
  private readonly lowerBound: number;

  // upperBound caps the capacity (a smaller one makes the lower bound as small).
  constructor(
    private readonly clock: Clock,
    private readonly upperBound = defaultUpperBound,
    private readonly maxBytes = defaultMaxBytes,
  ) {
    this.lowerBound = Math.min(defaultLowerBound, upperBound);
    this.ring = new Array(this.lowerBound);
    this.times = new Array(this.lowerBound);
    this.sizes = new Array(this.lowerBound);
  }

  get capacity(): number {
    return this.ring.length;
  }

  get length(): number {
    return this.end - this.start;
  }

  // at is the index-th event kept, oldest first.
  at(index: number): T {
    return this.ring[(this.start + index) % this.capacity] as T;
  }

  // storedBytes is the stored size of the events kept.
  get storedBytes(): number {
    return this.bytes;
  }

  // push keeps an event of the given stored size, resizing first as above, then dropping the
  // oldest events while the window is full or over maxBytes (keeping the new one), and returns
  // the newest event it dropped (undefined when none).
  push(event: T, size = 0): T | undefined {
    const now = this.clock.now();
    let dropped = this.resize(now);
    if (this.capacity === 0) return event;
    while (this.length > 0 && (this.full || this.bytes + size > this.maxBytes)) dropped = this.dropOldest();
    const index = this.end % this.capacity;
    this.ring[index] = event;
    this.times[index] = now;
    this.sizes[index] = size;
    this.bytes += size;
    this.end++;
    return dropped;
  }

  // firstAfter is the index of the oldest event kept with a revision after the given one
  // (length when none).
  firstAfter(revision: number): number {
    let low = 0;
    let high = this.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.at(middle).revision <= revision) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  // clear drops every event; the capacity starts again from the lower bound.
  clear(): void {
    this.ring = new Array(this.lowerBound);
    this.times = new Array(this.lowerBound);
    this.sizes = new Array(this.lowerBound);
    this.bytes = 0;
    this.start = 0;
    this.end = 0;
  }

  private dropOldest(): T {
    const index = this.start % this.capacity;
    const dropped = this.ring[index] as T;
    this.ring[index] = undefined;
    this.bytes -= this.sizes[index];
    this.start++;
    return dropped;
  }

  private get full(): boolean {
    return this.length === this.capacity;
  }

  // resize grows or shrinks a full window, returning the newest event a shrink dropped.
  private resize(now: number): T | undefined {
    if (!this.full || this.capacity === 0) return undefined;
    if (now - this.timeAt(0) < eventFreshMs) {
      const grown = Math.min(this.capacity * 2, this.upperBound);
      if (grown > this.capacity) this.reallocate(grown);
      return undefined;
    }
    if (now - this.timeAt(this.length - Math.floor(this.capacity / 4)) > eventFreshMs) {
      const shrunk = Math.max(Math.floor(this.capacity / 2), this.lowerBound);
      if (shrunk < this.capacity) {
        let dropped: T | undefined;
        while (this.length > shrunk) dropped = this.dropOldest();
        this.reallocate(shrunk);
        return dropped;
      }
    }
    return undefined;
  }

  private timeAt(index: number): number {
    return this.times[(this.start + index) % this.capacity];
  }

  // reallocate moves the events kept (from start to end) into a ring of the new capacity.
  private reallocate(capacity: number): void {
    const ring: (T | undefined)[] = new Array(capacity);
    const times: number[] = new Array(capacity);
    const sizes: number[] = new Array(capacity);
    for (let count = this.start; count < this.end; count++) {
      ring[count % capacity] = this.ring[count % this.capacity];
      times[count % capacity] = this.times[count % this.capacity];
      sizes[count % capacity] = this.sizes[count % this.capacity];
    }
    this.ring = ring;
    this.times = times;
    this.sizes = sizes;
  }
}
