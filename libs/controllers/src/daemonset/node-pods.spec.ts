import { comparePods, findUpdatedPodsOnNode, nodesToDaemonPods, ownedPods, targetNodeName } from './node-pods';
import { DaemonSet, Pod } from '@plinth/api';

const ds: DaemonSet = {
  metadata: { name: 'ds', uid: 'u1', annotations: { 'deprecated.daemonset.template.generation': '2' } },
  spec: { selector: { matchLabels: { app: 'a' } }, template: {} },
};

function pod(name: string, opts: { node?: string; affinityNode?: string; labels?: Record<string, string>; owner?: string; created?: string; phase?: string; deleting?: boolean } = {}): Pod {
  return {
    metadata: {
      name,
      labels: opts.labels ?? { app: 'a' },
      creationTimestamp: opts.created ?? '2026-01-01T00:00:00Z',
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds', uid: opts.owner ?? 'u1', controller: true }],
      ...(opts.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: {
      nodeName: opts.node,
      affinity: opts.affinityNode
        ? { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [opts.affinityNode] }] }] } } }
        : undefined,
    },
    status: { phase: opts.phase ?? 'Running' },
  };
}

describe('node pods', () => {
  it('keeps owned pods that the selector matches', () => {
    const pods = [pod('a'), pod('b', { owner: 'other' }), pod('c', { labels: { app: 'x' } })];
    expect(ownedPods(ds, pods).map((p) => p.metadata.name)).toEqual(['a']);
  });

  it('finds the target node from nodeName or the metadata.name affinity', () => {
    expect(targetNodeName(pod('a', { node: 'n1', affinityNode: 'n2' }))).toBe('n1');
    expect(targetNodeName(pod('a', { affinityNode: 'n2' }))).toBe('n2');
    expect(targetNodeName(pod('a'))).toBeUndefined();
  });

  it('groups pods by node, leaving out deleted terminal pods', () => {
    const grouped = nodesToDaemonPods([pod('a', { node: 'n1' }), pod('b', { affinityNode: 'n1' }), pod('c', { node: 'n2', phase: 'Failed', deleting: true }), pod('d')]);
    expect([...grouped.entries()].map(([n, ps]) => [n, ps.map((p) => p.metadata.name)])).toEqual([['n1', ['a', 'b']]]);
  });

  it('orders scheduled pods first, then oldest, then by name', () => {
    const pods = [pod('z', { created: '2026-01-01T00:00:01Z', node: 'n' }), pod('y', { node: 'n' }), pod('x', { node: 'n' }), pod('w', { affinityNode: 'n' })];
    expect(pods.sort(comparePods).map((p) => p.metadata.name)).toEqual(['x', 'y', 'z', 'w']);
  });

  it.each([
    ['one new, one old', [pod('n', { labels: { 'controller-revision-hash': 'h2' } }), pod('o', { labels: { 'controller-revision-hash': 'h1' } })], 'n', 'o', true],
    ['template generation counts as new', [pod('n', { labels: { 'pod-template-generation': '2' } })], 'n', undefined, true],
    ['two old', [pod('o1'), pod('o2')], undefined, undefined, false],
    ['a deleting pod is ignored', [pod('o1'), pod('o2', { deleting: true })], undefined, 'o1', true],
  ])('findUpdatedPodsOnNode: %s', (_name, pods, newName, oldName, ok) => {
    const found = findUpdatedPodsOnNode(ds, pods, 'h2');
    expect([found.newPod?.metadata.name, found.oldPod?.metadata.name, found.ok]).toEqual([newName, oldName, ok]);
  });
});
