// WorkQueue hands keys to workers, each key at most once at a time and never queued twice, with
// per-key exponential back-off for retries (5 ms doubling to 1000 s, as client-go's default
// controller rate limiter) and delayed adds, on an injected clock.
import { Clock } from '@plinth/machinery';

export class WorkQueue {
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();
  private waiters: ((key: string | null) => void)[] = [];
  private shuttingDown = false;

  constructor(
    private readonly clock: Clock,
    private readonly baseDelayMs = 5,
    private readonly maxDelayMs = 1000 * 1000,
  ) {}

  add(key: string): void {
    if (this.shuttingDown) return;
    if (this.processing.has(key)) {
      this.dirty.add(key);
      return;
    }
    if (this.queued.has(key)) return;
    const waiter = this.waiters.shift();
    if (waiter) {
      this.processing.add(key);
      waiter(key);
      return;
    }
    this.queued.add(key);
    this.queue.push(key);
  }

  addAfter(key: string, delayMs: number): void {
    if (delayMs <= 0) this.add(key);
    else this.clock.setTimeout(() => this.add(key), delayMs);
  }

  // addRateLimited requeues a key after its back-off, which doubles with each failure.
  addRateLimited(key: string): void {
    const failures = this.failures.get(key) ?? 0;
    this.failures.set(key, failures + 1);
    this.addAfter(key, Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** failures));
  }

  forget(key: string): void {
    this.failures.delete(key);
  }

  // get waits for the next key; null once the queue shuts down.
  get(): Promise<string | null> {
    const key = this.queue.shift();
    if (key !== undefined) {
      this.queued.delete(key);
      this.processing.add(key);
      return Promise.resolve(key);
    }
    if (this.shuttingDown) return Promise.resolve(null);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  done(key: string): void {
    this.processing.delete(key);
    if (this.dirty.delete(key)) this.add(key);
  }

  get length(): number {
    return this.queue.length;
  }

  shutDown(): void {
    this.shuttingDown = true;
    for (const waiter of this.waiters.splice(0)) waiter(null);
  }
}

// runWorkers runs `count` workers that sync keys until the queue shuts down; a failed sync is
// retried with back-off, a successful one forgets the key's failures.
export async function runWorkers(queue: WorkQueue, count: number, sync: (key: string) => Promise<void>, onError: (key: string, err: unknown) => void): Promise<void> {
  const worker = async () => {
    for (;;) {
      const key = await queue.get();
      if (key === null) return;
      try {
        await sync(key);
        queue.forget(key);
      } catch (err) {
        onError(key, err);
        queue.addRateLimited(key);
      } finally {
        queue.done(key);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, count) }, worker));
}
