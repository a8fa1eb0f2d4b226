// A controller's sync is one trace: the Job controller's sync of a Job runs in a "sync job"
// span, its API calls are client spans under it (clientSpans, syncSpans: what withTracing
// installs in the controller manager), and the API server, here in the same process with the
// same in-memory exporter, continues each call's trace in its request span.
import { SpanKind } from '@opentelemetry/api';
import { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { ApiClient, setRequestInstrumentation, setSyncInstrumentation, setWorkQueueMetricsProvider } from '@plinth/client';
import { Registry, workQueueMetricsProvider } from '@plinth/metrics';
import { JobController } from '@plinth/controller-manager';
import { realClock } from '@plinth/machinery';
import { clientSpans, syncSpans } from '@plinth/nest';
import { TestApiServer, startTestApiServer, testTokens } from '@plinth/testing-server';
import { eventually, inMemoryTracing } from '@plinth/testing';

describe('a Job sync as one trace', () => {
  const tracing = inMemoryTracing();
  const { exporter } = tracing;
  let server: TestApiServer;
  let client: ApiClient;
  let jobs: JobController;
  const metrics = new Registry();

  beforeAll(async () => {
    tracing.install();
    setRequestInstrumentation(clientSpans);
    setSyncInstrumentation(syncSpans);
    server = await startTestApiServer();
    client = new ApiClient({ server: server.url, caPem: '', token: testTokens.admin });
    setWorkQueueMetricsProvider(workQueueMetricsProvider(metrics));
    jobs = new JobController(client, realClock);
    setWorkQueueMetricsProvider(null);
    await jobs.start();
  }, 60000);

  afterAll(async () => {
    await jobs?.stop();
    client?.close();
    await server?.stop();
    setRequestInstrumentation(null);
    setSyncInstrumentation(null);
    tracing.uninstall();
  });

  it('holds the pod creations of a sync and the API server spans that served them', async () => {
    await client.create('/apis/batch/v1/namespaces/default/jobs', {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'traced' },
      spec: { parallelism: 2, completions: 2, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
    });
    const spans = () => exporter.getFinishedSpans();
    const podCreations = (sync: ReadableSpan) =>
      spans().filter((s) => s.name === 'HTTP POST' && s.attributes['http.target'] === '/api/v1/namespaces/default/pods' && s.parentSpanContext?.spanId === sync.spanContext().spanId);
    const sync = await eventually(() =>
      spans().find((s) => s.name === 'sync job' && s.attributes['workqueue.key'] === 'default/traced' && podCreations(s).length === 2), { what: 'a sync of default/traced that created both pods' });
    expect(sync.attributes['workqueue.name']).toBe('job');
    // Each sync starts its own trace.
    expect(sync.parentSpanContext).toBeUndefined();
    const traceId = sync.spanContext().traceId;
    for (const call of podCreations(sync)) {
      expect(call.kind).toBe(SpanKind.CLIENT);
      expect(call.spanContext().traceId).toBe(traceId);
      // The server's span ends just after the answer reached the client.
      const served = await eventually(() =>
        spans().find((s) => s.kind === SpanKind.SERVER && s.parentSpanContext?.spanId === call.spanContext().spanId), { what: 'the API server span of a pod creation' });
      expect(served).toMatchObject({ name: 'POST /api/v1/namespaces/{:namespace}/pods', attributes: expect.objectContaining({ verb: 'create', resource: 'pods' }) });
      expect(served?.spanContext().traceId).toBe(traceId);
    }
    // The sync's work duration keeps one of the Job's sync traces as its bucket's exemplar.
    const syncTraces = new Set(spans().filter((s) => s.name === 'sync job').map((s) => s.spanContext().traceId));
    const exemplars = metrics
      .expose('openmetrics')
      .split('\n')
      .filter((l) => l.startsWith('workqueue_work_duration_seconds_bucket{name="job"'))
      .flatMap((l) => [...l.matchAll(/ # \{trace_id="([0-9a-f]{32})"\}/g)].map((m) => m[1]));
    expect(exemplars.length).toBeGreaterThan(0);
    for (const id of exemplars) expect(syncTraces.has(id)).toBe(true);
  }, 60000);
});
