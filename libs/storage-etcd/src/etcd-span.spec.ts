// Every request the store sends to a real etcd is a client span under the caller's span, with
// its key range and revisions.
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { StorageErrorCode, prefixEnd } from '@plinth/storage';
import { EtcdServer, freePort, startEtcd } from '@plinth/testing';
import { Registry } from '@plinth/metrics';
import { EtcdObjectStore } from './etcd-object-store';
import { EtcdRequestMetrics, keyType } from './request-metrics';

describe('etcd client spans', () => {
  const exporter = new InMemorySpanExporter();
  let etcd: EtcdServer;
  let store: EtcdObjectStore;

  beforeAll(async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    etcd = await startEtcd();
    store = new EtcdObjectStore({ endpoints: [etcd.endpoint] });
  });

  afterAll(async () => {
    await store.close();
    await etcd.stop();
    trace.disable();
    context.disable();
  });

  beforeEach(() => exporter.reset());

  // underRoot runs fn in a root span and returns the spans etcd requests made under it.
  async function underRoot(fn: () => Promise<unknown>): Promise<{ root: ReadableSpan; etcdSpans: ReadableSpan[] }> {
    await trace.getTracer('test').startActiveSpan('sync', async (span) => {
      try {
        await fn();
      } finally {
        span.end();
      }
    });
    const spans = exporter.getFinishedSpans();
    const root = spans.find((s) => s.name === 'sync') as ReadableSpan;
    return { root, etcdSpans: spans.filter((s) => s !== root) };
  }

  it('sends each call of a create, a list, an update and a delete as one child client span', async () => {
    const value = new TextEncoder().encode('{}');
    let created = 0;
    let updated = 0;
    const { root, etcdSpans } = await underRoot(async () => {
      created = (await store.create('/registry/spans/a', value)).revision;
      await store.list({ prefix: '/registry/spans/', limit: 10 });
      updated = (await store.update('/registry/spans/a', value, created)).revision;
      await store.delete('/registry/spans/a', { revision: updated });
    });
    expect(etcdSpans.map((s) => s.name)).toEqual(['etcdserverpb.KV/Txn', 'etcdserverpb.KV/Range', 'etcdserverpb.KV/Txn', 'etcdserverpb.KV/Txn']);
    for (const span of etcdSpans) {
      expect(span.kind).toBe(SpanKind.CLIENT);
      expect(span.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
      expect(span.spanContext().traceId).toBe(root.spanContext().traceId);
      expect(span.status.code).toBe(SpanStatusCode.UNSET);
      expect(span.attributes).toMatchObject({ 'rpc.system': 'grpc', 'rpc.service': 'etcdserverpb.KV', 'db.system': 'etcd' });
    }
    expect(etcdSpans[0].attributes).toMatchObject({ 'rpc.method': 'Txn', 'etcd.key': '/registry/spans/a', 'etcd.response.revision': created });
    expect(etcdSpans[1].attributes).toMatchObject({ 'rpc.method': 'Range', 'etcd.key': '/registry/spans/', 'etcd.range_end': prefixEnd('/registry/spans/'), 'etcd.response.revision': created });
    expect(etcdSpans[2].attributes['etcd.response.revision']).toBe(updated);
    expect(etcdSpans[3].attributes['etcd.response.revision']).toBeGreaterThan(updated);
  });

  it('names the revision a read asks for, and takes a compacted one as an expected answer', async () => {
    const first = await store.create('/registry/spans/old', new TextEncoder().encode('{}'));
    await store.update('/registry/spans/old', new TextEncoder().encode('{"v":2}'), first.revision);
    const current = await store.currentRevision();
    await store.compact(current);
    exporter.reset();
    const { etcdSpans } = await underRoot(() => expect(store.get('/registry/spans/old', { revision: first.revision })).rejects.toMatchObject({ code: StorageErrorCode.Expired }));
    expect(etcdSpans).toHaveLength(1);
    expect(etcdSpans[0].attributes).toMatchObject({ 'rpc.method': 'Range', 'etcd.key': '/registry/spans/old', 'etcd.revision': first.revision });
    expect(etcdSpans[0].status.code).toBe(SpanStatusCode.UNSET);
    expect(etcdSpans[0].events.map((e) => e.name)).toEqual(['error']);
  });

  it('measures each request in etcd_request_duration_seconds by operation and resource, its trace as exemplar', async () => {
    const registry = new Registry();
    const measured = new EtcdObjectStore({ endpoints: [etcd.endpoint], metrics: new EtcdRequestMetrics(registry) });
    try {
      let traceId = '';
      await trace.getTracer('test').startActiveSpan('sync', async (span) => {
        traceId = span.spanContext().traceId;
        await measured.create('/registry/core/pods/default/measured', new TextEncoder().encode('{}'));
        await measured.get('/registry/core/pods/default/measured');
        await measured.list({ prefix: '/registry/core/pods/' });
        span.end();
      });
      await measured.compact(await measured.currentRevision());
      await expect(measured.get('/registry/core/pods/default/measured', { revision: 1 })).rejects.toMatchObject({ code: StorageErrorCode.Expired });
      const text = registry.expose('openmetrics');
      for (const operation of ['create', 'get', 'list']) {
        expect(text).toContain(`etcd_request_duration_seconds_count{operation="${operation}",type="/registry/core/pods/"} ${operation === 'get' ? 2 : 1}\n`);
      }
      expect(text).toContain('etcd_requests_total{operation="get",type="/registry/core/pods/"} 2\n');
      // The read of a compacted revision is etcd refusing the request.
      expect(text).toContain('etcd_request_errors_total{operation="get",type="/registry/core/pods/"} 1\n');
      expect(text).toMatch(new RegExp(`etcd_request_duration_seconds_bucket\\{operation="create",type="/registry/core/pods/",le="[^"]+"\\} 1 # \\{trace_id="${traceId}"\\}`));
      expect(keyType('/registry/apps/daemonsets/kube-system/a')).toBe('/registry/apps/daemonsets/');
      expect(keyType('\u0000')).toBe('\u0000');
    } finally {
      await measured.close();
    }
  });

  it('marks a request etcd could not answer as failed', async () => {
    const unreachable = new EtcdObjectStore({ endpoints: [`http://127.0.0.1:${await freePort()}`], requestTimeoutMs: 1000 });
    try {
      const { etcdSpans } = await underRoot(() => expect(unreachable.get('/registry/spans/x')).rejects.toMatchObject({ code: StorageErrorCode.Unreachable }));
      expect(etcdSpans.length).toBeGreaterThan(0);
      for (const span of etcdSpans) expect(span.status.code).toBe(SpanStatusCode.ERROR);
    } finally {
      await unreachable.close();
    }
  });
});
