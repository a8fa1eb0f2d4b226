// The DaemonSet controller in the all-in-one with the node simulator: one pod per node, then a
// rolling update to a new template, watched through kubectl.
import { kubectl, kubectlUntil, PlinthProcess, startPlinth } from '@plinth/testing-server';

const ds = (image: string) => `
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  updateStrategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: agent, image: ${image}}]
`;

describe('DaemonSet controller in the all-in-one', () => {
  let plinth: PlinthProcess;
  const k = (args: string[], input?: string) => kubectl(plinth.kubeconfig, args, { input });

  const waitFor = (args: string[], pattern: RegExp) => kubectlUntil(plinth.kubeconfig, args, pattern, 30000);

  beforeAll(async () => {
    plinth = await startPlinth(['--simulated-nodes', '3']);
  }, 60000);

  afterAll(() => plinth?.stop());

  it('runs one pod per node and rolls to a new template', async () => {
    await k(['apply', '-f', '-'], ds('agent:v1'));
    await waitFor(['get', 'ds', 'agent'], /agent\s+3\s+3\s+3\s+3\s+3\s+<none>/);
    const nodes = (await k(['get', 'pods', '-l', 'app=agent', '-o', 'jsonpath={.items[*].spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values[0]}'])).stdout;
    expect(nodes.split(' ').sort()).toEqual(['sim-node-0', 'sim-node-1', 'sim-node-2']);
    await k(['apply', '-f', '-'], ds('agent:v2'));
    await waitFor(['get', 'pods', '-l', 'app=agent', '-o', 'jsonpath={.items[*].spec.containers[0].image}'], /^agent:v2 agent:v2 agent:v2$/);
    await waitFor(['get', 'ds', 'agent'], /agent\s+3\s+3\s+3\s+3\s+3\s+<none>/);
    const revisions = await k(['get', 'controllerrevisions', '-o', 'name']);
    expect(revisions.stdout.trim().split('\n')).toHaveLength(2);
  }, 90000);
});
