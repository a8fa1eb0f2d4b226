// withSpan runs a function in a new active span: the span ends when the function's promise
// settles, and a failure marks it as an error. Without a registered tracer provider the span
// is the API's no-op span, so callers pay almost nothing when tracing is off.
import { Attributes, Context, INVALID_SPAN_CONTEXT, ProxyTracerProvider, Span, SpanKind, SpanStatusCode, TraceFlags, context, trace } from '@opentelemetry/api';

// tracer is resolved through the API's proxy provider, so a provider registered after this
// module loaded still receives the spans.
const tracer = trace.getTracer('plinth');

export interface WithSpanOptions {
  // kind is the span kind; INTERNAL when absent.
  kind?: SpanKind;
  // parent is the context the span starts in; the active context when absent.
  parent?: Context;
  // isFailure tells which thrown errors mark the span as failed. An error that is an expected
  // outcome (a missing key, a lost compare-and-swap) is recorded as an event only. Every error
  // is a failure when absent.
  isFailure?: (err: unknown) => boolean;
}

export async function withSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span) => T | Promise<T>,
  options: WithSpanOptions = {},
): Promise<T> {
  if (!tracingOn()) return untraced(fn, options.parent);
  const parent = options.parent ?? context.active();
  return tracer.startActiveSpan(name, { kind: options.kind, attributes }, parent, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      recordError(span, err, options.isFailure?.(err) ?? true);
      throw err;
    } finally {
      span.end();
    }
  });
}

// tracingOn tells whether a tracer provider is registered (by startTracing, or by a test with
// its in-memory exporter). It stays on once one is: the API never takes a provider back.
let tracing = false;
export function tracingOn(): boolean {
  if (tracing) return true;
  const provider = trace.getTracerProvider();
  tracing = !(provider instanceof ProxyTracerProvider) || provider.getDelegateTracer('plinth') !== undefined;
  return tracing;
}

const nonRecording = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

// untraced runs fn without a span. A remote parent (from a traceparent the caller extracted)
// still becomes the active context, so this process passes the trace on to the next one.
async function untraced<T>(fn: (span: Span) => T | Promise<T>, parent: Context | undefined): Promise<T> {
  if (parent !== undefined && trace.getSpan(parent) !== undefined) return context.with(parent, () => fn(nonRecording));
  return fn(nonRecording);
}

function recordError(span: Span, err: unknown, failure: boolean): void {
  if (!span.isRecording()) return;
  const message = err instanceof Error ? err.message : String(err);
  if (failure) {
    span.recordException(err instanceof Error ? err : message);
    span.setStatus({ code: SpanStatusCode.ERROR, message });
  } else {
    span.addEvent('error', { 'error.type': err instanceof Error ? err.name : typeof err, 'error.message': message });
  }
}

// sampledTraceId is the trace id of the active span when its trace is sampled (so exported):
// what a metric keeps as an exemplar; null otherwise.
export function sampledTraceId(): string | null {
  const span = trace.getActiveSpan();
  if (!span) return null;
  const spanContext = span.spanContext();
  return trace.isSpanContextValid(spanContext) && (spanContext.traceFlags & TraceFlags.SAMPLED) !== 0 ? spanContext.traceId : null;
}

// activeTraceId is the trace id of the active span, for logs; null outside any recorded trace.
export function activeTraceId(): string | null {
  const span = trace.getActiveSpan();
  if (!span) return null;
  const { traceId } = span.spanContext();
  return trace.isSpanContextValid(span.spanContext()) ? traceId : null;
}
