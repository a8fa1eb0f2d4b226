// kubectl rollout history, status and undo of a DaemonSet against the all-in-one: what kubectl
// 1.28 prints follows from the ControllerRevisions the DaemonSet controller keeps (their numbers,
// the change-cause annotation copied from the DaemonSet, the template each holds), and an undo
// brings an old revision back under the next number. The expected outputs are what kubectl
// printed for the same steps against kube-apiserver and kube-controller-manager 1.28.7. The
// template selects no node, so no pod is needed.
import { kubectl, kubectlUntil, PlinthProcess, startPlinth } from '@plinth/testing-server';

const namespace = 'rollout-history';

const manifest = `
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: fleet, namespace: ${namespace}}
spec:
  selector: {matchLabels: {app: fleet}}
  template:
    metadata: {labels: {app: fleet}}
    spec: {nodeSelector: {none: none}, containers: [{name: agent, image: "fleet:v1"}]}
`;

describe('kubectl rollout of a DaemonSet', () => {
  let plinth: PlinthProcess;
  const k = async (args: string[], input?: string) => {
    const result = await kubectl(plinth.kubeconfig, ['-n', namespace, ...args], { input });
    if (result.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  };
  const history = (revisions: string) => kubectlUntil(plinth.kubeconfig, ['-n', namespace, 'rollout', 'history', 'ds/fleet'], new RegExp(`${revisions}\\s*$`));

  beforeAll(async () => {
    plinth = await startPlinth();
    await k(['create', 'namespace', namespace]);
  }, 60000);

  afterAll(async () => {
    await plinth?.stop();
  });

  it('lists the revisions with their change-cause, and an undo renumbers the revision it brings back', async () => {
    await k(['apply', '-f', '-'], manifest);
    await history('1\\s+<none>');
    await k(['set', 'image', 'ds/fleet', 'agent=fleet:v2']);
    await history('2\\s+<none>');
    await k(['annotate', 'ds/fleet', 'kubernetes.io/change-cause=to v3']);
    await k(['set', 'image', 'ds/fleet', 'agent=fleet:v3']);
    expect(await history('3\\s+to v3')).toBe('daemonset.apps/fleet \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n3         to v3\n\n');
    expect(await k(['rollout', 'status', 'ds/fleet'])).toBe('daemon set "fleet" successfully rolled out\n');

    expect(await k(['rollout', 'undo', 'ds/fleet', '--to-revision=1'])).toBe('daemonset.apps/fleet rolled back\n');
    expect(await history('4\\s+<none>')).toBe('daemonset.apps/fleet \nREVISION  CHANGE-CAUSE\n2         <none>\n3         to v3\n4         <none>\n\n');
    expect(await k(['rollout', 'history', 'ds/fleet', '--revision=2'])).toBe(
      'daemonset.apps/fleet with revision #2\nPod Template:\n  Labels:\tapp=fleet\n  Containers:\n   agent:\n    Image:\tfleet:v2\n    Port:\t<none>\n    Host Port:\t<none>\n    Environment:\t<none>\n    Mounts:\t<none>\n  Volumes:\t<none>\n\n',
    );
    expect(await k(['rollout', 'undo', 'ds/fleet', '--to-revision=4'])).toBe('daemonset.apps/fleet skipped rollback (current template already matches revision 4)\n');
  }, 120000);
});
