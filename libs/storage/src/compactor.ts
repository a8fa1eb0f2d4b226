// HistoryCompactor keeps a store's history to a time window (5 minutes by default, as the
// Kubernetes API server does): it samples the current revision as time passes and compacts to
// the newest sample older than the window, so reads, continue tokens and watches from before
// the window answer Expired (410). Several replicas may compact one etcd: a revision another
// replica already compacted is not an error.
import { Clock, realClock, Timer } from '@plinth/machinery';
import { isStorageError, StorageErrorCode } from './errors';
import { ObjectStore } from './object-store';

export const defaultHistoryWindowMs = 5 * 60 * 1000;

export interface HistoryCompactorOptions {
  windowMs?: number;
  clock?: Clock;
  // onError hears about failed compactions (an unreachable store); the compactor keeps going.
  onError?: (err: unknown) => void;
}

interface Sample {
  time: number;
  revision: number;
}

export class HistoryCompactor {
  private readonly windowMs: number;
  private readonly clock: Clock;
  private readonly samples: Sample[] = [];
  private timer: Timer | null = null;
  private compacted = 0;
  private running: Promise<void> | null = null;

  constructor(
    private readonly store: ObjectStore,
    private readonly options: HistoryCompactorOptions = {},
  ) {
    this.windowMs = options.windowMs ?? defaultHistoryWindowMs;
    this.clock = options.clock ?? realClock;
  }

  start(): void {
    if (this.timer) return;
    const tickMs = Math.max(100, Math.floor(this.windowMs / 5));
    this.timer = this.clock.setInterval(() => void this.tick(), tickMs);
    void this.tick();
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = null;
  }

  // tick samples the current revision and compacts what fell out of the window.
  tick(): Promise<void> {
    this.running ??= this.sampleAndCompact().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async sampleAndCompact(): Promise<void> {
    try {
      const now = this.clock.now();
      this.samples.push({ time: now, revision: await this.store.currentRevision() });
      let target = 0;
      while (this.samples.length > 0 && this.samples[0].time <= now - this.windowMs) {
        target = this.samples.shift()?.revision ?? target;
      }
      if (target > this.compacted) {
        await this.compactTo(target);
      }
    } catch (err) {
      this.options.onError?.(err);
    }
  }

  private async compactTo(revision: number): Promise<void> {
    try {
      await this.store.compact(revision);
    } catch (err) {
      if (!isStorageError(err, StorageErrorCode.Expired)) throw err;
    }
    this.compacted = revision;
  }
}
