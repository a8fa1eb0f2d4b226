import { daemonSet, node } from './fake-cluster';
import { manage } from './manage';
import { DaemonSet, Node, Pod } from '@plinth/api';

const now = Date.parse('2026-01-01T00:10:00Z');

function pod(name: string, nodeName: string, opts: { hash?: string; phase?: string; ready?: boolean; created?: string; deleting?: boolean } = {}): Pod {
  return {
    metadata: {
      name,
      labels: { app: 'agent', 'controller-revision-hash': opts.hash ?? 'h2' },
      creationTimestamp: opts.created ?? '2026-01-01T00:00:00Z',
      ...(opts.deleting ? { deletionTimestamp: '2026-01-01T00:09:00Z' } : {}),
    },
    spec: { nodeName },
    status: { phase: opts.phase ?? 'Running', conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  };
}

function run(ds: DaemonSet, nodes: Node[], pods: Pod[]) {
  const nodeToDaemonPods = new Map<string, Pod[]>();
  for (const p of pods) nodeToDaemonPods.set(p.spec!.nodeName!, [...(nodeToDaemonPods.get(p.spec!.nodeName!) ?? []), p]);
  return manage({ ds, nodes, nodeToDaemonPods, hash: 'h2', now, failedPodsBackoff: new Map() });
}

const surge = daemonSet('agent', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } });

describe('manage', () => {
  it.each([
    ['a node without a pod gets one', daemonSet(), [], [], ['n1']],
    ['a node with a terminating pod waits', daemonSet(), [pod('a', 'n1', { deleting: true })], [], []],
    ['a succeeded pod is deleted', daemonSet(), [pod('a', 'n1', { phase: 'Succeeded' })], ['a'], []],
    ['a failed pod is deleted', daemonSet(), [pod('a', 'n1', { phase: 'Failed' })], ['a'], []],
    ['without surge, all but the oldest go', daemonSet(), [pod('b', 'n1', { created: '2026-01-01T00:05:00Z' }), pod('a', 'n1'), pod('c', 'n1', { created: '2026-01-01T00:06:00Z' })], ['b', 'c'], []],
    ['with surge, an old and a new pod may share a node', surge, [pod('old', 'n1', { hash: 'h1' }), pod('new', 'n1', { ready: false })], [], []],
    ['with surge, a not-ready old pod goes', surge, [pod('old', 'n1', { hash: 'h1', ready: false }), pod('new', 'n1', { ready: false })], ['old'], []],
    ['with surge, an available new pod retires the old one', surge, [pod('old', 'n1', { hash: 'h1' }), pod('new', 'n1')], ['old'], []],
    ['with surge, extra pods beyond one old and one new go', surge, [pod('old', 'n1', { hash: 'h1' }), pod('old2', 'n1', { hash: 'h1', created: '2026-01-01T00:01:00Z' }), pod('new', 'n1', { ready: false })], ['old2'], []],
  ] as [string, DaemonSet, Pod[], string[], string[]][])('%s', (_name, ds, pods, deleted, created) => {
    const plan = run(ds, [node('n1')], pods);
    expect(plan.podsToDelete).toEqual(deleted);
    expect(plan.nodesNeedingDaemonPods).toEqual(created);
  });

  it('deletes all pods on a node that may not keep them', () => {
    const plan = run(daemonSet(), [node('n1', {}, [{ key: 'k', effect: 'NoExecute' }])], [pod('a', 'n1'), pod('b', 'n1', { deleting: true })]);
    expect(plan.podsToDelete).toEqual(['a']);
  });

  it('notes failed pods and backs off on the next failure', () => {
    const ds = daemonSet();
    const first = run(ds, [node('n1')], [pod('a', 'n1', { phase: 'Failed' })]);
    expect(first.failedPods).toEqual([{ pod: 'a', node: 'n1' }]);
    const nodeToDaemonPods = new Map([['n1', [pod('b', 'n1', { phase: 'Failed' })]]]);
    const second = manage({ ds, nodes: [node('n1')], nodeToDaemonPods, hash: 'h2', now: now + 400, failedPodsBackoff: first.failedPodsBackoff });
    expect(second.podsToDelete).toEqual([]);
    expect(second.requeueAfterMs).toBe(600);
  });
});
