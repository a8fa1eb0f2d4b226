// The Job controller in the all-in-one with the node simulator, end to end through kubectl and
// the API: completions and parallelism, an Indexed Job with failures and a pod failure policy,
// suspend and resume, the active deadline, and TTL deletion.
import { kubectl, PlinthProcess, spawnKubectl, startPlinth } from '@plinth/testing-server';
import { eventually } from '@plinth/testing';

describe('Job controller in the all-in-one', () => {
  let plinth: PlinthProcess;
  const k = (args: string[], input?: string) => kubectl(plinth.kubeconfig, args, { input });
  const json = async (args: string[]) => JSON.parse((await k([...args, '-o', 'json'])).stdout);

  const condition = (job: { status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] } }, type: string) =>
    job.status?.conditions?.find((c) => c.type === type && c.status === 'True');

  beforeAll(async () => {
    plinth = await startPlinth(['--simulated-nodes', '3', '--feature-gates', 'JobPodFailurePolicy=true']);
  }, 60000);

  afterAll(() => plinth?.stop());

  it('runs a Job to completion with completions and parallelism', async () => {
    await k(['apply', '-f', '-'], `
apiVersion: batch/v1
kind: Job
metadata: {name: batch-3}
spec:
  completions: 3
  parallelism: 2
  template:
    spec:
      restartPolicy: Never
      containers: [{name: main, image: busybox}]
`);
    const job = await eventually(() => json(['get', 'job', 'batch-3']), { until: (j) => Boolean(condition(j, 'Complete')), timeoutMs: 40_000 });
    expect(job.status).toMatchObject({ succeeded: 3 });
    expect(job.status.completionTime).toBeDefined();
    expect((await k(['get', 'job', 'batch-3'])).stdout).toMatch(/batch-3\s+3\/3\s+\d+s\s+\d+s/);
  }, 60000);

  it('runs an Indexed Job, replacing a failed index, and fails it by the pod failure policy', async () => {
    await k(['apply', '-f', '-'], `
apiVersion: batch/v1
kind: Job
metadata: {name: indexed}
spec:
  completions: 3
  parallelism: 3
  completionMode: Indexed
  backoffLimit: 6
  template:
    spec:
      restartPolicy: Never
      containers: [{name: main, image: busybox}]
`);
    const done = await eventually(() => json(['get', 'job', 'indexed']), { until: (j) => Boolean(condition(j, 'Complete')), timeoutMs: 40_000 });
    expect(done.status.completedIndexes).toBe('0-2');
    const pods = await json(['get', 'pods', '-l', 'batch.platform.io/job-name=indexed']);
    const indexes = pods.items.map((p: { metadata: { annotations: Record<string, string> } }) => p.metadata.annotations['batch.platform.io/job-completion-index']).sort();
    expect(indexes).toEqual(['0', '1', '2']);

    await k(['apply', '-f', '-'], `
apiVersion: batch/v1
kind: Job
metadata: {name: policy}
spec:
  completions: 2
  completionMode: Indexed
  backoffLimit: 6
  podFailurePolicy:
    rules:
    - action: FailJob
      onExitCodes: {containerName: main, operator: In, values: [42]}
  template:
    metadata:
      annotations: {sim.platform.io/exit-code: "42"}
    spec:
      restartPolicy: Never
      containers: [{name: main, image: busybox}]
`);
    const failed = await eventually(() => json(['get', 'job', 'policy']), { until: (j) => Boolean(condition(j, 'Failed')), timeoutMs: 40_000 });
    expect(condition(failed, 'Failed')).toMatchObject({ reason: 'PodFailurePolicy' });
    expect(condition(failed, 'Failed')?.message).toMatch(/^Container main for pod default\/policy-\d-\w+ failed with exit code 42 matching FailJob rule at index 0$/);
  }, 60000);

  it('suspends and resumes a Job', async () => {
    await k(['apply', '-f', '-'], `
apiVersion: batch/v1
kind: Job
metadata: {name: pausable}
spec:
  suspend: true
  template:
    metadata:
      annotations: {sim.platform.io/run-seconds: "1"}
    spec:
      restartPolicy: Never
      containers: [{name: main, image: busybox}]
`);
    const suspended = await eventually(() => json(['get', 'job', 'pausable']), { until: (j) => Boolean(condition(j, 'Suspended')), timeoutMs: 40_000 });
    expect(suspended.status.startTime).toBeUndefined();
    expect((await json(['get', 'pods', '-l', 'batch.platform.io/job-name=pausable'])).items).toHaveLength(0);
    await k(['patch', 'job', 'pausable', '--type', 'merge', '-p', '{"spec":{"suspend":false}}']);
    const complete = await eventually(() => json(['get', 'job', 'pausable']), { until: (j) => Boolean(condition(j, 'Complete')), timeoutMs: 40_000 });
    expect(complete.status.startTime).toBeDefined();
  }, 60000);

  it('fails a Job past its active deadline, and deletes a finished Job after its TTL', async () => {
    await k(['apply', '-f', '-'], `
apiVersion: batch/v1
kind: Job
metadata: {name: slow}
spec:
  activeDeadlineSeconds: 2
  template:
    metadata:
      annotations: {sim.platform.io/run-seconds: "60"}
    spec:
      restartPolicy: Never
      containers: [{name: main, image: busybox}]
`);
    const failed = await eventually(() => json(['get', 'job', 'slow']), { until: (j) => Boolean(condition(j, 'Failed')), timeoutMs: 40_000 });
    expect(condition(failed, 'Failed')).toMatchObject({ reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' });

    await k(['apply', '-f', '-'], `
apiVersion: batch/v1
kind: Job
metadata: {name: short-lived}
spec:
  ttlSecondsAfterFinished: 0
  template:
    spec:
      restartPolicy: Never
      containers: [{name: main, image: busybox}]
`);
    await eventually(async () => (await k(['get', 'job', 'short-lived'])).stderr, { until: (err) => err.includes('NotFound'), timeoutMs: 40_000 });
  }, 60000);

  // kubectl 1.32 refuses `get jobs,pods -w` ("you may only specify a single resource type"),
  // against Kubernetes too; one watch per type shows the same run.
  it('shows a Job run to completion with kubectl get jobs -w and get pods -w', async () => {
    const jobs = spawnKubectl(plinth.kubeconfig, ['get', 'jobs', '-w']);
    const pods = spawnKubectl(plinth.kubeconfig, ['get', 'pods', '-w']);
    try {
      // The watches have listed (the earlier tests' Jobs and pods) before the Job is made: one that
      // started after it ran to completion would never print it 0/1 nor its pod Running.
      await jobs.waitFor(/^NAME\s/m);
      await pods.waitFor(/^NAME\s/m);
      await k(['create', 'job', 'watched', '--image=busybox']);
      await jobs.waitFor(/watched\s+0\/1/, 20000);
      await pods.waitFor(/watched-\w+\s+1\/1\s+Running/, 20000);
      await pods.waitFor(/watched-\w+\s+0\/1\s+Completed/, 20000);
      await jobs.waitFor(/watched\s+1\/1/, 20000);
    } finally {
      jobs.stop();
      pods.stop();
    }
  }, 60000);
});
