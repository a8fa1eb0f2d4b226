// The garbage collector and the TTL-after-finished controller in the all-in-one, through the
// HTTP API: background, foreground and orphan propagation, and TTL deletion.
import { KubeObject } from '@plinth/api';
import { ApiClient } from '@plinth/client';
import { adminClient, kubectl, PlinthProcess, startPlinth } from '@plinth/testing-server';
import { eventually, gone } from '@plinth/testing';

describe('garbage collection and TTL in the all-in-one', () => {
  let plinth: PlinthProcess;
  let client: ApiClient;
  const jobs = '/apis/batch/v1/namespaces/default/jobs';
  const pods = '/api/v1/namespaces/default/pods';

  beforeAll(async () => {
    plinth = await startPlinth(['--simulated-nodes', '0']);
    client = adminClient(plinth);
  }, 60000);

  afterAll(async () => {
    client?.close();
    await plinth?.stop();
  });

  const leases = '/apis/coordination.platform.io/v1/namespaces/default/leases';

  // ownerWithPods makes a Lease (which no controller manages) owning two pods.
  async function ownerWithPods(name: string): Promise<KubeObject> {
    const owner = await client.create<KubeObject>(leases, { metadata: { name }, spec: { holderIdentity: 'test' } });
    for (const i of [0, 1]) {
      await client.create(pods, {
        metadata: { name: `${name}-${i}`, ownerReferences: [{ apiVersion: 'coordination.platform.io/v1', kind: 'Lease', name, uid: owner.metadata.uid, blockOwnerDeletion: true }] },
        spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] },
      });
    }
    return owner;
  }

  const deleted = (path: string) => gone(() => client.get(path), { what: `${path} deleted` });

  it('deletes dependents after their owner is deleted in the background', async () => {
    await ownerWithPods('bg');
    await client.delete(`${leases}/bg`, { propagationPolicy: 'Background' });
    await deleted(`${pods}/bg-0`);
    await deleted(`${pods}/bg-1`);
  });

  it('deletes dependents first in the foreground, then the owner', async () => {
    await ownerWithPods('fg');
    const deleting = await client.delete<KubeObject>(`${leases}/fg`, { propagationPolicy: 'Foreground' });
    expect(deleting.metadata.finalizers).toEqual(['foregroundDeletion']);
    await deleted(`${pods}/fg-0`);
    await deleted(`${leases}/fg`);
  });

  // A dependent without dependents of its own is deleted in the background: it never carries a
  // foregroundDeletion finalizer, only its own, which holds the owner until it is taken off.
  it('deletes a blocking dependent in the background and holds the owner until the dependent goes', async () => {
    const owner = await client.create<KubeObject>(leases, { metadata: { name: 'hold-owner' } });
    const dependent = await client.create<KubeObject>(leases, {
      metadata: { name: 'hold-dep', finalizers: ['example.com/hold'], ownerReferences: [{ apiVersion: 'coordination.platform.io/v1', kind: 'Lease', name: 'hold-owner', uid: owner.metadata.uid ?? '', blockOwnerDeletion: true }] },
    });
    const seen: { type: string; finalizers: string[] }[] = [];
    const watch = client.watch(leases, { resourceVersion: dependent.metadata.resourceVersion ?? '', fieldSelector: 'metadata.name=hold-dep' }, (event) => {
      seen.push({ type: event.type, finalizers: (event.object as KubeObject).metadata.finalizers ?? [] });
    });
    try {
      await client.delete(`${leases}/hold-owner`, { propagationPolicy: 'Foreground' });
      const deleting = await eventually(() => client.get<KubeObject>(`${leases}/hold-dep`), { until: (d) => Boolean(d.metadata.deletionTimestamp), what: 'the dependent marked for deletion' });
      expect(deleting.metadata.finalizers).toEqual(['example.com/hold']);
      expect((await client.get<KubeObject>(`${leases}/hold-owner`)).metadata.finalizers).toEqual(['foregroundDeletion']);
      await client.patch(`${leases}/hold-dep`, 'merge', { metadata: { finalizers: null } });
      await deleted(`${leases}/hold-owner`);
      await eventually(() => seen.some((e) => e.type === 'DELETED'), { what: 'the watch to see the dependent go' });
      expect(seen.filter((e) => e.finalizers.includes('foregroundDeletion'))).toEqual([]);
    } finally {
      watch.close();
    }
  });

  it('orphans dependents with the orphan policy', async () => {
    await ownerWithPods('or');
    await client.delete(`${leases}/or`, { propagationPolicy: 'Orphan' });
    await deleted(`${leases}/or`);
    const pod = await client.get<KubeObject>(`${pods}/or-0`);
    expect(pod.metadata.ownerReferences).toBeUndefined();
  });

  it('deletes a finished Job after ttlSecondsAfterFinished', async () => {
    const job = await client.create<KubeObject>(jobs, {
      metadata: { name: 'ttl' },
      spec: { suspend: true, ttlSecondsAfterFinished: 0, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
    });
    // Unconditional (no resourceVersion): the Job controller may write the status meanwhile.
    const { resourceVersion: _rv, ...metadata } = job.metadata;
    await client.update(`${jobs}/ttl/status`, { ...job, metadata, status: { conditions: [{ type: 'Complete', status: 'True', lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }] } });
    await deleted(`${jobs}/ttl`);
  });

  // attemptToDeleteAdds reads how many keys the garbage collector's queue has taken.
  async function attemptToDeleteAdds(): Promise<number> {
    const res = await kubectl(plinth.kubeconfig, ['get', '--raw', '/metrics']);
    const match = /^workqueue_adds_total\{name="garbage_collector_attempt_to_delete"\} (\d+)$/m.exec(res.stdout);
    if (!match) throw new Error(`no garbage collector queue in /metrics: ${res.stderr}`);
    return Number(match[1]);
  }

  it('queues an owner and its dependent, not the objects that have no owner', async () => {
    const before = await attemptToDeleteAdds();
    for (let i = 0; i < 20; i++) await client.create(leases, { metadata: { name: `ownerless-${i}` }, spec: { holderIdentity: 'test' } });
    // A dependent created after them, on the same informer: once its two keys (its owner's and
    // its own) are queued, the twenty before it have been observed too.
    const owner = await client.create<KubeObject>(leases, { metadata: { name: 'marker-owner' }, spec: { holderIdentity: 'test' } });
    await client.create(leases, {
      metadata: { name: 'marker', ownerReferences: [{ apiVersion: 'coordination.platform.io/v1', kind: 'Lease', name: 'marker-owner', uid: owner.metadata.uid }] },
      spec: { holderIdentity: 'test' },
    });
    const after = await eventually(async () => {
      const adds = await attemptToDeleteAdds();
      return adds >= before + 2 && adds;
    });
    expect(after - before).toBeLessThan(20);
  });
});
