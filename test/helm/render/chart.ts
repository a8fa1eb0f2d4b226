// renderChart renders a chart directory as `helm template` would for the subset of Helm our
// chart uses: Chart.yaml, values.yaml deep-merged with overrides, every templates/*.yaml
// (files starting with _ only define templates), .Release, .Chart, .Capabilities and
// .Files.Get for files inside the chart (symbolic links followed, as Helm does).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { parse } from 'yaml';
import { templateFunctions } from './functions';
import { isMap, TemplateError, Templates, Value } from './template';

export interface ReleaseOptions {
  name: string;
  namespace: string;
  // values are merged over the chart's values.yaml, as `helm install -f`.
  values?: Record<string, Value>;
}

export interface RenderedChart {
  // manifests maps each template file to its rendered text.
  manifests: Map<string, string>;
  values: Record<string, Value>;
}

export function renderChart(chartDir: string, release: ReleaseOptions): RenderedChart {
  const chart = parse(readFileSync(join(chartDir, 'Chart.yaml'), 'utf8')) as Record<string, Value>;
  const defaults = (parse(readFileSync(join(chartDir, 'values.yaml'), 'utf8')) ?? {}) as Record<string, Value>;
  const values = mergeValues(defaults, release.values ?? {});
  const templates = new Templates(templateFunctions);
  const dir = join(chartDir, 'templates');
  const files = readdirSync(dir).filter((f) => /\.(ya?ml|tpl)$/.test(f)).sort();
  for (const file of files) templates.parse(file, readFileSync(join(dir, file), 'utf8'));
  const root = {
    Values: values,
    Release: { Name: release.name, Namespace: release.namespace, Service: 'Helm', IsInstall: true, IsUpgrade: false, Revision: 1 },
    Chart: { Name: chart.name, Version: chart.version, AppVersion: chart.appVersion, Description: chart.description },
    Capabilities: { KubeVersion: { Version: 'v1.28.0', Major: '1', Minor: '28' } },
    Files: { Get: (path: Value) => readChartFile(chartDir, String(path)) },
  };
  const manifests = new Map<string, string>();
  for (const file of files) {
    if (file.startsWith('_')) continue;
    manifests.set(file, templates.render(file, root));
  }
  return { manifests, values };
}

// mergeValues overlays values as Helm does: maps merge key by key, anything else replaces, and
// null deletes a key.
export function mergeValues(base: Record<string, Value>, overlay: Record<string, Value>): Record<string, Value> {
  const merged: Record<string, Value> = { ...base };
  for (const [key, value] of Object.entries(overlay)) {
    if (value === null) delete merged[key];
    else if (isMap(value) && isMap(merged[key])) merged[key] = mergeValues(merged[key] as Record<string, Value>, value);
    else merged[key] = value;
  }
  return merged;
}

function readChartFile(chartDir: string, path: string): string {
  const full = resolve(chartDir, path);
  if (relative(resolve(chartDir), full).startsWith(`..${sep}`)) throw new TemplateError(`.Files.Get: ${path} is outside the chart`);
  try {
    return readFileSync(full, 'utf8');
  } catch {
    // Helm's Files.Get gives the empty string for a missing file.
    return '';
  }
}
