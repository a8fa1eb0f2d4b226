// serveWithTimeout is kube-apiserver's WithTimeoutForNonLongRunningRequests: a request that is
// not long-running and has no answer after --request-timeout is answered 504 Timeout, and what
// its handler (a storage call, most often) does afterwards is abandoned: its answer is
// dropped, since the response has already been written. When that handler returns at last,
// onPostTimeout hears how ("ok", or "panic" for a failure it did not answer itself), as
// kube-apiserver records apiserver_request_post_timeout_total{source="timeout-handler"}.
import { Clock, StatusError, timeout } from '@plinth/machinery';

export type PostTimeoutStatus = 'ok' | 'panic';

export async function serveWithTimeout(
  serve: () => Promise<void>,
  timeoutMs: number,
  clock: Clock,
  onTimeout: () => void,
  onPostTimeout: (status: PostTimeoutStatus) => void = () => undefined,
): Promise<void> {
  let timer: { cancel(): void } | undefined;
  const expired = new Promise<'expired'>((resolve) => (timer = clock.setTimeout(() => resolve('expired'), timeoutMs)));
  const served = serve();
  const first = await Promise.race([served.then(() => 'served' as const), expired]);
  timer?.cancel();
  if (first === 'expired') {
    served.then(
      () => onPostTimeout('ok'),
      () => onPostTimeout('panic'),
    );
    onTimeout();
  }
}

// requestTimeoutError is NewTimeoutError("request did not complete within the allotted
// timeout", 0): no retry hint, so empty details.
export function requestTimeoutError(): StatusError {
  return timeout('request did not complete within the allotted timeout', 0);
}
