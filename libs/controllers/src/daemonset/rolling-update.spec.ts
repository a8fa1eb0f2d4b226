import { daemonSet, node } from './fake-cluster';
import { rollingUpdate, surgeCount, unavailableCount, updatedDesiredNodeCounts } from './rolling-update';
import { DaemonSet, IntOrString, Pod } from '@plinth/api';

const now = Date.parse('2026-01-01T00:10:00Z');

// pod is a daemon pod on node, 'new' or 'old', available or not.
function pod(name: string, nodeName: string, revision: 'new' | 'old', available: boolean): Pod {
  return {
    metadata: { name, labels: { app: 'agent', 'controller-revision-hash': revision === 'new' ? 'h2' : 'h1' }, creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { nodeName },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: available ? 'True' : 'False', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  };
}

function withStrategy(maxSurge: IntOrString, maxUnavailable: IntOrString): DaemonSet {
  return daemonSet('agent', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable } } });
}

const nodes = ['n1', 'n2', 'n3', 'n4', 'n5'].map((n) => node(n));

function group(pods: Pod[]): Map<string, Pod[]> {
  const map = new Map<string, Pod[]>();
  for (const p of pods) map.set(p.spec!.nodeName!, [...(map.get(p.spec!.nodeName!) ?? []), p]);
  return map;
}

describe('surge and unavailable counts', () => {
  it.each([
    [0, 1, 10, 0, 1],
    ['10%', 0, 5, 1, 0],
    ['25%', '25%', 10, 3, 3],
    [0, '10%', 5, 0, 1],
    [0, 0, 5, 0, 1], // impossible configuration: maxUnavailable falls back to 1
  ] as [IntOrString, IntOrString, number, number, number][])('maxSurge %p maxUnavailable %p on %p nodes', (surge, unavailable, count, wantSurge, wantUnavailable) => {
    const ds = withStrategy(surge, unavailable);
    const many = Array.from({ length: count }, (_, i) => node(`n${i}`));
    const counts = updatedDesiredNodeCounts({ ds, nodes: many, nodeToDaemonPods: new Map(), hash: 'h2', now });
    expect([counts.maxSurge, counts.maxUnavailable, counts.desired]).toEqual([wantSurge, wantUnavailable, count]);
  });

  it('is 0 for OnDelete', () => {
    const ds = daemonSet('agent', { updateStrategy: { type: 'OnDelete' } });
    expect([surgeCount(ds, 5), unavailableCount(ds, 5)]).toEqual([0, 0]);
  });
});

describe('rollingUpdate without surge', () => {
  it.each([
    ['all old and available: delete up to maxUnavailable', 2, [pod('a', 'n1', 'old', true), pod('b', 'n2', 'old', true), pod('c', 'n3', 'old', true), pod('d', 'n4', 'old', true), pod('e', 'n5', 'old', true)], ['a', 'b']],
    ['an unavailable new pod counts against the budget', 2, [pod('a', 'n1', 'new', false), pod('b', 'n2', 'old', true), pod('c', 'n3', 'old', true), pod('d', 'n4', 'old', true), pod('e', 'n5', 'old', true)], ['b']],
    ['a node without a pod counts against the budget', 2, [pod('b', 'n2', 'old', true), pod('c', 'n3', 'old', true), pod('d', 'n4', 'old', true), pod('e', 'n5', 'old', true)], ['b']],
    ['unavailable old pods are always replaced', 1, [pod('a', 'n1', 'new', false), pod('b', 'n2', 'old', false), pod('c', 'n3', 'old', false), pod('d', 'n4', 'old', true), pod('e', 'n5', 'old', true)], ['b', 'c']],
    ['done', 1, ['n1', 'n2', 'n3', 'n4', 'n5'].map((n) => pod(n, n, 'new', true)), []],
  ] as [string, number, Pod[], string[]][])('%s', (_name, maxUnavailable, pods, deleted) => {
    const plan = rollingUpdate({ ds: withStrategy(0, maxUnavailable), nodes, nodeToDaemonPods: group(pods), hash: 'h2', now });
    expect(plan.podsToDelete).toEqual(deleted);
    expect(plan.nodesNeedingDaemonPods).toEqual([]);
  });
});

describe('rollingUpdate with surge', () => {
  it.each([
    ['surge onto one node with an available old pod', 1, [pod('a', 'n1', 'old', true), pod('b', 'n2', 'old', true)], ['n1'], []],
    ['an unavailable old pod is replaced at once, beyond the surge', 1, [pod('a', 'n1', 'old', true), pod('b', 'n2', 'old', false), pod('c', 'n3', 'old', false)], ['n2', 'n3', 'n1'], []],
    ['a surging new pod not yet available uses the budget', 1, [pod('a', 'n1', 'old', true), pod('a2', 'n1', 'new', false), pod('b', 'n2', 'old', true)], [], []],
    ['an available new pod retires the old one', 1, [pod('a', 'n1', 'old', true), pod('a2', 'n1', 'new', true), pod('b', 'n2', 'old', true)], ['n2'], ['a']],
    ['surge 2', 2, [pod('a', 'n1', 'old', true), pod('b', 'n2', 'old', true), pod('c', 'n3', 'old', true)], ['n1', 'n2'], []],
  ] as [string, number, Pod[], string[], string[]][])('%s', (_name, maxSurge, pods, created, deleted) => {
    const plan = rollingUpdate({ ds: withStrategy(maxSurge, 0), nodes, nodeToDaemonPods: group(pods), hash: 'h2', now });
    expect(plan.nodesNeedingDaemonPods).toEqual(created);
    expect(plan.podsToDelete).toEqual(deleted);
  });

  it('keeps an old pod on a node that should no longer run it until the others are available', () => {
    const ds = withStrategy(1, 0);
    ds.spec!.template!.spec! = { ...ds.spec!.template!.spec!, nodeSelector: { pool: 'b' } };
    const pools = [node('n1', { pool: 'a' }), node('n2', { pool: 'b' })];
    const waiting = rollingUpdate({ ds, nodes: pools, nodeToDaemonPods: group([pod('a', 'n1', 'old', true), pod('b', 'n2', 'new', false)]), hash: 'h2', now });
    expect(waiting.podsToDelete).toEqual([]);
    const ready = rollingUpdate({ ds, nodes: pools, nodeToDaemonPods: group([pod('a', 'n1', 'old', true), pod('b', 'n2', 'new', true)]), hash: 'h2', now });
    expect(ready.podsToDelete).toEqual(['a']);
  });
});
