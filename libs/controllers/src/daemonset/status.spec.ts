import { daemonSetStatus, statusChanged } from './status';
import { DaemonSet, Node, Pod } from '@plinth/api';

const now = Date.parse('2026-01-01T00:01:00Z');

const ds: DaemonSet = {
  metadata: { name: 'ds', uid: 'u', generation: 4 },
  spec: { selector: { matchLabels: { app: 'a' } }, template: { spec: { nodeSelector: { role: 'worker' } } }, minReadySeconds: 30 },
  status: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0, observedGeneration: 3, collisionCount: 1 },
};

const node = (name: string, role = 'worker'): Node => ({ metadata: { name, labels: { role } } });

function pod(name: string, hash: string, readySince?: string, created = '2026-01-01T00:00:00Z'): Pod {
  return {
    metadata: { name, creationTimestamp: created, labels: { app: 'a', 'controller-revision-hash': hash } },
    spec: { nodeName: 'x' },
    status: { phase: 'Running', conditions: readySince ? [{ type: 'Ready', status: 'True', lastTransitionTime: readySince }] : [] },
  };
}

describe('daemonSetStatus', () => {
  const nodes = [node('n1'), node('n2'), node('n3'), node('n4'), node('m1', 'master')];
  const nodeToDaemonPods = new Map<string, Pod[]>([
    ['n1', [pod('p1', 'new', '2026-01-01T00:00:00Z')]], // ready 60s: available
    ['n2', [pod('p2', 'old', '2026-01-01T00:00:50Z')]], // ready 10s: not yet available
    // the oldest pod counts: an old available one beside a new one
    ['n3', [pod('p3b', 'new', undefined, '2026-01-01T00:00:30Z'), pod('p3a', 'old', '2026-01-01T00:00:00Z')]],
    ['m1', [pod('pm', 'new', '2026-01-01T00:00:00Z')]],
  ]);

  it('counts per node', () => {
    const status = daemonSetStatus({ ds, nodes, nodeToDaemonPods, hash: 'new', now, updateObservedGeneration: true, collisionCount: 1 });
    expect(status).toEqual({
      desiredNumberScheduled: 4,
      currentNumberScheduled: 3,
      numberMisscheduled: 1,
      numberReady: 3,
      numberAvailable: 2,
      numberUnavailable: 2,
      updatedNumberScheduled: 1,
      observedGeneration: 4,
      collisionCount: 1,
    });
  });

  it('keeps observedGeneration while expectations are pending', () => {
    const status = daemonSetStatus({ ds, nodes, nodeToDaemonPods, hash: 'new', now, updateObservedGeneration: false });
    expect(status.observedGeneration).toBe(3);
  });

  it('statusChanged compares the counters', () => {
    const status = daemonSetStatus({ ds, nodes, nodeToDaemonPods, hash: 'new', now, updateObservedGeneration: true });
    expect(statusChanged(ds.status, status)).toBe(true);
    expect(statusChanged(status, { ...status })).toBe(false);
  });
});
