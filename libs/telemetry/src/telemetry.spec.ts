import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Carrier, extractContext, injectContext, propagationFields, withSpan } from './index';

describe('telemetry', () => {
  const exporter = new InMemorySpanExporter();
  const contextManager = new AsyncLocalStorageContextManager();

  beforeAll(() => {
    context.setGlobalContextManager(contextManager.enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  });

  afterAll(() => {
    trace.disable();
    propagation.disable();
    context.disable();
  });

  beforeEach(() => exporter.reset());

  it('runs a function in an active span with its attributes and ends it', async () => {
    const result = await withSpan('outer', { 'plinth.key': '/a' }, async () => {
      await new Promise((r) => setImmediate(r));
      return withSpan('inner', {}, () => 'done');
    });
    expect(result).toBe('done');
    const [inner, outer] = exporter.getFinishedSpans();
    expect(outer.name).toBe('outer');
    expect(outer.attributes).toEqual({ 'plinth.key': '/a' });
    expect(inner.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
  });

  it('marks a failed span and rethrows, unless the error is an expected outcome', async () => {
    await expect(withSpan('fails', {}, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(
      withSpan('expected', {}, () => Promise.reject(new Error('not found')), { isFailure: () => false }),
    ).rejects.toThrow('not found');
    const [fails, expected] = exporter.getFinishedSpans();
    expect(fails.status).toEqual({ code: SpanStatusCode.ERROR, message: 'boom' });
    expect(expected.status.code).toBe(SpanStatusCode.UNSET);
    expect(expected.events.map((e) => e.name)).toEqual(['error']);
  });

  it('carries the active context through a string map to a remote span', async () => {
    const carrier: Carrier = {};
    let clientSpanId = '';
    await withSpan('client', {}, () => {
      clientSpanId = trace.getActiveSpan()?.spanContext().spanId ?? '';
      injectContext(carrier);
    }, { kind: SpanKind.CLIENT });
    expect(Object.keys(carrier)).toEqual(expect.arrayContaining(propagationFields().filter((f) => f === 'traceparent')));
    expect(carrier.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);

    await withSpan('server', {}, () => undefined, { kind: SpanKind.SERVER, parent: extractContext(carrier, ROOT_CONTEXT) });
    const [client, server] = exporter.getFinishedSpans();
    expect(server.parentSpanContext?.spanId).toBe(clientSpanId);
    expect(server.spanContext().traceId).toBe(client.spanContext().traceId);
    expect(server.kind).toBe(SpanKind.SERVER);
  });

  it('leaves the carrier empty outside any span', () => {
    expect(injectContext({}, ROOT_CONTEXT)).toEqual({});
  });
});
