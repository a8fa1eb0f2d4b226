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

export interface PrometheusServer {
  readonly url: string;
  // query evaluates a PromQL expression now (GET /api/v1/query).
  query(expr: string): Promise<PrometheusQueryResult>;
  // targets are the scrape targets' job, health and last error (GET /api/v1/targets).
  targets(): Promise<{ job: string; health: string; lastError: string }[]>;
  output(): string;
  stop(): Promise<void>;
}

// startPrometheus starts a real Prometheus (Debian's package) on a free loopback port with the
// scrape configurations given (YAML list items under scrape_configs, each a string), scraping
// every second, with its data in a throw-away folder.
export async function startPrometheus(scrapeConfigs: string[]): Promise<PrometheusServer> {
  const binary = findBinary(prometheusBinary);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'plinth-prometheus-'));
  const configFile = join(dir, 'prometheus.yml');
  writeFileSync(configFile, ['global:', '  scrape_interval: 1s', '  evaluation_interval: 1s', 'scrape_configs:', ...scrapeConfigs].join('\n') + '\n');
  const proc = startProcess(binary, [`--config.file=${configFile}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn']);
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
    output: () => proc.output(),
    stop,
  };
}
