// The Grafana dashboards of deploy/grafana (the API's and the controllers'): each is valid against
// @grafana/schema's Dashboard type (checked by the TypeScript compiler, unknown fields
// included), its datasources are template variables, every PromQL expression names only metrics
// the code registers (read from the registries the API server, its links, the process collector,
// the work queues and the controllers fill, not from a copied list), and every TraceQL
// expression, of a Tempo panel or of a panel's link to its traces, parses with
// @grafana/lezer-traceql. test/telemetry/dashboard-traces.spec.ts checks the span and service
// names they name against spans the code records; test/telemetry/prometheus.spec.ts runs the
// PromQL.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parser as traceqlParser } from '@grafana/lezer-traceql';
import * as ts from 'typescript';
import { ApiServerMetrics } from '@plinth/apiserver';
import { AuthzLinkMetrics } from '@plinth/authz-nats';
import { FakeClock } from '@plinth/testing';
import { Registry, controllerPodMetrics, jobSyncMetrics, leaderElectionStatus, registerLinkMetric, registerProcessMetrics, workQueueMetricsProvider } from '@plinth/metrics';
import { EtcdRequestMetrics, observeDbSize } from '@plinth/storage-etcd';
import { StorageLinkMetrics } from '@plinth/storage-grpc';
import { Dashboard, dashboardFiles, metricNames, panelsOf, promQueries, traceQueries, withSampleValues } from './dashboards';

const root = join(__dirname, '../..');

/* eslint-disable @typescript-eslint/no-explicit-any */
const dashboards: [string, Dashboard][] = dashboardFiles.map((file) => [file, JSON.parse(readFileSync(join(root, 'deploy/grafana', file), 'utf8'))]);

// exportedSeries are the series names Prometheus sees: a histogram as _bucket, _sum and _count.
function exportedSeries(): Set<string> {
  const registry = new Registry();
  new ApiServerMetrics(registry);
  registerLinkMetric(registry, []);
  registerProcessMetrics(registry);
  workQueueMetricsProvider(registry);
  new StorageLinkMetrics(registry);
  new AuthzLinkMetrics(registry);
  controllerPodMetrics(registry, 'job');
  jobSyncMetrics(registry);
  leaderElectionStatus(registry, 'kube-controller-manager');
  observeDbSize(registry, async () => [], new FakeClock())();
  new EtcdRequestMetrics(registry);
  return new Set(registry.families().flatMap(({ name, type }) => (type === 'histogram' ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name])));
}

// schemaErrors type-checks a dashboard's JSON as an object literal that must satisfy
// @grafana/schema's Dashboard (its string enums read as their values, as JSON spells them), so
// a wrong type, a missing required field or an unknown field is an error.
function schemaErrors(json: string): string[] {
  const file = join(root, 'test/helm/__dashboard__.ts');
  const source = [
    "import type { Dashboard } from '@grafana/schema';",
    'type Loosen<T> = T extends string ? `${T}` : T extends number | boolean | null | undefined ? T : T extends readonly (infer U)[] ? Loosen<U>[] : T extends object ? { [K in keyof T]: Loosen<T[K]> } : T;',
    `export const dashboard = ${json.trim()} satisfies Loosen<Dashboard>;`,
  ].join('\n');
  const options: ts.CompilerOptions = { strict: true, noEmit: true, skipLibCheck: true, types: [], target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 };
  const host = ts.createCompilerHost(options);
  const readSource = host.getSourceFile;
  host.getSourceFile = (name, language, ...rest) => (name === file ? ts.createSourceFile(name, source, language) : readSource(name, language, ...rest));
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

// traceqlErrors are the offsets at which @grafana/lezer-traceql could not parse a query.
function traceqlErrors(query: string): number[] {
  const errors: number[] = [];
  traceqlParser.parse(query).iterate({
    enter: (node) => {
      if (node.type.isError) errors.push(node.from);
    },
  });
  return errors;
}

describe('the dashboard helpers', () => {
  it('read the metric names out of PromQL', () => {
    expect(metricNames('histogram_quantile(0.99, sum by (le, verb) (rate(apiserver_request_duration_seconds_bucket{verb!~"WATCH|CONNECT"}[$__rate_interval])))')).toEqual([
      'apiserver_request_duration_seconds_bucket',
    ]);
    expect(metricNames('sum(rate(a_total{code=~"5.."}[5m])) / ignoring(code) sum(rate(b_total[5m])) and on() time() - c')).toEqual(['a_total', 'b_total', 'c']);
  });

  it('tell a TraceQL error', () => {
    expect(traceqlErrors('{ resource.service.name = "plinth" && span."resource" = "pods" } | select(span.verb)')).toEqual([]);
    expect(traceqlErrors('{ span.verb = }')).not.toEqual([]);
  });

  it('tell a dashboard that the schema refuses', () => {
    expect(schemaErrors('{ "schemaVersion": 39, "title": "ok", "panels": [] }')).toEqual([]);
    expect(schemaErrors('{ "schemaVersion": "39" }').join()).toContain("Type 'string' is not assignable to type 'number'");
    expect(schemaErrors('{ "schemaVersion": 39, "panels": [{ "type": "timeseries", "gridPos": { "h": 8, "w": 12, "x": 0, "y": 0 }, "colour": "red" }] }').join()).toContain("'\"colour\"' does not exist");
  });
});

describe.each(dashboards)('Grafana dashboard %s', (file, dashboard) => {
  const panels = panelsOf(dashboard.panels);

  it("is valid against @grafana/schema's Dashboard", () => {
    expect(schemaErrors(readFileSync(join(root, 'deploy/grafana', file), 'utf8'))).toEqual([]);
  }, 60000);

  it('chooses its Prometheus and Tempo datasources through template variables', () => {
    const variables = dashboard.templating.list;
    expect(variables.filter((v: any) => v.type === 'datasource').map((v: any) => [v.name, v.query])).toEqual([
      ['datasource', 'prometheus'],
      ['tempo', 'tempo'],
    ]);
    for (const panel of panels.filter((p) => p.type !== 'row')) {
      expect(['${datasource}', '${tempo}']).toContain(panel.datasource.uid);
      for (const target of panel.targets) expect(target.datasource).toEqual(panel.datasource);
    }
    expect(new Set(panels.map((p) => p.id)).size).toBe(panels.length);
  });

  it('lays its panels out on the 24-column grid without overlap', () => {
    const taken = new Map<string, string>();
    for (const panel of panels) {
      const { x, y, w, h } = panel.gridPos;
      expect({ panel: panel.title, fits: x >= 0 && w > 0 && h > 0 && x + w <= 24 }).toEqual({ panel: panel.title, fits: true });
      for (let column = x; column < x + w; column++) {
        for (let row = y; row < y + h; row++) {
          expect({ panel: panel.title, overlaps: taken.get(`${column},${row}`) }).toEqual({ panel: panel.title, overlaps: undefined });
          taken.set(`${column},${row}`, panel.title);
        }
      }
    }
  });

  it('queries only metrics the code exports', () => {
    const exported = exportedSeries();
    const queries = promQueries(dashboard);
    expect(queries.length).toBeGreaterThan(5);
    for (const { panel, expr } of queries) {
      const names = metricNames(expr);
      expect({ panel, names: names.length > 0 }).toEqual({ panel, names: true });
      for (const name of names) expect({ panel, name, exported: exported.has(name) }).toEqual({ panel, name, exported: true });
    }
  });

  it('writes every TraceQL expression, of its Tempo panels and its links to traces, as Tempo parses it', () => {
    const queries = traceQueries(dashboard);
    expect(queries.length).toBeGreaterThan(1);
    for (const { panel, query } of queries) {
      const filled = withSampleValues(query);
      expect({ panel, filled, unfilled: /\$/.test(filled) }).toEqual({ panel, filled, unfilled: false });
      expect({ panel, filled, errors: traceqlErrors(filled) }).toEqual({ panel, filled, errors: [] });
    }
  });
});

describe('the API dashboard', () => {
  const dashboard = dashboards.find(([file]) => file === 'plinth-dashboard.json')![1];
  const panels = panelsOf(dashboard.panels);
  const prometheusPanels = panels.filter((p) => p.datasource?.type === 'prometheus');

  it('has a panel for every metric the operators need', () => {
    const used = new Set(promQueries(dashboard).flatMap(({ expr }) => metricNames(expr).map((name) => name.replace(/_(bucket|sum|count)$/, ''))));
    expect([...used].sort()).toEqual(
      expect.arrayContaining([
        'apiserver_current_inflight_requests',
        'apiserver_longrunning_requests',
        'apiserver_request_duration_seconds',
        'apiserver_request_terminations_total',
        'apiserver_request_total',
        'apiserver_storage_db_total_size_in_bytes',
        'apiserver_storage_objects',
        'apiserver_storage_size_bytes',
        'etcd_request_duration_seconds',
        'etcd_request_errors_total',
        'etcd_requests_total',
        'plinth_link_up',
        'plinth_authz_decisions_total',
        'plinth_authz_request_duration_seconds',
        'plinth_storage_request_duration_seconds',
        'process_cpu_seconds_total',
        'process_resident_memory_bytes',
        'workqueue_depth',
        'workqueue_work_duration_seconds',
      ]),
    );
  });

  // RED panels are those over the request counter or latency histogram: each groups by verb and
  // resource, and each series links to the traces of its verb and resource.
  it('links every RED panel to the traces of its verb and resource', () => {
    const red = prometheusPanels.filter((p) => p.targets.some((t: any) => /apiserver_request_(total|duration_seconds)/.test(t.expr)) && !/self-defense/.test(p.title));
    expect(red.map((p) => p.title)).toEqual(expect.arrayContaining(['Request rate by verb and resource', 'Error rate (5xx share)', 'p99 latency by verb and resource']));
    expect(red.length).toBeGreaterThanOrEqual(7);
    for (const panel of red) {
      for (const target of panel.targets) expect({ panel: panel.title, expr: target.expr, byVerbAndResource: /by \([^)]*\bverb\b[^)]*\bresource\b[^)]*\)/.test(target.expr) }).toMatchObject({ byVerbAndResource: true });
      const links = traceQueries({ panels: [panel], templating: { list: [] } } as Dashboard);
      expect({ panel: panel.title, links: links.length }).toEqual({ panel: panel.title, links: 1 });
      expect(links[0].query).toContain('span.verb = "${__field.labels.verb}"');
      expect(links[0].query).toContain('span."resource" = "${__field.labels.resource}"');
    }
  });

  it('shows exemplars on every latency panel', () => {
    const latency = prometheusPanels.filter((p) => p.targets.some((t: any) => /histogram_quantile\(.*_duration_seconds_bucket/.test(t.expr)));
    expect(latency.length).toBe(6);
    for (const panel of latency) for (const target of panel.targets) expect({ panel: panel.title, exemplar: target.exemplar }).toEqual({ panel: panel.title, exemplar: true });
  });

  it('has Tempo panels for the slowest requests, error traces and the service graph', () => {
    const tempo = panels.filter((p) => p.datasource?.type === 'tempo');
    const byTitle = (title: string) => tempo.find((p) => p.title.startsWith(title));
    expect(byTitle('Slowest requests by verb and resource')?.targets[0].query).toMatch(/duration > \$\{min_duration\}.*select\(span\.verb, span\."resource"/);
    expect(byTitle('Error traces')?.targets[0].query).toContain('status = error');
    expect(byTitle('Service graph')).toMatchObject({ type: 'nodeGraph', targets: [{ queryType: 'serviceMap' }] });
    expect(byTitle('Requests down to etcd')?.targets[0].query).toContain('span.db.system = "etcd"');
  });
});

describe('the controllers dashboard', () => {
  const dashboard = dashboards.find(([file]) => file === 'plinth-controllers-dashboard.json')![1];

  it('shows Job and DaemonSet syncs, queues, pods created and deleted, and the leader', () => {
    const used = new Set(promQueries(dashboard).flatMap(({ expr }) => metricNames(expr).map((name) => name.replace(/_(bucket|sum|count)$/, ''))));
    expect([...used].sort()).toEqual(
      expect.arrayContaining(['job_controller_job_syncs_total', 'leader_election_master_status', 'plinth_controller_pods_created_total', 'plinth_controller_pods_deleted_total', 'workqueue_adds_total', 'workqueue_depth', 'workqueue_retries_total', 'workqueue_work_duration_seconds']),
    );
    const controller = dashboard.templating.list.find((v: any) => v.name === 'controller');
    expect(controller.query).toBe('job,daemonset');
  });

  it('shows exemplars on the sync latency', () => {
    const latency = panelsOf(dashboard.panels).filter((p) => p.datasource?.type === 'prometheus' && p.targets.some((t: any) => /histogram_quantile\(/.test(t.expr)));
    expect(latency.map((p) => p.title)).toEqual(['Sync latency p50 and p99']);
    for (const target of latency[0].targets) expect(target.exemplar).toBe(true);
  });

  it('links the sync panels to the traces of their syncs', () => {
    const syncs = panelsOf(dashboard.panels).filter((p) => p.type === 'timeseries' && p.title.startsWith('Sync'));
    expect(syncs.length).toBe(3);
    for (const panel of syncs) expect(traceQueries({ panels: [panel], templating: { list: [] } } as Dashboard)[0]?.query).toContain('name = "sync ${__field.labels.name}"');
  });
});
