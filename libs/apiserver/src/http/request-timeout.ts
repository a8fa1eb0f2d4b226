// serveWithTimeout is kube-apiserver's WithTimeoutForNonLongRunningRequests: a request that is
// not long-running and has no answer after --request-timeout is answered 504 Timeout, and what
// its handler (a storage call, most often) does afterwards is abandoned: its answer is
// dropped, since the response has already been written. When that handler returns at last,
// onPostTimeout hears how ("ok", or "panic" for a failure it did not answer itself), as
// kube-apiserver records apiserver_request_post_timeout_total{source="timeout-handler"}.
import { Clock, StatusError, timeout } from '@plinth/machinery';

export type PostTimeoutStatus = 'ok' | 'panic';

export function serveWithTimeout(
  serve: () => Promise<void>,
  timeoutMs: number,
  clock: Clock,
  onTimeout: () => void,
  onPostTimeout: (status: PostTimeoutStatus) => void = () => undefined,
): Promise<void> {
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
