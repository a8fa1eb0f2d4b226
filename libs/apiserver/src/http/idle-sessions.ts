// closeSessionWhenIdle is Go's http2.Server IdleTimeout, which kube-apiserver's secure serving
// sets to 90 s (secure_serving.go, "matches http.DefaultTransport keep-alive timeout"): a
// session that has had no open stream for that long is sent a GOAWAY (NO_ERROR) and closed. A
// session with an open stream (a quiet watch) is not idle, however long nothing is written on
// it; the wait starts over when its last stream closes.
import { ServerHttp2Session, ServerHttp2Stream } from 'node:http2';
import { Clock, Timer } from '@plinth/machinery';

// idleConnectionTimeoutMs is kube-apiserver's IdleTimeout, for HTTP/2 sessions as for HTTP/1.1
// keep-alive connections.
export const idleConnectionTimeoutMs = 90_000;

export function closeSessionWhenIdle(session: ServerHttp2Session, idleTimeoutMs: number, clock: Clock): void {
  let openStreams = 0;
  let idle: Timer | null = null;
  const waitForIdle = () => {
    idle = clock.setTimeout(() => session.close(), idleTimeoutMs);
  };
  const stopWaiting = () => {
    idle?.cancel();
    idle = null;
  };
  session.on('stream', (stream: ServerHttp2Stream) => {
    openStreams++;
    stopWaiting();
    stream.once('close', () => {
      openStreams--;
      if (openStreams === 0 && !session.closed && !session.destroyed) waitForIdle();
    });
  });
  session.once('close', stopWaiting);
  waitForIdle();
}
