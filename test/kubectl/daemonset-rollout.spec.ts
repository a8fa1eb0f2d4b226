// A DaemonSet on 5 simulated nodes rolled from one template to another with maxSurge 1, then
// with maxUnavailable 2, watching every pod change to check that the surge and unavailability
// limits are never exceeded.
import { KubeObject } from '@plinth/api';
import { ApiClient, Informer } from '@plinth/client';
import { realClock } from '@plinth/machinery';
import { adminClient, kubectl, PlinthProcess, startPlinth } from '@plinth/testing-server';
import { eventually } from '@plinth/testing';

const manifest = (image: string, strategy: string) => `
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: fleet}
spec:
  selector: {matchLabels: {app: fleet}}
  updateStrategy: {type: RollingUpdate, rollingUpdate: ${strategy}}
  template:
    metadata:
      labels: {app: fleet}
      annotations: {sim.platform.io/ready-seconds: "1"}
    spec:
      containers: [{name: agent, image: ${image}}]
`;

interface Snapshot {
  total: number;
  nodesWithoutReadyPod: number;
  updated: number;
}

describe('DaemonSet rolling updates on 5 nodes', () => {
  let plinth: PlinthProcess;
  let client: ApiClient;
  let informer: Informer;
  const snapshots: Snapshot[] = [];
  let image = '';
  const k = (args: string[], input?: string) => kubectl(plinth.kubeconfig, args, { input });

  const ready = (pod: KubeObject) => ((pod.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
  const nodeOf = (pod: KubeObject) => (pod.spec as { nodeName?: string }).nodeName ?? '';
  const imageOf = (pod: KubeObject) => (pod.spec as { containers: { image: string }[] }).containers[0].image;

  function record(): void {
    const pods = informer.list().filter((p) => p.metadata.labels?.app === 'fleet' && !p.metadata.deletionTimestamp);
    const readyNodes = new Set(pods.filter(ready).map(nodeOf));
    snapshots.push({ total: pods.length, nodesWithoutReadyPod: 5 - readyNodes.size, updated: pods.filter((p) => imageOf(p) === image && ready(p)).length });
  }

  async function rollTo(next: string, strategy: string): Promise<Snapshot[]> {
    snapshots.length = 0;
    image = next;
    await k(['apply', '-f', '-'], manifest(next, strategy));
    await eventually(
      () => {
        record();
        const last = snapshots[snapshots.length - 1];
        return last?.updated === 5 && last.total === 5;
      },
      { what: () => `the rollout to ${next} (last: ${JSON.stringify(snapshots.slice(-3))})`, timeoutMs: 60_000, intervalMs: 100 },
    );
    return [...snapshots];
  }

  beforeAll(async () => {
    plinth = await startPlinth(['--simulated-nodes', '5']);
    client = adminClient(plinth);
    informer = new Informer(client, '/api/v1/namespaces/default/pods', realClock);
    informer.addHandlers({ onAdd: record, onUpdate: record, onDelete: record });
    informer.start();
    await informer.hasSynced();
  }, 60000);

  afterAll(async () => {
    informer?.stop();
    client?.close();
    await plinth?.stop();
  });

  it('surges by at most one pod and keeps every node served', async () => {
    await rollTo('fleet:v1', '{maxSurge: 1, maxUnavailable: 0}');
    const steps = await rollTo('fleet:v2', '{maxSurge: 1, maxUnavailable: 0}');
    expect(Math.max(...steps.map((s) => s.total))).toBe(6);
    expect(steps.every((s) => s.total <= 6)).toBe(true);
    expect(steps.every((s) => s.nodesWithoutReadyPod === 0)).toBe(true);
  }, 120000);

  it('takes at most two nodes out of service at a time with maxUnavailable 2', async () => {
    const steps = await rollTo('fleet:v3', '{maxSurge: 0, maxUnavailable: 2}');
    expect(steps.every((s) => s.total <= 5)).toBe(true);
    expect(steps.every((s) => s.nodesWithoutReadyPod <= 2)).toBe(true);
    expect(Math.max(...steps.map((s) => s.nodesWithoutReadyPod))).toBe(2);
  }, 120000);
});
