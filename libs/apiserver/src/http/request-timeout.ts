// The request's deadline, as kube-apiserver's WithRequestDeadline and
// WithTimeoutForNonLongRunningRequests set and enforce it for a request that is not
// long-running: its ?timeout= (a Go duration) shortens --request-timeout, a malformed one is a
// 400, and a request without an answer at its deadline is answered 504 by the timeout filter,
// whatever its handler (a storage call, most often) does afterwards: that answer is dropped,
// since the response has already been written. When that handler returns at last,
// onPostTimeout hears how ("ok", or "panic" for a failure it did not answer itself), as
// kube-apiserver records apiserver_request_post_timeout_total{source="timeout-handler"}. The
// timeout filter writes its Status bare (Go's json.Encoder on the Status, without kind or
// apiVersion, as text/plain); the finisher's 504 of a create, update, patch or delete past its
// 34 s is a Status error like any.
import { ServerResponse } from 'node:http';
import { DurationError, parseDurationNanos } from '@plinth/config';
import { badRequest, Clock, StatusError, timeout } from '@plinth/machinery';
import { RequestInfo } from '../request-info';

export type PostTimeoutStatus = 'ok' | 'panic';

// timerResolutionMs is the shortest time a timer can measure: a timeout below it has passed
// before any handler could answer (kube-apiserver counts the deadline from the request's
// arrival), so the request is answered 504 at once.
const timerResolutionMs = 1;

// requestTimeoutMs is the request's timeout: its first ?timeout= when that is positive and
// shorter than maxMs (--request-timeout), else maxMs. A timeout that is not a Go duration is
// a 400 BadRequest.
export function requestTimeoutMs(query: URLSearchParams, maxMs: number): number {
  const value = query.get('timeout') ?? '';
  if (value === '') return maxMs;
  let nanos: bigint;
  try {
    nanos = parseDurationNanos(value);
  } catch (err) {
    if (err instanceof DurationError) throw badRequest(`invalid timeout specified in the request URL - ${err.message}`);
    throw err;
  }
  const ms = Number(nanos) / 1e6;
  return ms > 0 && ms < maxMs ? ms : maxMs;
}

// serveWithTimeout runs serve and calls onTimeout when it has not finished after timeoutMs (at
// once, without serving, for a timeout below the timer's resolution).
export function serveWithTimeout(
  serve: () => Promise<void>,
  timeoutMs: number,
  clock: Clock,
  onTimeout: () => void,
  onPostTimeout: (status: PostTimeoutStatus) => void = () => undefined,
): Promise<void> {
  if (timeoutMs < timerResolutionMs) {
    onTimeout();
    return Promise.resolve();
  }
  // One promise and one timer a request, settled by whichever comes first (every request
  // passes here: no race of three promises).
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    let timedOut = false;
    const timer = clock.setTimeout(() => {
      if (settled) return;
      settled = true;
      timedOut = true;
      onTimeout();
      resolve();
    }, timeoutMs);
    const finish = (err: unknown, failed: boolean) => {
      if (timedOut) return onPostTimeout(failed ? 'panic' : 'ok');
      if (settled) return;
      settled = true;
      timer.cancel();
      if (failed) reject(err);
      else resolve();
    };
    let served: Promise<void>;
    try {
      served = serve();
    } catch (err) {
      finish(err, true);
      return;
    }
    served.then(
      () => finish(undefined, false),
      (err: unknown) => finish(err, true),
    );
  });
}

// requestTimeoutError is NewTimeoutError("request did not complete within the allotted
// timeout", 0): no retry hint, so empty details.
export function requestTimeoutError(): StatusError {
  return timeout('request did not complete within the allotted timeout', 0);
}

// writeRequestTimeout is the timeout filter's answer: 504 with the Status as Go's json.Encoder
// writes its struct (no kind or apiVersion, a newline after it), whatever the client accepts,
// and no header of the handler's; Go sniffs its Content-Type. A response already begun is cut
// off instead.
export function writeRequestTimeout(res: ServerResponse): void {
  if (res.writableEnded) return;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  const { metadata, status, message, reason, details, code } = requestTimeoutError().errStatus;
  const body = `${JSON.stringify({ metadata, status, message, reason, details, code })}\n`;
  res.statusCode = 504;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, private');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(res.req?.method === 'HEAD' ? undefined : body);
}

// finisherTimeoutMs is the bound kube-apiserver's create, update, patch and delete handlers put
// on their work (requestTimeoutUpperBound); deletecollection, like list, has none.
export const finisherTimeoutMs = 34_000;
const finishedVerbs = new Set(['create', 'update', 'patch', 'delete']);

// finisherBoundMs is the time after which a request's handler gives up with the finisher's
// 504, or undefined when the request's own deadline comes first (or its verb has no bound).
export function finisherBoundMs(info: RequestInfo, timeoutMs: number): number | undefined {
  return info.isResourceRequest && finishedVerbs.has(info.verb) && finisherTimeoutMs < timeoutMs ? finisherTimeoutMs : undefined;
}

// finisherTimeoutError is the finisher's answer to work that outlived its context: a Status
// error, written as any other.
export function finisherTimeoutError(): StatusError {
  return timeout('request did not complete within requested timeout - context deadline exceeded', 0);
}

// finishWithin settles as work does, or fails with the finisher's timeout after boundMs.
export function finishWithin<T>(work: Promise<T>, boundMs: number | undefined, clock: Clock): Promise<T> {
  if (boundMs === undefined) return work;
  return new Promise<T>((resolve, reject) => {
    const timer = clock.setTimeout(() => reject(finisherTimeoutError()), boundMs);
    work.then(
      (value) => {
        timer.cancel();
        resolve(value);
      },
      (err: unknown) => {
        timer.cancel();
        reject(err);
      },
    );
  });
}
