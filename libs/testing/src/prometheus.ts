import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBinary, prometheusBinary } from './binaries';
import { freePort } from './ports';
import { startProcess, waitForPort } from './process';

export interface PrometheusQueryResult {
  // status is Prometheus' answer: "success", or "error" with errorType and error.
  readonly status: string;
  readonly errorType?: string;
  readonly error?: string;
  readonly data?: { resultType: string; result: { metric: Record<string, string>; value?: [number, string] }[] };
}

export interface PrometheusExemplars {
  readonly status: string;
  readonly error?: string;
  readonly data?: { seriesLabels: Record<string, string>; exemplars: { labels: Record<string, string>; value: string; timestamp: number }[] }[];
}

export interface PrometheusServer {
  readonly url: string;
  // query evaluates a PromQL expression now (GET /api/v1/query).
  query(expr: string): Promise<PrometheusQueryResult>;
  // targets are the scrape targets' job, health and last error (GET /api/v1/targets).
  targets(): Promise<{ job: string; health: string; lastError: string }[]>;
  // rules are the loaded rules' name, health, last error and, for alerts, state (GET
  // /api/v1/rules).
  rules(): Promise<{ name: string; health: string; lastError?: string; state?: string }[]>;
  // exemplars are the exemplars stored for the series an expression selects over the last
  // sinceSeconds (GET /api/v1/query_exemplars).
  exemplars(expr: string, sinceSeconds?: number): Promise<PrometheusExemplars>;
  output(): string;
  stop(): Promise<void>;
}

export interface PrometheusOptions {
  // scrapeConfigs are the lines of the scrape_configs list (YAML, indented under it).
  scrapeConfigs: string[];
  // ruleFiles are rule files to load and evaluate every second.
  ruleFiles?: string[];
}

// startPrometheus starts a real Prometheus (Debian's package) on a free loopback port, scraping
// every second and storing exemplars (so it scrapes OpenMetrics), with its data in a throw-away
// folder.
export async function startPrometheus(options: PrometheusOptions): Promise<PrometheusServer> {
  const binary = findBinary(prometheusBinary);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'plinth-prometheus-'));
  const configFile = join(dir, 'prometheus.yml');
  const rules = (options.ruleFiles ?? []).map((file) => `  - ${JSON.stringify(file)}`);
  const config = ['global:', '  scrape_interval: 1s', '  evaluation_interval: 1s', ...(rules.length ? ['rule_files:', ...rules] : []), 'scrape_configs:', ...options.scrapeConfigs];
  writeFileSync(configFile, `${config.join('\n')}\n`);
  const proc = startProcess(binary, [`--config.file=${configFile}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--enable-feature=exemplar-storage', '--log.level=warn']);
  const stop = async () => {
    await proc.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(proc, port, 'prometheus', 60000);
  } catch (err) {
    await stop();
    throw err;
  }
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    async query(expr) {
      const res = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: expr })}`);
      return (await res.json()) as PrometheusQueryResult;
    },
    async targets() {
      const res = await fetch(`${url}/api/v1/targets`);
      const body = (await res.json()) as { data: { activeTargets: { labels: { job: string }; health: string; lastError: string }[] } };
      return body.data.activeTargets.map((t) => ({ job: t.labels.job, health: t.health, lastError: t.lastError }));
    },
    async rules() {
      const res = await fetch(`${url}/api/v1/rules`);
      const body = (await res.json()) as { data: { groups: { rules: { name: string; health: string; lastError?: string; state?: string }[] }[] } };
      return body.data.groups.flatMap((g) => g.rules.map(({ name, health, lastError, state }) => ({ name, health, lastError, state })));
    },
    async exemplars(expr, sinceSeconds = 600) {
      const end = Date.now() / 1000;
      const res = await fetch(`${url}/api/v1/query_exemplars?${new URLSearchParams({ query: expr, start: String(end - sinceSeconds), end: String(end) })}`);
      return (await res.json()) as PrometheusExemplars;
    },
    output: () => proc.output(),
    stop,
  };
}
