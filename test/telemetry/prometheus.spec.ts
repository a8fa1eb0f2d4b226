// A real Prometheus (Debian's package) scrapes the distributed Plinth: the gateway over HTTPS
// with a bearer token and the cluster CA, as the chart's ServiceMonitor does, and the metrics
// ports of the storage service, authz and the controller manager. Under a short load (a Job run by the controllers, reads,
// a 404, an open watch) every PromQL expression of the Grafana dashboards parses and returns
// data when Prometheus evaluates it; the alert rules pass promtool, evaluate without error,
// and none fires on this healthy cluster. The apps export their traces to a small OTLP receiver,
// and Prometheus stores the exemplars of the latency histograms: each names a trace that
// arrived there.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, OtlpReceiver, PrometheusServer, RunningProcess, startOtlpReceiver, startProcess, startPrometheus, waitForPort, eventually } from '@plinth/testing';
import { kubectl, spawnKubectl } from '@plinth/testing-server';
import { DistributedPlinth, startDistributed } from '../distributed';
import { Dashboard, dashboardFiles, promQueries, withSamplePromValues } from '../helm/dashboards';

const root = join(__dirname, '../..');
const alertRules = join(root, 'deploy/prometheus/plinth-alerts.yaml');

// dashboardQueries are the PromQL expressions of both dashboards as Grafana sends them, with
// their variables given values.
function dashboardQueries(): { panel: string; expr: string }[] {
  return dashboardFiles.flatMap((file) => {
    const dashboard: Dashboard = JSON.parse(readFileSync(join(root, 'deploy/grafana', file), 'utf8'));
    return promQueries(dashboard).map(({ panel, expr }) => ({ panel: `${file}: ${panel}`, expr: withSamplePromValues(expr) }));
  });
}

describe('Prometheus scraping Plinth', () => {
  let plinth: DistributedPlinth;
  let controllers: RunningProcess;
  let prometheus: PrometheusServer;
  let receiver: OtlpReceiver;
  let dir: string;
  let watch: ReturnType<typeof spawnKubectl>;
  const k = (args: string[]) => kubectl(plinth.adminKubeconfig, args, { timeoutMs: 60000 });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plinth-prometheus-spec-'));
    const [storagePort, authzPort, metricsPort] = [await freePort(), await freePort(), await freePort()];
    receiver = await startOtlpReceiver();
    plinth = await startDistributed({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '500' }, { storage: [`--metrics-bind-address=127.0.0.1:${storagePort}`], authz: [`--metrics-bind-address=127.0.0.1:${authzPort}`] });
    controllers = startProcess(
      process.execPath,
      ['-r', join(root, 'tools/register.js'), join(root, 'apps/controllers/src/main.ts'), '--kubeconfig', plinth.adminKubeconfig, '--simulated-nodes', '1', '--metrics-bind-address', `127.0.0.1:${metricsPort}`],
      { ...process.env, NO_COLOR: '1', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '500' },
    );
    await waitForPort(controllers, metricsPort, 'the controller manager', 60000);
    writeFileSync(join(dir, 'ca.crt'), plinth.ca);
    prometheus = await startPrometheus({
      ruleFiles: [alertRules],
      scrapeConfigs: [
        '  - job_name: plinth-gateway',
        '    scheme: https',
        '    authorization: {credentials: admin-token}',
        `    tls_config: {ca_file: ${join(dir, 'ca.crt')}}`,
        `    static_configs: [{targets: ["127.0.0.1:${plinth.port}"]}]`,
        '  - job_name: plinth-controller-manager',
        `    static_configs: [{targets: ["127.0.0.1:${metricsPort}"]}]`,
        '  - job_name: plinth-storage',
        `    static_configs: [{targets: ["127.0.0.1:${storagePort}"]}]`,
        '  - job_name: plinth-authz',
        `    static_configs: [{targets: ["127.0.0.1:${authzPort}"]}]`,
      ],
    });
  }, 180000);

  afterAll(async () => {
    watch?.stop();
    await prometheus?.stop();
    await controllers?.stop();
    await plinth?.stop();
    await receiver?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('scrapes the gateway, the storage and authz services and the controller manager', async () => {
    const targets = await eventually(async () => {
      const all = await prometheus.targets();
      return all.length === 4 && all.every((t) => t.health === 'up') ? all : undefined;
    }, { what: 'every target up', timeoutMs: 60_000 });
    expect(targets.map((t) => t.job).sort()).toEqual(['plinth-authz', 'plinth-controller-manager', 'plinth-gateway', 'plinth-storage']);
    // Every app reports the process metrics.
    for (const metric of ['process_start_time_seconds', 'process_open_fds', 'process_virtual_memory_bytes']) {
      const reporting = (await prometheus.query(metric)).data?.result.map((r) => r.metric.job).sort();
      expect({ metric, reporting }).toEqual({ metric, reporting: ['plinth-authz', 'plinth-controller-manager', 'plinth-gateway', 'plinth-storage'] });
    }
    // Each app reports the links it depends on, all up.
    const links = (await prometheus.query('plinth_link_up')).data?.result.map((r) => `${r.metric.job} ${r.metric.link} ${r.value?.[1]}`).sort();
    expect(links).toEqual(['plinth-authz nats 1', 'plinth-authz storage 1', 'plinth-gateway nats 1', 'plinth-gateway storage 1', 'plinth-storage etcd 1']);
  }, 90000);

  it('evaluates every expression of the dashboard to data under load', async () => {
    watch = spawnKubectl(plinth.adminKubeconfig, ['get', 'jobs', '--watch']);
    expect((await k(['create', 'job', 'scraped', '--image', 'busybox'])).code).toBe(0);
    expect(await k(['wait', '--for=condition=complete', 'job/scraped', '--timeout=50s'])).toMatchObject({ code: 0 });
    expect((await k(['get', 'job', 'never-made'])).stderr).toContain('NotFound');
    expect((await k(['get', 'namespaces'])).code).toBe(0);

    const queries = dashboardQueries();
    expect(queries.length).toBeGreaterThanOrEqual(35);
    for (const { panel, expr } of queries) {
      const answer = await prometheus.query(expr);
      expect({ panel, expr, status: answer.status, error: answer.error }).toEqual({ panel, expr, status: 'success', error: undefined });
    }
    // Rates need two scrapes after the load: the expressions without data yet are asked again.
    let withoutData: string[] = [];
    await eventually(async () => {
      withoutData = [];
      for (const { panel, expr } of queries) if (((await prometheus.query(expr)).data?.result ?? []).length === 0) withoutData.push(`${panel}: ${expr}`);
      return withoutData.length === 0 ? true : undefined;
    }, { what: 'every dashboard expression returns data', timeoutMs: 60_000 }).catch(() => undefined);
    expect(withoutData).toEqual([]);

    const resources = (await prometheus.query('count by (resource) (apiserver_request_total)')).data?.result.map((r) => r.metric.resource);
    expect(resources).toEqual(expect.arrayContaining(['jobs', 'namespaces', 'pods']));
  }, 180000);

  it('stores exemplars on the latency histograms, each naming an exported trace', async () => {
    expect((await k(['get', 'pods', '-A'])).code).toBe(0);
    for (const [job, histogram] of [
      ['plinth-gateway', 'apiserver_request_duration_seconds_bucket'],
      ['plinth-gateway', 'plinth_storage_request_duration_seconds_bucket'],
      ['plinth-gateway', 'plinth_authz_request_duration_seconds_bucket'],
      ['plinth-authz', 'plinth_storage_request_duration_seconds_bucket'],
      ['plinth-storage', 'etcd_request_duration_seconds_bucket'],
      ['plinth-controller-manager', 'workqueue_work_duration_seconds_bucket'],
    ]) {
      const traceIds = await eventually(async () => {
        const answer = await prometheus.exemplars(`${histogram}{job="${job}"}`);
        expect(answer).toMatchObject({ status: 'success' });
        const ids = (answer.data ?? []).flatMap((series) => series.exemplars.map((e) => e.labels.trace_id));
        return ids.length > 0 ? ids : undefined;
      }, { what: `exemplars of ${job} ${histogram}`, timeoutMs: 60_000 });
      for (const id of traceIds) expect(id).toMatch(/^[0-9a-f]{32}$/);
      // The traces behind them reach the trace store (the apps export every 500 ms).
      await eventually(async () => (receiver.spans().some((s) => traceIds.includes(s.traceId)) ? true : undefined), { what: `a trace of a ${job} ${histogram} exemplar exported`, timeoutMs: 60_000 });
    }
  }, 90000);

  it('checks the alert rules with promtool', () => {
    const check = spawnSync('promtool', ['check', 'rules', alertRules], { encoding: 'utf8' });
    expect(check.stdout).toContain('SUCCESS: 12 rules found');
    expect(check.status).toBe(0);
  });

  it('evaluates every alert rule without error, and none fires on a healthy cluster', async () => {
    // The controller manager leads once it holds the Lease; the leader-missing alert then
    // stays inactive.
    await eventually(async () => {
      const result = (await prometheus.query('sum(leader_election_master_status{name="kube-controller-manager"})')).data?.result ?? [];
      return result[0]?.value?.[1] === '1' ? true : undefined;
    }, { what: 'the controller manager leading', timeoutMs: 60_000 });
    // A rule evaluated before the leader's first scrape may be pending for a moment.
    let rules: { name: string; health: string; lastError?: string; state?: string }[] = [];
    await eventually(async () => {
      rules = await prometheus.rules();
      return rules.length === 12 && rules.every((r) => r.health === 'ok' && r.state === 'inactive') ? true : undefined;
    }, { what: 'every rule evaluated and inactive', timeoutMs: 60_000 }).catch(() => undefined);
    expect(rules.filter((r) => r.health !== 'ok' || r.state !== 'inactive').map((r) => `${r.name}: ${r.health} ${r.state} ${r.lastError ?? ''}`)).toEqual([]);
    expect(rules).toHaveLength(12);
    expect(new Set(rules.map((r) => r.name))).toEqual(
      new Set(['PlinthAPIErrorBudgetBurn', 'PlinthAPILatencyBudgetBurn', 'PlinthStorageLinkDown', 'PlinthNATSLinkDown', 'PlinthEtcdLinkDown', 'PlinthEtcdDatabaseNearQuota', 'PlinthAuthzUnreachable', 'PlinthWorkQueueBackingUp', 'PlinthControllerManagerLeaderMissing']),
    );
    // The latency objectives read the histogram at Kubernetes' bucket bounds 1 and 30.
    for (const le of ['1', '30']) {
      const buckets = (await prometheus.query(`apiserver_request_duration_seconds_bucket{le="${le}"}`)).data?.result ?? [];
      expect({ le, series: buckets.length > 0 }).toEqual({ le, series: true });
    }
  }, 90000);
});
