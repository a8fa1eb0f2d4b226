// ServerLifecycle is kube-apiserver's graceful termination (server/lifecycle_signals.go) for one
// HTTP listener: once shutdown is requested /readyz fails while the listener keeps serving for
// the shutdown delay (load balancers notice and stop sending), then the listener stops
// accepting, idle keep-alive connections close, every response still to come closes its
// connection, open watches end at an event boundary, and the requests in flight finish, up to
// the request timeout; only what is left after that is cut.
//
// A client therefore either gets its answer or is refused before its request was read: a
// connection is cut only while no request is being served on it, or after the grace period.
//
// With --shutdown-send-retry-after the listener stays open while the requests in flight
// finish, and answers every new request (but health checks and /metrics) with kube-apiserver's
// 429 "The apiserver is shutting down, please try again later.", `Retry-After: 5` and
// `Connection: close`; it closes once they are done.
import { setMaxListeners } from 'node:events';
import { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Clock } from '@plinth/machinery';

export interface ShutdownTiming {
  // delayMs is --shutdown-delay-duration.
  delayMs: number;
  // gracePeriodMs bounds the wait for the requests in flight (the request timeout).
  gracePeriodMs: number;
  // sendRetryAfter is --shutdown-send-retry-after.
  sendRetryAfter?: boolean;
}

const retryAfterExemptPaths = ['/readyz', '/livez', '/healthz', '/metrics'];
export const shuttingDownMessage = 'The apiserver is shutting down, please try again later.';

export class ServerLifecycle {
  private readonly inFlight = new Set<ServerResponse>();
  private readonly watchesEnd = new AbortController();
  private requested = false;
  private draining = false;
  private refusing = false;
  private onDrained: (() => void) | null = null;

  constructor(private readonly clock: Clock) {
    // Every open watch listens on the signal.
    setMaxListeners(0, this.watchesEnd.signal);
  }

  // shutdownRequested is true from the signal on: /readyz's shutdown check fails.
  get shutdownRequested(): boolean {
    return this.requested;
  }

  // watchesEnded aborts when open watches must end.
  get watchesEnded(): AbortSignal {
    return this.watchesEnd.signal;
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
    res.setHeader('Connection', 'close');
    res.setHeader('Retry-After', '5');
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.end(`${shuttingDownMessage}\n`);
    return true;
  }

  // track follows a request until its response closes. Once the listener has stopped, the
  // response asks the client to close the connection, so that no request follows on it.
  track(res: ServerResponse): void {
    if (this.draining) res.setHeader('Connection', 'close');
    this.inFlight.add(res);
    res.once('close', () => {
      this.inFlight.delete(res);
      if (this.inFlight.size === 0) this.onDrained?.();
    });
  }

  // shutdown runs the sequence on the listener and resolves once every request is answered
  // or the grace period is over.
  async shutdown(listener: Server, timing: ShutdownTiming): Promise<void> {
    this.requested = true;
    if (timing.delayMs > 0) await this.sleep(timing.delayMs);
    this.draining = true;
    if (timing.sendRetryAfter) this.refusing = true;
    else {
      listener.close();
      listener.closeIdleConnections();
    }
    for (const res of this.inFlight) {
      if (!res.headersSent) res.setHeader('Connection', 'close');
    }
    this.watchesEnd.abort();
    if (this.inFlight.size > 0) {
      const drained = new Promise<void>((resolve) => (this.onDrained = resolve));
      await Promise.race([drained, this.sleep(timing.gracePeriodMs)]);
    }
    if (listener.listening) listener.close();
    listener.closeAllConnections();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.clock.setTimeout(resolve, ms));
  }
}
