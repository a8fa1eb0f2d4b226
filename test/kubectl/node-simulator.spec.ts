// The node simulator in the all-in-one: nodes register Ready, pods are scheduled and run to
// completion (or stay Running), as the pod's annotations say.
import { kubectl, kubectlUntil, PlinthProcess, startPlinth } from '@plinth/testing-server';

describe('node simulator in the all-in-one', () => {
  let plinth: PlinthProcess;
  const k = (args: string[], input?: string) => kubectl(plinth.kubeconfig, args, { input });

  const waitFor = (args: string[], pattern: RegExp) => kubectlUntil(plinth.kubeconfig, args, pattern, 20000);

  beforeAll(async () => {
    plinth = await startPlinth(['--simulated-nodes', '2']);
  }, 60000);

  afterAll(() => plinth?.stop());

  it('registers Ready nodes', async () => {
    const nodes = await waitFor(['get', 'nodes'], /sim-node-1\s+Ready/);
    expect(nodes.split('\n')[0]).toMatch(/^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION$/);
    expect(nodes).toMatch(/sim-node-0\s+Ready\s+<none>\s+\S+\s+v1\.28\.0-plinth/);
    // Every new Node starts tainted not-ready; the simulator lifts the taint from its own.
    const untainted = await waitFor(['get', 'node', 'sim-node-1', '-o', 'jsonpath={.metadata.name}:{.spec.taints}'], /^sim-node-1:$/);
    expect(untainted).toBe('sim-node-1:');
  });

  it('runs a pod to completion, and keeps a restartPolicy Always pod running', async () => {
    await k(['run', 'once', '--image=busybox', '--restart=Never']);
    await k(['run', 'server', '--image=nginx']);
    await waitFor(['get', 'pod', 'once'], /once\s+0\/1\s+Completed\s+0/);
    const server = await waitFor(['get', 'pod', 'server', '-o', 'wide'], /server\s+1\/1\s+Running\s+0/);
    expect(server).toMatch(/sim-node-[01]/);
  });

  it('fails a pod with the annotated exit code', async () => {
    await k(['run', 'broken', '--image=busybox', '--restart=Never', '--annotations=sim.platform.io/exit-code=3']);
    await waitFor(['get', 'pod', 'broken'], /broken\s+0\/1\s+Error\s+0/);
    const code = await k(['get', 'pod', 'broken', '-o', 'jsonpath={.status.containerStatuses[0].state.terminated.exitCode}']);
    expect(code.stdout).toBe('3');
  });

  it('deletes a running pod through its graceful deletion', async () => {
    const deleted = await k(['delete', 'pod', 'server', '--timeout=20s']);
    expect(deleted.stdout.trim()).toBe('pod "server" deleted');
    expect((await k(['get', 'pod', 'server'])).stderr.trim()).toBe('Error from server (NotFound): pods "server" not found');
  });
});
