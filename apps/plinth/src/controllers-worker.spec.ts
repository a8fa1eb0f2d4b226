// The all-in-one's controller manager runs on a worker thread of its own (ControllersWorkerHost),
// as a client of the process's API: the worker says which thread it runs on, a Job runs to
// completion through its controllers and node simulator, its metrics are served on the API's
// /metrics beside the server's, its spans are exported under the all-in-one's service name,
// and SIGTERM stops it with the server, exiting 0. (The supervisor's crash handling:
// libs/nest/src/worker/thread-supervisor.spec.ts and controllers-worker.host.spec.ts.)
import { kubectl, kubectlUntil, PlinthProcess, startPlinth } from '@plinth/testing-server';
import { eventually, OtlpReceiver, startOtlpReceiver } from '@plinth/testing';

describe('the all-in-one controller manager on a worker thread', () => {
  let plinth: PlinthProcess;
  let receiver: OtlpReceiver;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    // startPlinth passes this process's environment on; the spans are exported on shutdown.
    const saved = { ...process.env };
    Object.assign(process.env, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '600000' });
    try {
      plinth = await startPlinth(['--simulated-nodes', '1']);
    } finally {
      process.env = saved;
    }
  }, 60_000);

  afterAll(async () => {
    await plinth?.stop();
    await receiver?.stop();
  });

  it('runs the controllers and the node simulator off the main thread, reports their metrics on /metrics and their spans, and stops with the process', async () => {
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
    // The Job controller's syncs and their client calls, from the worker's own exporter.
    const spans = receiver.spans().filter((span) => span.name === 'sync job');
    expect(spans.length).toBeGreaterThan(0);
    expect(new Set(spans.map((span) => span.service))).toEqual(new Set(['plinth']));
    expect(receiver.spans().some((span) => span.service === 'plinth' && span.name.startsWith('POST /api/v1/namespaces/{:namespace}/pods'))).toBe(true);
  }, 90_000);
});
