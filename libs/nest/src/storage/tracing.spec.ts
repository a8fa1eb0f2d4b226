// A trace started by a caller of GrpcObjectStore continues in the storage service: the
// client span travels in the call's metadata and becomes the parent of the server span.
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { EmbeddedObjectStore } from '@plinth/storage';
import { GrpcObjectStore } from '@plinth/storage-grpc';
import { StorageServer, startStorageServer } from './storage-server';
import { eventually, inMemoryTracing } from '@plinth/testing';

describe('tracing over gRPC', () => {
  const tracing = inMemoryTracing();
  const { exporter } = tracing;
  const tracer = () => trace.getTracer('test');
  let backend: EmbeddedObjectStore;
  let server: StorageServer;
  let store: GrpcObjectStore;

  beforeAll(async () => {
    tracing.install();
    backend = new EmbeddedObjectStore();
    server = await startStorageServer(backend, { address: '127.0.0.1:0' });
    store = new GrpcObjectStore({ address: server.address });
  });

  afterAll(async () => {
    await store.close();
    await server.shutdown();
    await backend.close();
    tracing.uninstall();
  });

  beforeEach(() => exporter.reset());

  const named = (name: string): ReadableSpan => {
    const span = exporter.getFinishedSpans().find((s) => s.name === name);
    if (!span) throw new Error(`no span ${name} among ${exporter.getFinishedSpans().map((s) => s.name).join(', ')}`);
    return span;
  };

  it.each([
    ['Create', 'the Exchange stream', () => store.create('/registry/traced/a', new TextEncoder().encode('{}'))],
    ['List', 'a unary call', () => store.list({ prefix: '/registry/traced/' })],
  ])('makes the client span of a %s over %s the parent of its server span', async (method, _how, request) => {
    await tracer().startActiveSpan('reconcile', async (root) => {
      await request();
      root.end();
    });
    const root = named('reconcile');
    const spans = exporter.getFinishedSpans().filter((s) => s.name === `plinth.storage.v1.ObjectStore/${method}`);
    const client = spans.find((s) => s.kind === SpanKind.CLIENT);
    const server = spans.find((s) => s.kind === SpanKind.SERVER);
    expect(client?.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
    expect(server?.parentSpanContext?.spanId).toBe(client?.spanContext().spanId);
    expect(server?.spanContext().traceId).toBe(root.spanContext().traceId);
    expect(server?.attributes).toMatchObject({ 'rpc.system': 'grpc', 'rpc.method': method });
  });

  it('records an expected outcome without marking the spans as failed', async () => {
    await expect(store.get('/registry/traced/missing')).rejects.toThrow('key not found');
    const spans = exporter.getFinishedSpans().filter((s) => s.name === 'plinth.storage.v1.ObjectStore/Get');
    expect(spans).toHaveLength(2);
    for (const span of spans) {
      expect(span.status.code).toBe(SpanStatusCode.UNSET);
      expect(span.events.map((e) => e.name)).toEqual(['error']);
    }
  });

  it('continues the caller trace in the server span of a watch', async () => {
    await tracer().startActiveSpan('informer', async (root) => {
      const watch = store.watch({ prefix: '/registry/watched/', revision: await backend.currentRevision() });
      const next = watch[Symbol.asyncIterator]().next();
      await backend.create('/registry/watched/a', new TextEncoder().encode('{}'));
      await next;
      watch.close();
      root.end();
    });
    await eventually(() => exporter.getFinishedSpans().some((s) => s.name.endsWith('/Watch')), { what: 'the Watch span ended', intervalMs: 10 });
    expect(named('plinth.storage.v1.ObjectStore/Watch').parentSpanContext?.spanId).toBe(named('informer').spanContext().spanId);
  });
});
