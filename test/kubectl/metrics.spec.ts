// Metrics end to end: `kubectl get --raw /metrics` on the all-in-one, and the controller manager
// process serving its work queue metrics on --metrics-bind-address.
import { join } from 'node:path';
import { eventually, freePort, RunningProcess, startProcess, waitForPort } from '@plinth/testing';
import { kubectl, kubectlUntil, PlinthProcess, startPlinth } from '@plinth/testing-server';

const root = join(__dirname, '../..');

describe('metrics', () => {
  let plinth: PlinthProcess;
  let controllers: RunningProcess;
  let metricsPort: number;

  beforeAll(async () => {
    // The all-in-one runs the node simulator only; the controller manager process runs the
    // controllers.
    plinth = await startPlinth(['--controllers=-job,-daemonset,-ttl-after-finished,-garbagecollector']);
    metricsPort = await freePort();
    controllers = startProcess(
      process.execPath,
      ['-r', join(root, 'tools/register.js'), join(root, 'apps/controllers/src/main.ts'), '--kubeconfig', plinth.kubeconfig, '--simulated-nodes', '0', '--metrics-bind-address', `127.0.0.1:${metricsPort}`],
      { ...process.env, NO_COLOR: '1' },
    );
    await waitForPort(controllers, metricsPort, 'the controller manager', 60000);
  }, 90000);

  afterAll(async () => {
    await controllers?.stop();
    await plinth?.stop();
  });

  it('serves the API server metrics to kubectl get --raw /metrics', async () => {
    expect((await kubectl(plinth.kubeconfig, ['get', 'namespaces'])).code).toBe(0);
    const res = await kubectl(plinth.kubeconfig, ['get', '--raw', '/metrics']);
    expect(res.stderr).toBe('');
    expect(res.stdout).toContain('# TYPE apiserver_request_total counter\n');
    expect(res.stdout).toMatch(/^apiserver_request_total\{code="200",component="apiserver",dry_run="",group="",resource="namespaces",scope="cluster",subresource="",verb="LIST",version="v1"\} [1-9]\d*$/m);
    expect(res.stdout).toMatch(/^process_start_time_seconds \d\.\d+e\+09$/m);
  });

  it('reports the work queues of the controllers that run, in the process that runs them', async () => {
    expect((await kubectl(plinth.kubeconfig, ['create', 'job', 'measured', '--image=busybox'])).code).toBe(0);
    const scrape = async () => {
      const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      return res.text();
    };
    const text = await eventually(scrape, { until: (scraped) => /^workqueue_work_duration_seconds_count\{name="job"\} [1-9]/m.test(scraped), what: () => `job work measured; log:\n${controllers.output()}` });
    expect(text).toMatch(/^workqueue_adds_total\{name="job"\} [1-9]\d*$/m);
    expect(text).toMatch(/^workqueue_depth\{name="job"\} \d+$/m);
    expect(text).toContain('workqueue_work_duration_seconds_bucket{name="job",le="+Inf"} ');
    expect(text).toMatch(/^process_cpu_seconds_total \S+$/m);
    expect(text).not.toContain('apiserver_request_total');
    // The pod the Job controller made is counted once it was created.
    const counted = await eventually(scrape, { until: (scraped) => /^plinth_controller_pods_created_total\{controller="job"\} 1$/m.test(scraped), what: 'the pod creation counted' });
    expect(counted).toMatch(/^plinth_controller_pods_deleted_total\{controller="job"\} 0$/m);
    // The sync that created it, as kube-controller-manager's Job controller counts and times it.
    const synced = await eventually(scrape, {
      until: (scraped) => /^job_controller_job_syncs_total\{action="pods_created",completion_mode="NonIndexed",result="success"\} 1$/m.test(scraped),
      what: 'the sync that created the pod counted',
    });
    expect(synced).toMatch(/^job_controller_job_sync_duration_seconds_count\{action="pods_created",completion_mode="NonIndexed",result="success"\} 1$/m);

    // The job's pods reach the all-in-one's node simulator, whose queue its /metrics reports.
    await kubectlUntil(plinth.kubeconfig, ['get', '--raw', '/metrics'], /^workqueue_adds_total\{name="node_simulator"\} [1-9]/m);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/healthz`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status).toBe(404);
  }, 60000);
});
