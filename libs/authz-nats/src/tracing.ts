// The trace context of an authorization request travels in its NATS headers, so the span of
// the authz replica that answers continues the gateway's trace.
import { headers, MsgHdrs } from 'nats';
import { Carrier, Context, extractContext, injectContext, propagationFields } from '@plinth/telemetry';

export type Operation = 'Authorize' | 'RulesReview' | 'RbacWrite';

export const spanNames: Record<Operation, string> = {
  Authorize: 'plinth.authz/Authorize',
  RulesReview: 'plinth.authz/RulesReview',
  RbacWrite: 'plinth.authz/RbacWrite',
};

export function spanAttributes(subject: string): Record<string, string> {
  return { 'messaging.system': 'nats', 'messaging.destination.name': subject };
}

// headersWithContext carries the active trace context; undefined when tracing is off, so a
// request without a propagator sends no headers at all.
export function headersWithContext(): MsgHdrs | undefined {
  const carrier = injectContext({});
  const keys = Object.keys(carrier);
  if (keys.length === 0) return undefined;
  const h = headers();
  for (const key of keys) h.set(key, carrier[key]);
  return h;
}

// contextOf reads the caller's trace context from a request's headers, copying only the
// fields the registered propagator uses.
export function contextOf(h: MsgHdrs | undefined): Context | undefined {
  const fields = propagationFields();
  if (!h || fields.length === 0) return undefined;
  const carrier: Carrier = {};
  for (const field of fields) {
    if (h.has(field)) carrier[field] = h.get(field);
  }
  return extractContext(carrier);
}
