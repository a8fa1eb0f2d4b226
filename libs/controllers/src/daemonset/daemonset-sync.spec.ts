import { daemonSet, FakeCluster, node, setImage } from './fake-cluster';
import { syncDaemonSet } from './daemonset-sync';
import { DaemonSet } from '@plinth/api';

const five = () => ['n1', 'n2', 'n3', 'n4', 'n5'].map((n) => node(n));

// settle syncs and lets the kubelet run until the plan is empty.
function settle(cluster: FakeCluster): void {
  for (let i = 0; i < 20; i++) {
    const plan = cluster.sync();
    cluster.kubelet();
    cluster.tick(1000);
    if (plan.podsToCreate.length + plan.podsToDelete.length === 0) return;
  }
  throw new Error('did not settle');
}

const hashes = (cluster: FakeCluster) => cluster.pods.map((p) => p.metadata.labels?.['controller-revision-hash']);

describe('syncDaemonSet: placement', () => {
  it('creates one pod per eligible node, honouring nodeSelector and taints', () => {
    const ds = daemonSet('agent', {
      template: { metadata: { labels: { app: 'agent' } }, spec: { nodeSelector: { os: 'linux' }, tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'infra', effect: 'NoSchedule' }] } },
    });
    const nodes = [
      node('plain', { os: 'linux' }),
      node('windows', { os: 'windows' }),
      node('tainted', { os: 'linux' }, [{ key: 'gpu', effect: 'NoSchedule' }]),
      node('tolerated', { os: 'linux' }, [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }]),
      node('not-ready', { os: 'linux' }, [{ key: 'node.platform.io/not-ready', effect: 'NoExecute' }]),
    ];
    const plan = syncDaemonSet({ daemonSet: ds, nodes, pods: [], revisions: [], now: 0 });
    expect(plan.podsToCreate.map((c) => c.nodeName)).toEqual(['plain', 'tolerated', 'not-ready']);
    expect(plan.revisionsToCreate).toHaveLength(1);
    const pod = plan.podsToCreate[0].pod;
    expect(pod.metadata.labels).toEqual({ app: 'agent', 'controller-revision-hash': plan.hash });
    expect(pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms).toEqual([
      { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['plain'] }] },
    ]);
    expect(plan.status).toMatchObject({ desiredNumberScheduled: 3, currentNumberScheduled: 0, numberUnavailable: 3, observedGeneration: 1 });
  });

  it('follows nodes being added, relabelled and removed', () => {
    const cluster = new FakeCluster(daemonSet('agent', { template: { metadata: { labels: { app: 'agent' } }, spec: { nodeSelector: { role: 'worker' } } } }), [
      node('n1', { role: 'worker' }),
      node('n2', { role: 'worker' }),
    ]);
    settle(cluster);
    expect(cluster.pods.map((p) => p.spec?.nodeName)).toEqual(['n1', 'n2']);

    cluster.nodes.push(node('n3', { role: 'worker' }));
    expect(cluster.sync().podsToCreate.map((c) => c.nodeName)).toEqual(['n3']);
    settle(cluster);

    cluster.nodes[0] = node('n1', { role: 'control-plane' });
    const onN1 = cluster.podsOn('n1')[0].metadata.name;
    expect(cluster.sync().podsToDelete).toEqual([onN1]);
    settle(cluster);
    expect(cluster.ds.status).toMatchObject({ desiredNumberScheduled: 2, currentNumberScheduled: 2, numberMisscheduled: 0, numberAvailable: 2 });

    // a node removed: its pod no longer counts; an unbound pod aimed at it is deleted
    cluster.nodes = cluster.nodes.filter((n) => n.metadata.name !== 'n3');
    const plan = cluster.sync();
    expect(plan.podsToDelete).toEqual([]);
    expect(plan.status).toMatchObject({ desiredNumberScheduled: 1, currentNumberScheduled: 1 });
    cluster.pods.push({ ...structuredClone(cluster.podsOn('n2')[0]), metadata: { ...cluster.podsOn('n2')[0].metadata, name: 'unbound' }, spec: { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['gone'] }] }] } } } } });
    expect(cluster.sync().podsToDelete).toEqual(['unbound']);
  });

  it('a NoSchedule taint keeps running pods, a NoExecute taint evicts them', () => {
    const cluster = new FakeCluster(daemonSet(), [node('n1')]);
    settle(cluster);
    cluster.nodes = [node('n1', {}, [{ key: 'maintenance', effect: 'NoSchedule' }])];
    let plan = cluster.sync();
    expect(plan.podsToDelete).toEqual([]);
    expect(plan.status).toMatchObject({ desiredNumberScheduled: 0, numberMisscheduled: 1 });
    cluster.nodes = [node('n1', {}, [{ key: 'maintenance', effect: 'NoExecute' }])];
    plan = cluster.sync();
    expect(plan.podsToDelete).toHaveLength(1);
  });

  it('deletes duplicates on a node, keeping the oldest', () => {
    const cluster = new FakeCluster(daemonSet(), [node('n1')]);
    settle(cluster);
    const first = cluster.pods[0];
    cluster.pods.push({ ...structuredClone(first), metadata: { ...first.metadata, name: 'agent-later', creationTimestamp: '2026-01-02T00:00:00Z' } });
    expect(cluster.sync().podsToDelete).toEqual(['agent-later']);
  });

  it('deletes a failed pod with back-off, then recreates it', () => {
    const cluster = new FakeCluster(daemonSet(), [node('n1')]);
    settle(cluster);
    const failPod = () => (cluster.pods[0].status = { phase: 'Failed' });
    failPod();
    let plan = cluster.sync();
    expect(plan.failedPods).toEqual([{ pod: expect.any(String), node: 'n1' }]);
    expect([...plan.failedPodsBackoff.values()]).toEqual([{ delayMs: 1000, lastUpdateMs: cluster.now }]);
    expect(cluster.sync().podsToCreate.map((c) => c.nodeName)).toEqual(['n1']);
    cluster.kubelet();
    failPod();
    plan = cluster.sync();
    expect(plan.podsToDelete).toEqual([]);
    expect(plan.requeueAfterMs).toBe(1000);
    cluster.tick(1000);
    plan = cluster.sync();
    expect(plan.podsToDelete).toHaveLength(1);
    expect([...plan.failedPodsBackoff.values()][0].delayMs).toBe(2000);
  });

  it('does nothing for a DaemonSet being deleted or selecting everything', () => {
    const deleting = daemonSet();
    deleting.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
    const everything = daemonSet('all', { selector: {} });
    for (const ds of [deleting, everything]) {
      const plan = syncDaemonSet({ daemonSet: ds, nodes: five(), pods: [], revisions: [], now: 0 });
      expect([plan.podsToCreate.length, plan.revisionsToCreate.length, plan.status]).toEqual([0, 0, undefined]);
    }
  });

  it('only recomputes status while expectations are pending', () => {
    const cluster = new FakeCluster(daemonSet(), five());
    const plan = syncDaemonSet({ daemonSet: { ...cluster.ds, metadata: { ...cluster.ds.metadata, generation: 2 } }, nodes: five(), pods: [], revisions: [], now: 0, expectationsSatisfied: false });
    expect(plan.podsToCreate).toEqual([]);
    expect(plan.revisionsToCreate).toHaveLength(1);
    expect(plan.status?.observedGeneration).toBeUndefined();
  });
});

describe('syncDaemonSet: rolling update on 5 nodes', () => {
  function rollout(ds: DaemonSet, check: (cluster: FakeCluster) => void, tickMs = 1000): { cluster: FakeCluster; steps: number } {
    const cluster = new FakeCluster(ds, five());
    settle(cluster);
    const oldHash = hashes(cluster)[0];
    cluster.setTemplate(setImage('agent:2'));
    for (let steps = 1; steps <= 60; steps++) {
      const plan = cluster.sync();
      check(cluster);
      cluster.kubelet();
      cluster.tick(tickMs);
      check(cluster);
      if (plan.podsToCreate.length + plan.podsToDelete.length === 0 && cluster.pods.length === 5 && !hashes(cluster).includes(oldHash)) {
        expect(cluster.ds.status).toMatchObject({ desiredNumberScheduled: 5, updatedNumberScheduled: 5, numberAvailable: 5, observedGeneration: 2 });
        expect(cluster.ds.status).not.toHaveProperty('numberUnavailable');
        return { cluster, steps };
      }
    }
    throw new Error('rollout did not finish');
  }

  it('maxSurge 1: at most one extra pod, and every node keeps an available pod', () => {
    let maxPods = 0;
    const { steps } = rollout(daemonSet('agent', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } }), (cluster) => {
      maxPods = Math.max(maxPods, cluster.pods.length);
      expect(cluster.pods.length).toBeLessThanOrEqual(6);
      for (const n of cluster.nodes) expect(cluster.availableOn(n.metadata.name!).length).toBeGreaterThanOrEqual(1);
    });
    expect(maxPods).toBe(6);
    expect(steps).toBeGreaterThanOrEqual(10);
  });

  it('maxSurge 1 with minReadySeconds waits for availability and asks to be requeued', () => {
    const ds = daemonSet('agent', { minReadySeconds: 5, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '20%', maxUnavailable: 0 } } });
    const cluster = new FakeCluster(ds, five());
    for (let i = 0; i < 10; i++) {
      cluster.sync();
      cluster.kubelet();
      cluster.tick(6000);
    }
    cluster.setTemplate(setImage('agent:2'));
    expect(cluster.sync().podsToCreate).toHaveLength(1);
    cluster.kubelet();
    cluster.tick(2000);
    const waiting = cluster.sync();
    expect(waiting.podsToDelete).toEqual([]);
    expect(waiting.requeueAfterMs).toBe(3001);
    cluster.tick(3001);
    expect(cluster.sync().podsToDelete).toHaveLength(1);
  });

  it('maxUnavailable 2: at most two nodes without an available pod', () => {
    let maxDown = 0;
    rollout(daemonSet('agent', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 2 } } }), (cluster) => {
      const down = cluster.nodes.filter((n) => cluster.availableOn(n.metadata.name!).length === 0).length;
      maxDown = Math.max(maxDown, down);
      expect(down).toBeLessThanOrEqual(2);
      expect(cluster.pods.length).toBeLessThanOrEqual(5);
    });
    expect(maxDown).toBe(2);
  });

  it('maxUnavailable 30% rounds up to 2', () => {
    let maxDown = 0;
    rollout(daemonSet('agent', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: '30%' } } }), (cluster) => {
      maxDown = Math.max(maxDown, cluster.nodes.filter((n) => cluster.availableOn(n.metadata.name!).length === 0).length);
    });
    expect(maxDown).toBe(2);
  });

  it('OnDelete replaces only the pods the user deleted', () => {
    const cluster = new FakeCluster(daemonSet('agent', { updateStrategy: { type: 'OnDelete' } }), five());
    settle(cluster);
    const oldHash = hashes(cluster)[0];
    cluster.setTemplate(setImage('agent:2'));
    settle(cluster);
    expect(hashes(cluster).every((h) => h === oldHash)).toBe(true);
    cluster.pods = cluster.pods.filter((p) => p.spec?.nodeName !== 'n3');
    settle(cluster);
    expect(cluster.podsOn('n3')[0].metadata.labels?.['controller-revision-hash']).not.toBe(oldHash);
    expect(cluster.ds.status).toMatchObject({ updatedNumberScheduled: 1, numberAvailable: 5 });
  });
});

describe('syncDaemonSet: revision history', () => {
  it('keeps revisionHistoryLimit old revisions besides the current one, and those live pods use', () => {
    const cluster = new FakeCluster(daemonSet('agent', { revisionHistoryLimit: 2, updateStrategy: { type: 'OnDelete' } }), [node('n1'), node('n2')]);
    settle(cluster);
    const first = cluster.revisions[0].metadata.name;
    // OnDelete keeps the first revision's pods alive through four updates
    for (const image of ['agent:2', 'agent:3', 'agent:4', 'agent:5']) {
      cluster.setTemplate(setImage(image));
      settle(cluster);
    }
    expect(cluster.revisions.map((r) => r.revision)).toEqual([1, 4, 5]);
    expect(cluster.revisions[0].metadata.name).toBe(first);
    // once no pod uses it, the first revision goes at the next trim
    cluster.pods = [];
    cluster.setTemplate(setImage('agent:6'));
    settle(cluster);
    expect(cluster.revisions.map((r) => r.revision)).toEqual([4, 5, 6]);
  });

  it('a rollback renumbers the existing revision instead of creating one', () => {
    const cluster = new FakeCluster(daemonSet(), [node('n1')]);
    settle(cluster);
    cluster.setTemplate(setImage('agent:2'));
    settle(cluster);
    cluster.setTemplate(setImage('agent:1'));
    const plan = cluster.sync();
    expect(plan.revisionsToCreate).toEqual([]);
    expect(plan.revisionsToUpdate.map((r) => r.revision)).toEqual([3]);
    expect(plan.hash).toBe(cluster.revisions.find((r) => r.revision === 3)?.metadata.labels?.['controller-revision-hash']);
  });
});
