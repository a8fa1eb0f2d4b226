// What the dashboard checks read out of deploy/grafana's dashboards: their panels, PromQL
// expressions, TraceQL expressions (of Tempo panels and of the links from a panel to its
// traces), the metric names an expression selects, and the expressions with Grafana's variables
// given values.
/* eslint-disable @typescript-eslint/no-explicit-any */
export type Dashboard = { panels: any[]; templating: { list: any[] } } & Record<string, any>;

export const dashboardFiles = ['plinth-dashboard.json', 'plinth-controllers-dashboard.json'];

export function panelsOf(panels: any[]): any[] {
  return panels.flatMap((p) => [p, ...panelsOf(p.panels ?? [])]);
}

// promQueries are the PromQL expressions of the Prometheus panels and query variables.
export function promQueries(dashboard: Dashboard): { panel: string; expr: string }[] {
  const panels = panelsOf(dashboard.panels).filter((p) => p.datasource?.type === 'prometheus');
  const variables = dashboard.templating.list.filter((v: any) => v.type === 'query');
  return [
    ...panels.flatMap((p) => p.targets.map((t: any) => ({ panel: p.title as string, expr: t.expr as string }))),
    ...variables.map((v: any) => ({ panel: `$${v.name}`, expr: (v.query.query as string).replace(/^label_values\(([^,]+),.*$/, '$1') })),
  ];
}

// exploreLink is how a panel's link opens Explore on the Tempo datasource.
const exploreLink = '/explore?orgId=1&left=';

// traceQueries are the TraceQL expressions of the Tempo panels and of the panels' links to
// Explore.
export function traceQueries(dashboard: Dashboard): { panel: string; query: string }[] {
  const panels = panelsOf(dashboard.panels);
  const ofPanels = panels
    .filter((p) => p.datasource?.type === 'tempo')
    .flatMap((p) => p.targets.filter((t: any) => t.queryType === 'traceql').map((t: any) => ({ panel: p.title as string, query: t.query as string })));
  const ofLinks = panels.flatMap((p) =>
    (p.fieldConfig?.defaults?.links ?? []).map((link: any) => {
      if (!link.url.startsWith(exploreLink)) throw new Error(`${p.title}: a link that does not open Explore: ${link.url}`);
      const state = JSON.parse(decodeURIComponent(link.url.slice(exploreLink.length)));
      if (state.datasource !== '${tempo}' || state.queries.length !== 1 || state.queries[0].queryType !== 'traceql') throw new Error(`${p.title}: a link that is not one TraceQL query on Tempo`);
      return { panel: `${p.title} (link)`, query: state.queries[0].query as string };
    }),
  );
  return [...ofPanels, ...ofLinks];
}

const keywords = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'bool', 'offset']);

// metricNames reads the metric names a PromQL expression selects: identifiers left once strings,
// label matchers, range selectors and grouping label lists are gone, other than function
// calls and keywords.
export function metricNames(expr: string): string[] {
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

// samplePromValues are values Grafana would give the PromQL variables: every resource, both
// controllers, a rate window of 15 scrapes.
export function withSamplePromValues(expr: string): string {
  return expr.replaceAll('$__rate_interval', '15s').replaceAll('$resource', '.*').replaceAll('$controller', 'job|daemonset');
}

// withSampleValues gives a TraceQL expression's variables the values Grafana would give them:
// a series' labels for a link (LIST of pods, code 404, the job queue), the textbox's duration,
// every resource, both controllers.
export function withSampleValues(query: string): string {
  const values: Record<string, string> = {
    '${__field.labels.verb}': 'LIST',
    '${__field.labels.resource}': 'pods',
    '${__field.labels.code}': '404',
    '${__field.labels.name}': 'job',
    '${min_duration}': '100ms',
    '${resource:regex}': '.*',
    '${controller:regex}': 'job|daemonset',
  };
  return Object.entries(values).reduce((filled, [variable, value]) => filled.replaceAll(variable, value), query);
}
