export { withSpan, WithSpanOptions } from './span';
export { Carrier, injectContext, extractContext, propagationFields } from './propagation';
export { SpanKind } from '@opentelemetry/api';
export type { Context } from '@opentelemetry/api';
