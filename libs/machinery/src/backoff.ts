import { Clock } from './clock';

// Backoff is apimachinery's wait.Backoff as client-go's reflector uses it between failed
// list-and-watch attempts: each wait doubles up to a cap, with jitter so that the clients of a
// server that came back do not all return at once, and starts over after a success.
export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  // factor multiplies the wait after each failure (2 when absent).
  factor?: number;
  // jitter adds up to this fraction of the wait at random (0.5 when absent).
  jitter?: number;
  // random returns a number in [0, 1) (Math.random when absent).
  random?: () => number;
}

export class Backoff {
  private current: number;

  constructor(private readonly options: BackoffOptions) {
    this.current = options.initialMs;
  }

  // next returns how long to wait before the next attempt.
  next(): number {
    const base = this.current;
    this.current = Math.min(this.options.maxMs, base * (this.options.factor ?? 2));
    const jitter = this.options.jitter ?? 0.5;
    return Math.min(this.options.maxMs, base + base * jitter * (this.options.random ?? Math.random)());
  }

  reset(): void {
    this.current = this.options.initialMs;
  }
}

// LinkState follows one link of a process (to storage, NATS, etcd) that many users share: they
// report each failure and success, and it logs once when the link is lost and once when it is
// back, instead of once per failed attempt.
export class LinkState {
  private lostAt: number | null = null;
  private lastError = '';

  constructor(
    readonly name: string,
    private readonly log: (message: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  get up(): boolean {
    return this.lostAt === null;
  }

  // waiting marks a link not made yet, at start.
  waiting(): void {
    this.lostAt ??= this.now();
    this.lastError = 'not connected yet';
  }

  failed(err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    if (this.lostAt !== null) {
      this.lastError = message;
      return;
    }
    this.lostAt = this.now();
    this.lastError = message;
    this.log(`link to ${this.name} lost: ${message}`);
  }

  ok(): void {
    if (this.lostAt === null) return;
    const downMs = this.now() - this.lostAt;
    this.lostAt = null;
    this.log(`link to ${this.name} back after ${(downMs / 1000).toFixed(1)} s (last error: ${this.lastError})`);
  }
}

export interface RetryOptions {
  clock: Clock;
  // link hears each failure, and the success.
  link: LinkState;
  backoff?: Backoff;
  // stopped ends the retries (the result is then undefined).
  stopped?: () => boolean;
}

// retryUntilDone runs an operation until it succeeds, waiting with backoff (100 ms doubling up
// to 5 s when not given) between failures: what an app does with a service it needs at start
// and that may not be up yet.
export async function retryUntilDone<T>(operation: () => Promise<T>, options: RetryOptions): Promise<T | undefined> {
  const backoff = options.backoff ?? new Backoff({ initialMs: 100, maxMs: 5000 });
  for (;;) {
    try {
      const result = await operation();
      options.link.ok();
      return result;
    } catch (err) {
      if (options.stopped?.()) return undefined;
      options.link.failed(err);
      // The wait holds the process open (the clock's timers do not): an app waiting at start
      // for a service may have nothing else that keeps it running.
      const hold = setInterval(() => undefined, 2 ** 30);
      await new Promise<void>((resolve) => options.clock.setTimeout(resolve, backoff.next()));
      clearInterval(hold);
      if (options.stopped?.()) return undefined;
    }
  }
}

// probeLink checks a link every intervalMs (a cheap read), for a process whose own traffic
// would not tell it the link is lost; it returns the function that stops probing.
export function probeLink(link: LinkState, check: () => Promise<unknown>, clock: Clock, intervalMs: number): () => void {
  let running = false;
  const timer = clock.setInterval(() => {
    if (running) return;
    running = true;
    check().then(
      () => link.ok(),
      (err: unknown) => link.failed(err),
    ).finally(() => (running = false));
  }, intervalMs);
  return () => timer.cancel();
}

// unwatchedLink is a LinkState nobody reads.
export const unwatchedLink = (name: string): LinkState => new LinkState(name, () => undefined);
