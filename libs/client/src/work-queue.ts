// WorkQueue hands keys to workers, each key at most once at a time and never queued twice, with
// per-key exponential back-off for retries (5 ms doubling to 1000 s, as client-go's default
// controller rate limiter) and delayed adds, on an injected clock. A named queue reports
// client-go's workqueue metrics (depth, adds, retries, work duration) through the provider the
// process sets with setWorkQueueMetricsProvider.
import { performance } from 'node:perf_hooks';
import { Clock } from '@plinth/machinery';
import { WorkQueueMetrics, WorkQueueMetricsProvider } from '@plinth/metrics';

export interface WorkQueueOptions {
  // name labels the queue's metrics (client-go's queue names: "job", "daemonset", ...); an
  // unnamed queue reports none.
  name?: string;
  baseDelayMs?: number;
  maxDelayMs?: number;
}

let metricsProvider: WorkQueueMetricsProvider | null = null;

// setWorkQueueMetricsProvider makes the named queues created afterwards report metrics, as
// client-go's workqueue.SetProvider.
export function setWorkQueueMetricsProvider(provider: WorkQueueMetricsProvider | null): void {
  metricsProvider = provider;
}

// SyncInstrumentation wraps the sync of one key by a named queue's worker: a tracer runs it in
// a span, so that the API calls of one sync (a Job's pod creations, its status update) form one
// trace, and tells the sync its trace when sampled, which the work duration keeps as exemplar.
// The process sets it once, as it sets the metrics provider.
export type SyncInstrumentation = (queue: string, key: string, sync: (traceId: string | null) => Promise<void>) => Promise<void>;

let syncInstrumentation: SyncInstrumentation | null = null;

export function setSyncInstrumentation(value: SyncInstrumentation | null): void {
  syncInstrumentation = value;
}

export class WorkQueue {
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();
  private waiters: ((key: string | null) => void)[] = [];
  private shuttingDown = false;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly metrics: WorkQueueMetrics | null;
  // name is the queue's name; empty when unnamed.
  readonly name: string;
  // started holds when each key in processing was handed out, for the work duration.
  private readonly started = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    options: WorkQueueOptions = {},
  ) {
    this.baseDelayMs = options.baseDelayMs ?? 5;
    this.maxDelayMs = options.maxDelayMs ?? 1000 * 1000;
    this.name = options.name ?? '';
    this.metrics = options.name && metricsProvider ? metricsProvider.forQueue(options.name) : null;
  }

  add(key: string): void {
    if (this.shuttingDown) return;
    if (this.processing.has(key)) {
      this.dirty.add(key);
      return;
    }
    if (this.queued.has(key)) return;
    this.metrics?.adds.inc();
    const waiter = this.waiters.shift();
    if (waiter) {
      this.startProcessing(key);
      waiter(key);
      return;
    }
    this.queued.add(key);
    this.queue.push(key);
    this.metrics?.depth.set(this.queue.length);
  }

  addAfter(key: string, delayMs: number): void {
    if (delayMs <= 0) this.add(key);
    else this.clock.setTimeout(() => this.add(key), delayMs);
  }

  // addRateLimited requeues a key after its back-off, which doubles with each failure.
  addRateLimited(key: string): void {
    const failures = this.failures.get(key) ?? 0;
    this.failures.set(key, failures + 1);
    this.metrics?.retries.inc();
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
      this.metrics?.depth.set(this.queue.length);
      this.startProcessing(key);
      return Promise.resolve(key);
    }
    if (this.shuttingDown) return Promise.resolve(null);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  // done ends the processing of a key; traceId is the trace its sync ran in, if sampled.
  done(key: string, traceId: string | null = null): void {
    this.processing.delete(key);
    if (this.metrics) {
      const started = this.started.get(key);
      this.started.delete(key);
      if (started !== undefined) this.metrics.workDuration.observeInTrace((performance.now() - started) / 1000, traceId);
    }
    if (this.dirty.delete(key)) this.add(key);
  }

  private startProcessing(key: string): void {
    this.processing.add(key);
    if (this.metrics) this.started.set(key, performance.now());
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
      let traceId: string | null = null;
      try {
        const instrument = queue.name === '' ? null : syncInstrumentation;
        const traced = (id: string | null) => {
          traceId = id;
          return sync(key);
        };
        await (instrument ? instrument(queue.name, key, traced) : sync(key));
        queue.forget(key);
      } catch (err) {
        onError(key, err);
        queue.addRateLimited(key);
      } finally {
        queue.done(key, traceId);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, count) }, worker));
}
