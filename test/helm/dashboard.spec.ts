// deploy/grafana/plinth-dashboard.json: it parses, its datasources are template variables, and
// every PromQL expression names only metrics the code registers (read from the registries the
// API server, its links, the process collector and the work queues fill, not from a copied
// list).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiServerMetrics } from '@plinth/apiserver';
import { Registry, registerLinkMetric, registerProcessMetrics, workQueueMetricsProvider } from '@plinth/metrics';
import { StorageLinkMetrics } from '@plinth/storage-grpc';
import { AuthzLinkMetrics } from '@plinth/authz-nats';

/* eslint-disable @typescript-eslint/no-explicit-any */
const dashboard: any = JSON.parse(readFileSync(join(__dirname, '../../deploy/grafana/plinth-dashboard.json'), 'utf8'));

// exportedSeries are the series names Prometheus sees: a histogram as _bucket, _sum and _count.
function exportedSeries(): Set<string> {
  const registry = new Registry();
  new ApiServerMetrics(registry);
  registerLinkMetric(registry, []);
  registerProcessMetrics(registry);
  workQueueMetricsProvider(registry);
  new StorageLinkMetrics(registry);
  new AuthzLinkMetrics(registry);
  return new Set(registry.families().flatMap(({ name, type }) => (type === 'histogram' ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name])));
}

const keywords = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'bool', 'offset']);

// metricNames reads the metric names a PromQL expression selects: identifiers left once strings,
// label matchers, range selectors and grouping label lists are gone, other than function
// calls and keywords.
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names: string[] = [];
  for (const match of bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const after = bare.slice((match.index ?? 0) + match[0].length);
    if (/^\s*\(/.test(after) || keywords.has(match[0])) continue;
    names.push(match[0]);
  }
  return names;
}

function panelsOf(panels: any[]): any[] {
  return panels.flatMap((p) => [p, ...panelsOf(p.panels ?? [])]);
}

describe('Grafana dashboard', () => {
  const panels = panelsOf(dashboard.panels);
  const exported = exportedSeries();

  it('reads the metric names out of PromQL', () => {
    expect(metricNames('histogram_quantile(0.99, sum by (le, verb) (rate(apiserver_request_duration_seconds_bucket{verb!~"WATCH|CONNECT"}[$__rate_interval])))')).toEqual([
      'apiserver_request_duration_seconds_bucket',
    ]);
    expect(metricNames('sum(rate(a_total{code=~"5.."}[5m])) / ignoring(code) sum(rate(b_total[5m])) and on() time() - c')).toEqual(['a_total', 'b_total', 'c']);
  });

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

  it('queries only metrics the code exports, and every one the operators need', () => {
    const promQueries = [
      ...panels.filter((p) => p.datasource?.type === 'prometheus').flatMap((p) => p.targets.map((t: any) => ({ panel: p.title, expr: t.expr as string }))),
      ...dashboard.templating.list.filter((v: any) => v.type === 'query').map((v: any) => ({ panel: `$${v.name}`, expr: (v.query.query as string).replace(/^label_values\(([^,]+),.*$/, '$1') })),
    ];
    const used = new Set<string>();
    for (const { panel, expr } of promQueries) {
      const names = metricNames(expr);
      expect({ panel, names: names.length > 0 }).toEqual({ panel, names: true });
      for (const name of names) {
        expect({ panel, name, exported: exported.has(name) }).toEqual({ panel, name, exported: true });
        used.add(name.replace(/_(bucket|sum|count)$/, ''));
      }
    }
    expect([...used].sort()).toEqual(
      expect.arrayContaining([
        'apiserver_current_inflight_requests',
        'apiserver_longrunning_requests',
        'apiserver_request_duration_seconds',
        'apiserver_request_terminations_total',
        'apiserver_request_total',
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

  it('searches the gateway traces in Tempo', () => {
    const traces = panels.filter((p) => p.datasource?.type === 'tempo');
    expect(traces).toHaveLength(1);
    expect(traces[0].targets[0]).toMatchObject({ queryType: 'traceql', query: '{ resource.service.name = "plinth-gateway" }' });
  });
});
