// /metrics on the API server: kube-apiserver's request metrics under their names and labels,
// the process metrics, authorized as the nonResourceURL /metrics (the bootstrap
// system:monitoring role grants it to the system:monitoring group).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApiServer, TestApiServer } from '@plinth/testing-server';
import { client } from './http';
import { eventually } from '@plinth/testing';

const serviceAccount = (name: string) => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } });

// sample reads one sample's value from the text format; undefined when absent.
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('API server: /metrics', () => {
  let server: TestApiServer;
  let dir: string;
  let admin: ReturnType<typeof client>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plinth-metrics-'));
    writeFileSync(join(dir, 'tokens.csv'), 'admin-token,admin,admin-uid,"system:masters"\nmetrics-token,prometheus,prometheus-uid,"system:monitoring"\nalice-token,alice,alice-uid\n');
    // Objects are counted in storage every 200 ms here (every minute by default).
    server = await startTestApiServer({ tokenAuthFile: join(dir, 'tokens.csv'), etcdCountMetricPollPeriodMs: 200 });
    admin = client(server.url);
  });

  afterAll(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts requests by verb, group, version, resource, scope and code', async () => {
    // The test server's own clients (the namespace controller's service account) made requests
    // before this test: count from a first scrape.
    const baseline = (await admin('GET', '/metrics')).text;
    expect((await admin('POST', '/api/v1/namespaces/default/serviceaccounts', { body: serviceAccount('m1') })).status).toBe(201);
    expect((await admin('POST', '/api/v1/namespaces/default/serviceaccounts', { body: serviceAccount('m1') })).status).toBe(409);
    expect((await admin('POST', '/api/v1/namespaces/default/serviceaccounts?dryRun=All', { body: serviceAccount('m2') })).status).toBe(201);
    expect((await admin('POST', '/api/v1/namespaces/default/serviceaccounts?dryRun=Some', { body: serviceAccount('m3') })).status).toBe(422);
    expect((await admin('GET', '/api/v1/namespaces/default/serviceaccounts/m1')).status).toBe(200);
    expect((await admin('GET', '/api/v1/namespaces/default/serviceaccounts/absent')).status).toBe(404);
    expect((await admin('GET', '/api/v1/serviceaccounts')).status).toBe(200);
    expect((await admin('GET', '/apis/batch/v1/namespaces/default/jobs')).status).toBe(200);
    expect((await admin('GET', '/readyz')).status).toBe(200);

    const scraped = await admin('GET', '/metrics');
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = scraped.text;
    const total = (labels: string) => {
      const series = `apiserver_request_total{${labels}}`;
      const now = sample(text, series);
      return now === undefined ? undefined : now - (sample(baseline, series) ?? 0);
    };
    expect(total('code="201",component="apiserver",dry_run="",group="",resource="serviceaccounts",scope="resource",subresource="",verb="POST",version="v1"')).toBe(1);
    expect(total('code="409",component="apiserver",dry_run="",group="",resource="serviceaccounts",scope="resource",subresource="",verb="POST",version="v1"')).toBe(1);
    expect(total('code="201",component="apiserver",dry_run="All",group="",resource="serviceaccounts",scope="resource",subresource="",verb="POST",version="v1"')).toBe(1);
    expect(total('code="422",component="apiserver",dry_run="invalid",group="",resource="serviceaccounts",scope="resource",subresource="",verb="POST",version="v1"')).toBe(1);
    expect(total('code="200",component="apiserver",dry_run="",group="",resource="serviceaccounts",scope="resource",subresource="",verb="GET",version="v1"')).toBe(1);
    expect(total('code="404",component="apiserver",dry_run="",group="",resource="serviceaccounts",scope="resource",subresource="",verb="GET",version="v1"')).toBe(1);
    expect(total('code="200",component="apiserver",dry_run="",group="",resource="serviceaccounts",scope="cluster",subresource="",verb="LIST",version="v1"')).toBe(1);
    expect(total('code="200",component="apiserver",dry_run="",group="batch",resource="jobs",scope="namespace",subresource="",verb="LIST",version="v1"')).toBe(1);
    expect(total('code="200",component="",dry_run="",group="",resource="",scope="",subresource="/readyz",verb="GET",version=""')).toBe(1);

    const duration = 'component="apiserver",dry_run="",group="",resource="serviceaccounts",scope="resource",subresource="",verb="POST",version="v1"';
    expect(text).toContain('# TYPE apiserver_request_duration_seconds histogram\n');
    const counted = (series: string) => (sample(text, series) ?? 0) - (sample(baseline, series) ?? 0);
    expect(counted(`apiserver_request_duration_seconds_count{${duration}}`)).toBe(2);
    expect(counted(`apiserver_request_duration_seconds_bucket{${duration},le="+Inf"}`)).toBe(2);
    expect(counted(`apiserver_request_duration_seconds_bucket{${duration},le="60"}`)).toBe(2);
    expect(text).toContain(`apiserver_request_duration_seconds_bucket{${duration},le="0.005"} `);

    // The scrape itself is the one read-only request in flight.
    expect(sample(text, 'apiserver_current_inflight_requests{request_kind="readOnly"}')).toBe(1);
    expect(sample(text, 'apiserver_current_inflight_requests{request_kind="mutating"}')).toBe(0);
    expect(sample(text, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(1e6);
    expect(sample(text, 'process_start_time_seconds')).toBeGreaterThan(1.7e9);
  });

  it('adds no series for a path nothing serves, nor for a method kube-apiserver does not report', async () => {
    // kube-apiserver instruments the routes it installed: a client naming a group, resource,
    // subresource or health check that does not exist must not grow the registry.
    for (const path of ['/apis/batch/v1/plinthprobes', '/apis/batch/v1/namespaces/default/jobs/x/plinthprobe', '/apis/plinthprobe.io/v1/foos', '/api/v1/namespaces/default/plinthprobes', '/healthz/plinthprobe', '/openapi/plinthprobe']) {
      expect([path, (await admin('GET', path)).status]).toEqual([path, 404]);
    }
    const baseline = (await admin('GET', '/metrics')).text;
    expect((await admin('HEAD', '/readyz')).status).toBe(200);
    expect((await admin('PLINTHPROBE', '/api/v1/namespaces/default/serviceaccounts')).status).toBe(405);
    const text = (await admin('GET', '/metrics')).text;
    expect(text.toLowerCase()).not.toContain('plinthprobe');
    expect(text).not.toContain('verb="HEAD"');
    const counted = (series: string) => (sample(text, series) ?? 0) - (sample(baseline, series) ?? 0);
    expect(counted('apiserver_request_total{code="200",component="",dry_run="",group="",resource="",scope="",subresource="/readyz",verb="other",version=""}')).toBe(1);
    expect(counted('apiserver_request_total{code="405",component="apiserver",dry_run="",group="",resource="serviceaccounts",scope="namespace",subresource="",verb="other",version="v1"}')).toBe(1);
  });

  it('gauges watches as long-running requests', async () => {
    const controller = new AbortController();
    const watch = await fetch(`${server.url}/api/v1/namespaces/default/serviceaccounts?watch=true`, { headers: { authorization: 'Bearer admin-token' }, signal: controller.signal });
    expect(watch.status).toBe(200);
    try {
      const text = (await admin('GET', '/metrics')).text;
      expect(sample(text, 'apiserver_longrunning_requests{component="apiserver",group="",resource="serviceaccounts",scope="namespace",subresource="",verb="WATCH",version="v1"}')).toBe(1);
    } finally {
      controller.abort();
    }
  });

  it('counts the stored objects of every resource served, in storage, each poll period', async () => {
    const counts = async () => {
      const text = (await admin('GET', '/metrics')).text;
      return { accounts: sample(text, 'apiserver_storage_objects{resource="serviceaccounts"}'), revisions: sample(text, 'apiserver_storage_objects{resource="controllerrevisions.apps"}'), text };
    };
    for (const name of ['count-a', 'count-b']) {
      expect((await admin('POST', '/api/v1/namespaces/default/serviceaccounts', { body: serviceAccount(name) })).status).toBe(201);
    }
    const stored = JSON.parse((await admin('GET', '/api/v1/serviceaccounts')).text).items.length;
    const last = await eventually(counts, { until: (now) => now.accounts === stored, what: 'the service accounts counted' });
    expect(last.accounts).toBe(stored);
    // A resource no client asked for is counted too.
    expect(last.revisions).toBe(0);
    expect(sample(last.text, 'apiserver_storage_objects{resource="namespaces"}')).toBeGreaterThanOrEqual(4);
    // Reviews are not stored, and are not counted.
    expect(last.text).not.toContain('resource="subjectaccessreviews.authorization.platform.io"');
  });

  it('serves /metrics to system:monitoring and refuses it to other users', async () => {
    const monitoring = await client(server.url, 'metrics-token')('GET', '/metrics');
    expect(monitoring.status).toBe(200);
    expect(monitoring.text).toContain('# TYPE apiserver_request_total counter\n');
    const alice = await client(server.url, 'alice-token')('GET', '/metrics');
    expect(alice.status).toBe(403);
    expect(alice.json).toMatchObject({ kind: 'Status', reason: 'Forbidden', message: 'forbidden: User "alice" cannot get path "/metrics"' });
    const anonymous = await client(server.url, null)('GET', '/metrics');
    expect(anonymous.status).toBe(403);
    expect(anonymous.json.message).toBe('forbidden: User "system:anonymous" cannot get path "/metrics"');
  });
});
