// ServerLifecycle is kube-apiserver's graceful termination (server/lifecycle_signals.go) for one
// HTTP listener: once shutdown is requested /readyz fails while the listener keeps serving for
// the shutdown delay (load balancers notice and stop sending), then the listener stops
// accepting, idle keep-alive connections close, every response still to come closes its
// connection, and the requests in flight finish, up to the request timeout; only what is left
// after that is cut.
//
// Open watches end at an event boundary, when kube-apiserver's --shutdown-watch-termination-
// grace-period says: with 0 (its default) they serve on until the other requests have drained
// (or the request timeout passed); with a grace period they are told to end as soon as the
// listener stops, and their streams close paced (at least 200 a second, all within the grace
// period, as its WatchRequestWaitGroup drains them), so that their clients do not all come back
// at once. The shutdown waits for both.
//
// A client therefore either gets its answer or is refused before its request was read: a
// connection is cut only while no request is being served on it, or after the grace period.
//
// With --shutdown-send-retry-after the listener stays open while the requests in flight
// finish, and answers every new request (but health checks and /metrics) with kube-apiserver's
// 429 "The apiserver is shutting down, please try again later.", `Retry-After: 5` and
// `Connection: close`; it closes once they are done.
//
// Over HTTP/2 (listenHttps) "closing the connection" is a GOAWAY: the listener's
// closeIdleConnections closes every session gracefully, so that its streams in flight finish
// and no new one starts on it; `Connection` is an HTTP/1 header and is not sent there.
import { setMaxListeners } from 'node:events';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Clock } from '@plinth/machinery';

// Listener is what the shutdown needs of the API's server: node:http's Server, or the HTTP/2
// server of listenHttps (whose idle connections include its sessions, closed with a GOAWAY).
export interface Listener {
  readonly listening: boolean;
  close(): void;
  closeIdleConnections(): void;
  closeAllConnections(): void;
}

// closeConnectionAfter asks the client to close the connection after this response: an HTTP/1
// `Connection: close` (an HTTP/2 connection closes through its session's GOAWAY instead).
export function closeConnectionAfter(req: IncomingMessage, res: ServerResponse): void {
  if (req.httpVersionMajor < 2) res.setHeader('Connection', 'close');
}

export interface ShutdownTiming {
  // delayMs is --shutdown-delay-duration.
  delayMs: number;
  // gracePeriodMs bounds the wait for the requests in flight (the request timeout).
  gracePeriodMs: number;
  // sendRetryAfter is --shutdown-send-retry-after.
  sendRetryAfter?: boolean;
  // watchGracePeriodMs is --shutdown-watch-termination-grace-period (0: watches end once the
  // other requests have drained).
  watchGracePeriodMs?: number;
}

// WatchTermination is what a watch handler needs of the shutdown.
export interface WatchTermination {
  // ended aborts when open watches must end (at the next event boundary).
  readonly ended: AbortSignal;
  // onEnded calls end when open watches must end (at once if they already must), and returns
  // what cancels that call (the watch ended first).
  onEnded(end: () => void): () => void;
  // watching marks a response as an open watch, which the shutdown ends on its own terms.
  watching(res: ServerResponse): void;
  // released resolves when an ended watch may close its stream (paced during the grace period).
  released(): Promise<void>;
}

// minimumWatchClosesPerSecond is kube-apiserver's floor on the pace of watch closes.
const minimumWatchClosesPerSecond = 200;

const retryAfterExemptPaths = ['/readyz', '/livez', '/healthz', '/metrics'];
export const shuttingDownMessage = 'The apiserver is shutting down, please try again later.';

export class ServerLifecycle implements WatchTermination {
  private readonly inFlight = new Set<ServerResponse>();
  private readonly watches = new WeakSet<ServerResponse>();
  private pace: { intervalMs: number; deadline: number; next: number } | null = null;
  private readonly watchesEnd = new AbortController();
  private requested = false;
  private draining = false;
  private refusing = false;
  private onClosed: (() => void) | null = null;
  // watchEnds are the open watches' onEnded calls: a Set rather than listeners of the signal,
  // each of which node's EventTarget adds after walking those already there (quadratic in ten
  // thousand watches).
  private readonly watchEnds = new Set<() => void>();

  constructor(private readonly clock: Clock) {
    setMaxListeners(0, this.watchesEnd.signal);
    this.watchesEnd.signal.addEventListener('abort', () => {
      const ends = [...this.watchEnds];
      this.watchEnds.clear();
      for (const end of ends) end();
    });
  }

  // shutdownRequested is true from the signal on: /readyz's shutdown check fails.
  get shutdownRequested(): boolean {
    return this.requested;
  }

  get ended(): AbortSignal {
    return this.watchesEnd.signal;
  }

  onEnded(end: () => void): () => void {
    if (this.watchesEnd.signal.aborted) {
      end();
      return () => undefined;
    }
    this.watchEnds.add(end);
    return () => this.watchEnds.delete(end);
  }

  watching(res: ServerResponse): void {
    this.watches.add(res);
  }

  released(): Promise<void> {
    if (!this.pace) return Promise.resolve();
    const now = this.clock.now();
    const at = Math.min(Math.max(now, this.pace.next), this.pace.deadline);
    this.pace.next = at + this.pace.intervalMs;
    return at <= now ? Promise.resolve() : this.sleep(at - now);
  }

  // inFlightRequests counts the responses not yet closed.
  get inFlightRequests(): number {
    return this.inFlight.size;
  }

  // refuse answers a request that arrives while the server waits, listening, for the requests
  // in flight (--shutdown-send-retry-after), and says whether it did.
  refuse(req: IncomingMessage, res: ServerResponse): boolean {
    if (!this.refusing) return false;
    const path = req.url ?? '/';
    if (retryAfterExemptPaths.some((prefix) => path.startsWith(prefix)) || String(req.headers['user-agent'] ?? '').startsWith('kube-apiserver/')) return false;
    res.statusCode = 429;
    closeConnectionAfter(req, res);
    res.setHeader('Retry-After', '5');
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.end(`${shuttingDownMessage}\n`);
    return true;
  }

  // track follows a request until its response closes. Once the listener has stopped, the
  // response asks the client to close the connection, so that no request follows on it.
  track(res: ServerResponse): void {
    if (this.draining) closeConnectionAfter(res.req, res);
    this.inFlight.add(res);
    res.once('close', () => {
      this.inFlight.delete(res);
      this.onClosed?.();
    });
  }

  // shutdown runs the sequence on the listener and resolves once every request is answered
  // or the grace period is over.
  async shutdown(listener: Listener, timing: ShutdownTiming): Promise<void> {
    this.requested = true;
    if (timing.delayMs > 0) await this.sleep(timing.delayMs);
    this.draining = true;
    if (timing.sendRetryAfter) this.refusing = true;
    else {
      listener.close();
      listener.closeIdleConnections();
    }
    for (const res of this.inFlight) {
      if (!res.headersSent) closeConnectionAfter(res.req, res);
    }
    const watchGracePeriodMs = timing.watchGracePeriodMs ?? 0;
    const requestsDrained = this.sleepUnless(timing.gracePeriodMs, () => this.openRequests() === 0);
    if (watchGracePeriodMs > 0) {
      this.endWatchesPaced(watchGracePeriodMs);
      await Promise.all([requestsDrained, this.sleepUnless(watchGracePeriodMs, () => this.openWatches() === 0)]);
    } else {
      await requestsDrained;
      this.watchesEnd.abort();
      await this.sleepUnless(timing.gracePeriodMs, () => this.inFlight.size === 0);
    }
    if (listener.listening) listener.close();
    listener.closeAllConnections();
  }

  // endWatchesPaced tells every open watch to end, and paces their closes over the grace period.
  private endWatchesPaced(gracePeriodMs: number): void {
    const perSecond = Math.max(this.openWatches() / (gracePeriodMs / 1000), minimumWatchClosesPerSecond);
    const now = this.clock.now();
    this.pace = { intervalMs: 1000 / perSecond, deadline: now + gracePeriodMs, next: now };
    this.watchesEnd.abort();
  }

  private openWatches(): number {
    return [...this.inFlight].filter((res) => this.watches.has(res)).length;
  }

  private openRequests(): number {
    return this.inFlight.size - this.openWatches();
  }

  // sleepUnless resolves once done() holds after a response closed, or after ms.
  private async sleepUnless(ms: number, done: () => boolean): Promise<void> {
    if (done()) return;
    const held = new Promise<void>((resolve) => {
      const previous = this.onClosed;
      this.onClosed = () => {
        previous?.();
        if (done()) resolve();
      };
    });
    await Promise.race([held, this.sleep(ms)]);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.clock.setTimeout(resolve, ms));
  }
}
