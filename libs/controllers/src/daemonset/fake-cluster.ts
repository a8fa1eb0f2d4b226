// FakeCluster is a test double for the specs: it runs syncDaemonSet against in-memory nodes,
// pods and revisions, carries the plan out at once, and plays the scheduler and kubelet
// (bind by the node affinity, then Ready). Not exported from the library.
import { rfc3339 } from '@plinth/machinery';
import { BackoffEntry } from './failed-pod-backoff';
import { syncDaemonSet, DaemonSetSyncPlan } from './daemonset-sync';
import { targetNodeName } from './node-pods';
import { isPodAvailable } from './pod-availability';
import { ControllerRevision, DaemonSet, Node, Pod } from '@plinth/api';

export class FakeCluster {
  now = Date.parse('2026-01-01T00:00:00Z');
  pods: Pod[] = [];
  revisions: ControllerRevision[] = [];
  backoff = new Map<string, BackoffEntry>();
  private seq = 0;

  constructor(
    public ds: DaemonSet,
    public nodes: Node[],
  ) {}

  sync(): DaemonSetSyncPlan {
    const plan = syncDaemonSet({ daemonSet: this.ds, nodes: this.nodes, pods: this.pods, revisions: this.revisions, now: this.now, failedPodsBackoff: this.backoff });
    const removed = new Set([...plan.revisionsToDelete, ...plan.revisionsToUpdate.map((r) => r.metadata.name)]);
    this.revisions = [...this.revisions.filter((r) => !removed.has(r.metadata.name ?? '')), ...plan.revisionsToUpdate, ...plan.revisionsToCreate];
    const deleted = new Set(plan.podsToDelete);
    this.pods = this.pods.filter((p) => !deleted.has(p.metadata.name ?? ''));
    for (const { pod } of plan.podsToCreate) {
      const name = `${pod.metadata.generateName}${++this.seq}`;
      this.pods.push({ ...pod, metadata: { ...pod.metadata, name, uid: `pod-${this.seq}`, creationTimestamp: this.iso() }, status: { phase: 'Pending' } });
    }
    for (const [key, entry] of plan.failedPodsBackoff) this.backoff.set(key, entry);
    if (plan.status) this.ds = { ...this.ds, status: plan.status };
    return plan;
  }

  // kubelet binds every pending pod to its node and makes it Ready now.
  kubelet(): void {
    for (const pod of this.pods) {
      if (pod.status?.phase !== 'Pending') continue;
      pod.spec = { ...pod.spec, nodeName: targetNodeName(pod) };
      pod.status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: this.iso() }] };
    }
  }

  tick(ms: number): void {
    this.now += ms;
  }

  setTemplate(change: (ds: DaemonSet) => void): void {
    const ds = structuredClone(this.ds);
    change(ds);
    ds.metadata.generation = (ds.metadata.generation ?? 1) + 1;
    this.ds = ds;
  }

  podsOn(node: string): Pod[] {
    return this.pods.filter((p) => targetNodeName(p) === node);
  }

  availableOn(node: string): Pod[] {
    return this.podsOn(node).filter((p) => isPodAvailable(p, this.ds.spec?.minReadySeconds ?? 0, this.now));
  }

  private iso(): string {
    return rfc3339(this.now);
  }
}

export function daemonSet(name = 'agent', spec: Partial<DaemonSet['spec']> = {}): DaemonSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: 'default', uid: `${name}-uid`, generation: 1 },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'agent:1' }] } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      revisionHistoryLimit: 10,
      ...spec,
    },
  };
}

export function node(name: string, labels: Record<string, string> = {}, taints: { key: string; value?: string; effect: string }[] = []): Node {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, labels }, spec: { taints } };
}

export function setImage(image: string): (ds: DaemonSet) => void {
  return (ds) => {
    const [container] = ds.spec?.template?.spec?.containers ?? [];
    container.image = image;
  };
}
