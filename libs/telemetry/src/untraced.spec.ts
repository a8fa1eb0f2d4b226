import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { Carrier, extractContext, injectContext, withSpan } from './index';

// Without a tracer provider withSpan records nothing, yet a trace that arrives from another
// process still leaves with the next request.
describe('withSpan without a tracer provider', () => {
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  });

  afterAll(() => {
    propagation.disable();
    context.disable();
  });

  it('runs the function with a span that records nothing', async () => {
    const result = await withSpan('quiet', { a: 1 }, (span) => {
      span.setAttribute('b', 2);
      return span.isRecording() ? 'recording' : 'not recording';
    });
    expect(result).toBe('not recording');
  });

  it('passes a remote parent on to outgoing requests', async () => {
    const incoming: Carrier = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };
    const outgoing: Carrier = {};
    await withSpan('hop', {}, async () => {
      await new Promise((r) => setImmediate(r));
      injectContext(outgoing);
    }, { parent: extractContext(incoming) });
    expect(outgoing.traceparent).toBe(incoming.traceparent);
    expect(trace.getSpan(context.active())).toBeUndefined();
  });

  it('keeps failures as they are', async () => {
    await expect(withSpan('fails', {}, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });
});
