// The all-in-one's controller manager runs on a worker thread of its own (ControllersWorkerHost),
// as a client of the process's API: the worker says which thread it runs on, a Job runs to
// completion through its controllers and node simulator, its metrics are served on the API's
// /metrics beside the server's, and SIGTERM stops it with the server, exiting 0. (The
// supervisor's crash handling: libs/nest/src/worker/thread-supervisor.spec.ts.)
import { kubectl, kubectlUntil, PlinthProcess, startPlinth } from '@plinth/testing-server';
import { eventually } from '@plinth/testing';

describe('the all-in-one controller manager on a worker thread', () => {
  let plinth: PlinthProcess;

  beforeAll(async () => {
    plinth = await startPlinth(['--simulated-nodes', '1']);
  }, 60_000);

  afterAll(() => plinth?.stop());

  it('runs the controllers and the node simulator off the main thread, reports their metrics on /metrics, and stops with the process', async () => {
    // The worker logs its own thread id (the main thread's is 0); the supervisor logs the same.
    const output = await eventually(() => plinth.output(), { until: (log) => /controller manager running in worker thread \d+/.test(log), what: 'the worker starting' });
    const workerThread = Number(/controller manager running in worker thread (\d+)/.exec(output)?.[1]);
    expect(workerThread).toBeGreaterThan(0);
    expect(output).toContain(`controller manager started in worker thread ${workerThread}`);

    await kubectl(plinth.kubeconfig, ['create', 'job', 'on-worker', '--image=busybox']);
    await kubectlUntil(plinth.kubeconfig, ['get', 'job', 'on-worker', '-o', 'jsonpath={.status.succeeded}'], /^1$/, 40_000);

    const metrics = await kubectlUntil(plinth.kubeconfig, ['get', '--raw', '/metrics'], /^job_controller_job_syncs_total\{.*\} [1-9]/m);
    expect(metrics).toMatch(/^workqueue_adds_total\{name="job"\} [1-9]\d*$/m);
    expect(metrics).toMatch(/^workqueue_adds_total\{name="node_simulator"\} [1-9]\d*$/m);
    expect(metrics).toMatch(/^leader_election_master_status\{name="kube-controller-manager"\} 1$/m);
    // The server's own families are there once, the worker's process_* series left out.
    expect(metrics).toMatch(/^apiserver_request_total\{/m);
    expect(metrics.match(/^# TYPE process_cpu_seconds_total counter$/gm)).toHaveLength(1);
    expect(metrics.match(/^process_cpu_seconds_total /gm)).toHaveLength(1);

    await plinth.stop();
    expect(await plinth.exited).toBe(0);
    expect(plinth.output()).not.toContain('ended unexpectedly');
    expect(plinth.output()).not.toContain('did not stop within');
  }, 90_000);
});
