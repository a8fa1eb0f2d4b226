// Exemplars: a scraper that asks for OpenMetrics reads, beside each latency bucket, the trace of
// the latest request measured in it, when that request's trace was sampled. The API server runs
// in this process with the in-memory exporter, so its request spans are recorded.
import { randomBytes } from 'node:crypto';
import { TestApiServer, startTestApiServer } from '@plinth/testing-server';
import { client } from '../api/http';
import { inMemoryTracing } from '@plinth/testing';

const prometheusAccept = 'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1';

describe('exemplars on the latency histograms', () => {
  const tracing = inMemoryTracing();
  let server: TestApiServer;
  let admin: ReturnType<typeof client>;

  beforeAll(async () => {
    tracing.install();
    server = await startTestApiServer();
    admin = client(server.url);
  }, 60000);

  afterAll(async () => {
    await server?.stop();
    tracing.uninstall();
  });

  const create = (name: string, traceId: string, flags: '01' | '00') =>
    admin('POST', '/apis/coordination.platform.io/v1/namespaces/default/leases', {
      body: { apiVersion: 'coordination.platform.io/v1', kind: 'Lease', metadata: { name } },
      headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-${flags}` },
    });

  it('keeps the sampled trace of a request as its bucket\'s exemplar in OpenMetrics', async () => {
    const sampled = randomBytes(16).toString('hex');
    expect((await create('sampled', sampled, '01')).status).toBe(201);
    const scraped = await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer admin-token', accept: prometheusAccept } });
    expect(scraped.headers.get('content-type')).toBe('application/openmetrics-text; version=1.0.0; charset=utf-8');
    const text = await scraped.text();
    expect(text.endsWith('# EOF\n')).toBe(true);
    const buckets = text.split('\n').filter((l) => l.startsWith('apiserver_request_duration_seconds_bucket{') && l.includes('resource="leases"') && l.includes('verb="POST"'));
    const withExemplar = buckets.filter((l) => l.includes(` # {trace_id="${sampled}"} `));
    expect(withExemplar).toHaveLength(1);
    expect(withExemplar[0]).toMatch(/ # \{trace_id="[0-9a-f]{32}"\} [0-9.e-]+ \d+\.\d{3}$/);
    // Counters are named as OpenMetrics names them: the family without _total.
    expect(text).toContain('# TYPE apiserver_request counter\n');
    // The text format, for any other scraper, has no exemplars.
    const plain = (await admin('GET', '/metrics')).text;
    expect(plain).not.toContain('trace_id');
  });

  it('keeps no exemplar of a request whose trace was not sampled', async () => {
    const unsampled = randomBytes(16).toString('hex');
    expect((await create('unsampled', unsampled, '00')).status).toBe(201);
    const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer admin-token', accept: prometheusAccept } })).text();
    expect(text).not.toContain(unsampled);
  });
});
