import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Counter, exponentialBuckets, formatNumber, Gauge, Histogram, negotiateExposition, openMetricsContentType, procReadings, Registry, registerProcessMetrics, workQueueMetricsProvider } from './index';

describe('formatNumber', () => {
  it('writes numbers as Go strconv.FormatFloat(v, g, -1, 64)', () => {
    expect([0, 1, -1, 42, 0.5, 0.0001, 123456, 999999].map(formatNumber)).toEqual(['0', '1', '-1', '42', '0.5', '0.0001', '123456', '999999']);
    expect([1e6, 1234567, 1.7e9, 0.00001, 1e-8, 2.5e-7].map(formatNumber)).toEqual(['1e+06', '1.234567e+06', '1.7e+09', '1e-05', '1e-08', '2.5e-07']);
    expect([Infinity, -Infinity, NaN].map(formatNumber)).toEqual(['+Inf', '-Inf', 'NaN']);
  });
});

describe('Registry', () => {
  it('writes the text format: families by name, label pairs by name, series by label values', () => {
    const registry = new Registry();
    const requests = registry.register(new Counter({ name: 'requests_total', help: 'Requests.\nBy "verb" and code \\ path.', labelNames: ['verb', 'code'] }));
    const inflight = registry.register(new Gauge({ name: 'inflight', help: 'In flight.' }));
    registry.register(new Counter({ name: 'empty_total', help: 'Never incremented, so absent.', labelNames: ['x'] }));
    requests.labels('POST', '201').inc();
    requests.labels('GET', '200').inc(2);
    requests.labels('GET', '404').inc();
    requests.labels('POST', '201').inc();
    requests.labels('GET', 'a"b\\c\nd').inc();
    inflight.set(3);
    expect(registry.expose()).toBe(
      [
        '# HELP inflight In flight.',
        '# TYPE inflight gauge',
        'inflight 3',
        '# HELP requests_total Requests.\\nBy "verb" and code \\\\ path.',
        '# TYPE requests_total counter',
        'requests_total{code="200",verb="GET"} 2',
        'requests_total{code="201",verb="POST"} 2',
        'requests_total{code="404",verb="GET"} 1',
        'requests_total{code="a\\"b\\\\c\\nd",verb="GET"} 1',
        '',
      ].join('\n'),
    );
  });

  it('writes a histogram as cumulative buckets with le last, then the sum and count', () => {
    const registry = new Registry();
    const latency = registry.register(new Histogram({ name: 'latency_seconds', help: 'Latency.', labelNames: ['verb'], buckets: [1, 0.1, 0.5] }));
    latency.labels('GET').observe(0.05);
    latency.labels('GET').observe(0.1);
    latency.labels('GET').observe(0.3);
    latency.labels('GET').observe(7);
    expect(registry.expose()).toBe(
      [
        '# HELP latency_seconds Latency.',
        '# TYPE latency_seconds histogram',
        'latency_seconds_bucket{verb="GET",le="0.1"} 2',
        'latency_seconds_bucket{verb="GET",le="0.5"} 3',
        'latency_seconds_bucket{verb="GET",le="1"} 3',
        'latency_seconds_bucket{verb="GET",le="+Inf"} 4',
        'latency_seconds_sum{verb="GET"} 7.45',
        'latency_seconds_count{verb="GET"} 4',
        '',
      ].join('\n'),
    );
  });

  it('refuses a second metric of a name, bad names, wrong label counts and a le label', () => {
    const registry = new Registry();
    registry.register(new Gauge({ name: 'a', help: '' }));
    expect(() => registry.register(new Gauge({ name: 'a', help: '' }))).toThrow('metric a is already registered');
    expect(() => new Gauge({ name: 'bad-name', help: '' })).toThrow('invalid metric name "bad-name"');
    expect(() => new Gauge({ name: 'b', help: '', labelNames: ['__x'] })).toThrow('invalid label name "__x"');
    expect(() => new Counter({ name: 'c', help: '', labelNames: ['x'] }).labels('1', '2')).toThrow('c: 2 label values for 1 labels');
    expect(() => new Histogram({ name: 'h', help: '', labelNames: ['le'], buckets: [1] })).toThrow('"le" is reserved');
  });

  it('reads process state when scraped', () => {
    const registry = new Registry();
    let cpu = 1.5;
    registerProcessMetrics(registry, { cpuSeconds: () => cpu, residentBytes: () => 52428800, startTimeSeconds: 1763790000 });
    cpu = 2.25;
    expect(registry.expose()).toBe(
      [
        '# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.',
        '# TYPE process_cpu_seconds_total counter',
        'process_cpu_seconds_total 2.25',
        '# HELP process_resident_memory_bytes Resident memory size in bytes.',
        '# TYPE process_resident_memory_bytes gauge',
        'process_resident_memory_bytes 5.24288e+07',
        '# HELP process_start_time_seconds Start time of the process since unix epoch in seconds.',
        '# TYPE process_start_time_seconds gauge',
        'process_start_time_seconds 1.76379e+09',
        '',
      ].join('\n'),
    );
  });

  it('reads file descriptors and virtual memory from /proc, as client_golang does on Linux', () => {
    const dir = mkdtempSync(join(tmpdir(), 'plinth-proc-'));
    try {
      mkdirSync(join(dir, 'fd'));
      for (const fd of ['0', '1', '2']) writeFileSync(join(dir, 'fd', fd), '');
      writeFileSync(join(dir, 'limits'), 'Limit                     Soft Limit           Hard Limit           Units\nMax open files            1048576              1048576              files\n');
      writeFileSync(join(dir, 'stat'), `4242 (node main (1)) S 1 4242 4242 0 -1 4194560 1 0 0 0 10 5 0 0 20 0 11 0 12345 ${1234 * 4096} 5000 18446744073709551615\n`);
      const registry = new Registry();
      registerProcessMetrics(registry, { cpuSeconds: () => 0, residentBytes: () => 0, startTimeSeconds: 0, ...procReadings(dir) });
      const text = registry.expose();
      expect(text).toContain('# TYPE process_open_fds gauge\nprocess_open_fds 3\n');
      expect(text).toContain('process_max_fds 1.048576e+06\n');
      expect(text).toContain(`process_virtual_memory_bytes ${formatNumber(1234 * 4096)}\n`);
      expect(procReadings(join(dir, 'missing'))).toEqual({});
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has client-go work queue metrics per queue name, with its exponential buckets', () => {
    // Repeated multiplication, as Go's, so the bounds read as kube-controller-manager's do.
    expect(exponentialBuckets(10e-9, 10, 10).map(formatNumber)).toEqual(['1e-08', '1e-07', '1e-06', '9.999999999999999e-06', '9.999999999999999e-05', '0.001', '0.01', '0.1', '1', '10']);
    const registry = new Registry();
    const queue = workQueueMetricsProvider(registry).forQueue('job');
    queue.adds.inc();
    queue.depth.set(1);
    queue.workDuration.observe(0.002);
    const text = registry.expose();
    expect(text).toContain('# HELP workqueue_depth [ALPHA] Current depth of workqueue\n# TYPE workqueue_depth gauge\nworkqueue_depth{name="job"} 1\n');
    expect(text).toContain('workqueue_adds_total{name="job"} 1\n');
    expect(text).toContain('workqueue_work_duration_seconds_bucket{name="job",le="0.001"} 0\nworkqueue_work_duration_seconds_bucket{name="job",le="0.01"} 1\n');
    expect(text).toContain('workqueue_retries_total{name="job"} 0\n');
  });

  it('writes OpenMetrics with the latest exemplar of each bucket', () => {
    const registry = new Registry();
    registry.register(new Counter({ name: 'requests_total', help: 'Requests "served".', labelNames: ['code'] })).labels('200').inc(3);
    registry.register(new Gauge({ name: 'inflight', help: 'In flight.' })).set(2);
    const latency = registry.register(new Histogram({ name: 'latency_seconds', help: 'Latency.', labelNames: ['verb'], buckets: [0.1, 1] }));
    latency.labels('GET').observeWithExemplar(0.05, { trace_id: 'aaaa' }, 1700000000123);
    latency.labels('GET').observeWithExemplar(0.07, { trace_id: 'bbbb' }, 1700000001000);
    latency.labels('GET').observe(0.5);
    latency.labels('GET').observeWithExemplar(5, { trace_id: 'cccc' }, 1700000002500);
    // An exemplar past 128 characters of labels is not kept (the observation is).
    latency.labels('GET').observeWithExemplar(0.6, { trace_id: 'x'.repeat(130) }, 1700000003000);
    expect(registry.expose('openmetrics')).toBe(
      [
        '# HELP inflight In flight.',
        '# TYPE inflight gauge',
        'inflight 2',
        '# HELP latency_seconds Latency.',
        '# TYPE latency_seconds histogram',
        'latency_seconds_bucket{verb="GET",le="0.1"} 2 # {trace_id="bbbb"} 0.07 1700000001.000',
        'latency_seconds_bucket{verb="GET",le="1"} 4',
        'latency_seconds_bucket{verb="GET",le="+Inf"} 5 # {trace_id="cccc"} 5 1700000002.500',
        'latency_seconds_sum{verb="GET"} 6.22',
        'latency_seconds_count{verb="GET"} 5',
        '# HELP requests Requests \\"served\\".',
        '# TYPE requests counter',
        'requests_total{code="200"} 3',
        '# EOF',
        '',
      ].join('\n'),
    );
    // The text format has no exemplars.
    expect(registry.expose()).toContain('latency_seconds_bucket{verb="GET",le="0.1"} 2\n');
  });

  it("scrapes its sources' families with its own: new families by name, new series appended, its own series and types kept", async () => {
    const worker = new Registry();
    worker.register(new Counter({ name: 'workqueue_adds_total', help: 'Adds.', labelNames: ['name'] })).labels('job').inc(2);
    worker.register(new Gauge({ name: 'process_open_fds', help: 'Open fds.' })).set(99);
    worker.register(new Counter({ name: 'requests_total', help: 'Requests.', labelNames: ['code'] })).labels('500').inc();
    worker.register(new Counter({ name: 'inflight', help: 'Of another type.' })).inc(7);
    const main = new Registry();
    main.register(new Gauge({ name: 'process_open_fds', help: 'Open fds.' })).set(12);
    main.register(new Counter({ name: 'requests_total', help: 'Requests.', labelNames: ['code'] })).labels('200').inc(3);
    main.register(new Gauge({ name: 'inflight', help: 'In flight.' })).set(1);
    const remove = main.addSource(async () => worker.gather());
    main.addSource(() => Promise.reject(new Error('the worker is gone')));
    expect(await main.scrape()).toBe(
      [
        '# HELP inflight In flight.',
        '# TYPE inflight gauge',
        'inflight 1',
        '# HELP process_open_fds Open fds.',
        '# TYPE process_open_fds gauge',
        'process_open_fds 12',
        '# HELP requests_total Requests.',
        '# TYPE requests_total counter',
        'requests_total{code="200"} 3',
        'requests_total{code="500"} 1',
        '# HELP workqueue_adds_total Adds.',
        '# TYPE workqueue_adds_total counter',
        'workqueue_adds_total{name="job"} 2',
        '',
      ].join('\n'),
    );
    expect(await main.scrape('openmetrics')).toContain('# TYPE workqueue_adds counter\nworkqueue_adds_total{name="job"} 2\n');
    remove();
    expect(await main.scrape()).not.toContain('workqueue_adds_total');
  });

  it('negotiates OpenMetrics as client_golang does for a scraper', () => {
    const prometheus = 'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1';
    expect(negotiateExposition(prometheus)).toEqual({ format: 'openmetrics', contentType: openMetricsContentType });
    expect(negotiateExposition('text/plain;version=0.0.4')).toEqual({ format: 'text', contentType: 'text/plain; version=0.0.4; charset=utf-8' });
    expect(negotiateExposition(undefined).format).toBe('text');
    expect(negotiateExposition('application/openmetrics-text;q=0').format).toBe('text');
  });
});
