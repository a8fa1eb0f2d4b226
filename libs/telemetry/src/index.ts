export { activeTraceId, sampledTraceId, withSpan, WithSpanOptions } from './span';
export { Carrier, injectContext, extractContext, propagationFields } from './propagation';
export { Tracing, diagLogLevel, exportConfigured, startTracing, tracingEnabled } from './tracing';
export { ROOT_CONTEXT, SpanKind, SpanStatusCode } from '@opentelemetry/api';
export type { Attributes, Context, Span } from '@opentelemetry/api';
