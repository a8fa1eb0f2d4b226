// withTracing adds the process's Tracing to an app's root module: its API client calls run in
// client spans whose context travels in their headers (so a controller's request continues
// into the gateway's trace), each sync of a controller's key runs in a span of its own that
// those calls share (one trace per sync), and its queued spans are exported on shutdown. The module is
// global: Nest runs the shutdown hooks of global modules last, after the hosts whose own
// shutdown may still end spans.
import { DynamicModule, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { RequestInstrumentation, SyncInstrumentation, setRequestInstrumentation, setSyncInstrumentation } from '@plinth/client';
import { isStatusError } from '@plinth/machinery';
import { injectContext, ROOT_CONTEXT, sampledTraceId, SpanKind, Tracing, withSpan } from '@plinth/telemetry';

const TRACING = Symbol('Tracing');

// clientSpans names a call as client-go's traced transport does ("HTTP GET"); an answer below
// 500 (a 404 or a conflict a controller expects) is not a failure of the call.
export const clientSpans: RequestInstrumentation = (method, path, send) =>
  withSpan(
    `HTTP ${method}`,
    { 'http.method': method, 'http.target': path },
    () => send(injectContext({})),
    { kind: SpanKind.CLIENT, isFailure: (err) => !isStatusError(err) || err.code >= 500 },
  );

// syncSpans starts a trace for each sync of a key ("sync job" for the Job controller's queue),
// whatever context the worker's loop was in.
export const syncSpans: SyncInstrumentation = (queue, key, sync) =>
  withSpan(`sync ${queue}`, { 'workqueue.name': queue, 'workqueue.key': key }, () => sync(sampledTraceId()), { parent: ROOT_CONTEXT });

@Injectable()
class TracingShutdown implements OnApplicationShutdown {
  constructor(@Inject(TRACING) private readonly tracing: Tracing) {
    setRequestInstrumentation(clientSpans);
    setSyncInstrumentation(syncSpans);
  }

  async onApplicationShutdown(): Promise<void> {
    setRequestInstrumentation(null);
    setSyncInstrumentation(null);
    await this.tracing.shutdown();
  }
}

@Module({})
class TracingModule {}

export function withTracing(root: DynamicModule, tracing: Tracing): DynamicModule {
  if (!tracing.enabled) return root;
  const tracingModule: DynamicModule = {
    module: TracingModule,
    global: true,
    providers: [{ provide: TRACING, useValue: tracing }, TracingShutdown],
  };
  return { ...root, imports: [...(root.imports ?? []), tracingModule] };
}
