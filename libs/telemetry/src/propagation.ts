// A carrier is a plain string map that crosses a process boundary with a request: gRPC
// metadata, NATS headers. injectContext writes the trace context into it with the registered
// propagator (W3C traceparent and tracestate, typically); extractContext reads it back on the
// other side, so the remote span continues the caller's trace.
import { Context, context, propagation } from '@opentelemetry/api';

export type Carrier = Record<string, string>;

export function injectContext(carrier: Carrier, ctx: Context = context.active()): Carrier {
  propagation.inject(ctx, carrier);
  return carrier;
}

export function extractContext(carrier: Carrier, ctx: Context = context.active()): Context {
  return propagation.extract(ctx, carrier);
}

// propagationFields names the carrier keys the registered propagator reads, so a transport can
// copy just those out of its own headers; empty when no propagator is registered.
export function propagationFields(): string[] {
  return propagation.fields();
}
