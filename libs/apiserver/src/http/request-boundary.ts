// RequestBoundary keeps a failure in serving one request to that request, as kube-apiserver's
// panic recovery (WithPanicRecovery) and Go's per-connection recovery do: whatever a request's
// stages throw, synchronously or by rejecting, and whatever its request and response streams
// emit as errors, ends as a 500 InternalError Status (or, once the response has begun, a closed
// connection), logged with the request's trace id and counted in
// apiserver_request_panics_total. The process carries on serving.
import { IncomingMessage, ServerResponse } from 'node:http';
import { internalError, isStatusError } from '@plinth/machinery';
import { Counter, CounterChild, Registry } from '@plinth/metrics';
import { activeTraceId } from '@plinth/telemetry';

// RequestPanicLog writes one line about a request that failed unexpectedly.
export type RequestPanicLog = (line: string) => void;

const defaultLog: RequestPanicLog = (line) => process.stderr.write(`${line}\n`);

export class RequestBoundary {
  private readonly panics: CounterChild | null;

  constructor(registry: Registry | null, private readonly log: RequestPanicLog = defaultLog) {
    this.panics = registry
      ? registry
          .shared(
            new Counter({
              name: 'apiserver_request_panics_total',
              help: 'Number of requests whose handling failed with an unexpected error (a panic in kube-apiserver) and were answered 500 or cut off.',
            }),
          )
          .labels()
      : null;
  }

  // run serves one request inside the boundary.
  run(req: IncomingMessage, res: ServerResponse, serve: () => Promise<void>): void {
    // A response stream that fails (a write after its end) would otherwise throw from its emit.
    res.on('error', (err) => this.report(req, err));
    let served: Promise<void>;
    try {
      served = serve();
    } catch (err) {
      this.recover(req, res, err);
      return;
    }
    served.then(undefined, (err: unknown) => this.recover(req, res, err));
  }

  // report logs and counts an unexpected failure of a request that is answered elsewhere.
  report(req: IncomingMessage, err: unknown): void {
    this.panics?.inc();
    const traceId = activeTraceId() ?? traceparentTraceId(req.headers.traceparent);
    try {
      const detail = err instanceof Error ? (err.stack ?? errorMessage(err)) : errorMessage(err);
      this.log(`apiserver panic'd: method=${JSON.stringify(req.method ?? '')} URI=${JSON.stringify(req.url ?? '')} traceID=${JSON.stringify(traceId ?? '')}: ${detail}`);
    } catch {
      // A log that fails must not take the request's answer with it.
    }
  }

  // recover reports a failure that escaped every stage and answers it.
  recover(req: IncomingMessage, res: ServerResponse, err: unknown): void {
    this.report(req, err);
    answerInternalError(res, err);
  }
}

// answerInternalError answers 500 with an InternalError Status, dropping whatever headers the
// failed stages had set; once the response has begun there is no answer to give, and the
// connection is closed so that the client sees a cut-off response, not a complete one.
export function answerInternalError(res: ServerResponse, err: unknown): void {
  if (res.headersSent || res.writableEnded) {
    res.destroy();
    return;
  }
  try {
    const status = (isStatusError(err) ? err : internalError(errorMessage(err))).errStatus;
    const body = `${JSON.stringify(status)}\n`;
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    res.writeHead(status.code || 500, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  } catch {
    res.destroy();
  }
}

// traceparentTraceId reads the trace id of a W3C traceparent header.
function traceparentTraceId(header: string | string[] | undefined): string | null {
  const match = typeof header === 'string' ? /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}/.exec(header.trim()) : null;
  return match && !/^0+$/.test(match[1]) ? match[1] : null;
}

// errorMessage is what a thrown value says, or a placeholder when even that throws.
function errorMessage(err: unknown): string {
  try {
    return err instanceof Error ? err.message : String(err);
  } catch {
    return 'an error that cannot be printed';
  }
}
