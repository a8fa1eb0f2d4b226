// The controllers and the node simulator act as their own service accounts in kube-system, as
// kube-controller-manager does with --use-service-account-credentials: RBAC judges each one by
// its system:controller:<name> role, and their writes are recorded under kube-controller-manager.
import { KubeObject } from '@plinth/api';
import { ApiClient } from '@plinth/client';
import { isStatusError } from '@plinth/machinery';
import { adminClient, PlinthProcess, startPlinth } from '@plinth/testing-server';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '@plinth/testing';

describe('controller identities in the all-in-one', () => {
  let plinth: PlinthProcess;
  let admin: ApiClient;
  const jobs = '/apis/batch/v1/namespaces/default/jobs';
  const pods = '/api/v1/namespaces/default/pods';
  const bindings = '/apis/rbac.authorization.platform.io/v1/clusterrolebindings';

  beforeAll(async () => {
    plinth = await startPlinth(['--simulated-nodes', '2']);
    admin = adminClient(plinth);
  }, 60000);

  afterAll(async () => {
    admin?.close();
    await plinth?.stop();
  });

  const existing = async (path: string) => {
    try {
      return await admin.get(path);
    } catch (err) {
      if (isStatusError(err) && err.code === 404) return null;
      throw err;
    }
  };

  const podsOf = async (job: string) => (await admin.list(pods, { labelSelector: `job-name=${job}` })).items;

  const jobSpec = (name: string) => ({
    metadata: { name },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
  });

  it('gives each controller a service account whose token authenticates as system:serviceaccount:kube-system:<name>', async () => {
    const ca = readFileSync(join(plinth.dataDir, 'pki', 'ca.crt'), 'utf8');
    for (const name of ['job-controller', 'daemon-set-controller', 'generic-garbage-collector', 'ttl-after-finished-controller', 'service-account-controller', 'node-simulator']) {
      await eventually(() => existing(`/api/v1/namespaces/kube-system/serviceaccounts/${name}`), { until: (sa) => sa !== null, what: `service account ${name}` });
      const issued = await admin.create<{ status: { token: string } }>(`/api/v1/namespaces/kube-system/serviceaccounts/${name}/token`, { apiVersion: 'authentication.platform.io/v1', kind: 'TokenRequest', spec: {} });
      const asController = new ApiClient({ server: plinth.url, caPem: ca, token: issued.status.token });
      try {
        const review = await asController.create<{ status: { userInfo: { username: string; groups: string[] } } }>('/apis/authentication.platform.io/v1/selfsubjectreviews', {
          apiVersion: 'authentication.platform.io/v1',
          kind: 'SelfSubjectReview',
        });
        expect(review.status.userInfo.username).toBe(`system:serviceaccount:kube-system:${name}`);
        expect(review.status.userInfo.groups).toEqual(expect.arrayContaining(['system:serviceaccounts', 'system:serviceaccounts:kube-system']));
      } finally {
        asController.close();
      }
    }
  }, 60000);

  it('runs the controller manager itself as system:kube-controller-manager, with no more than its role', async () => {
    const pki = (name: string) => readFileSync(join(plinth.dataDir, 'pki', name), 'utf8');
    const root = new ApiClient({ server: plinth.url, caPem: pki('ca.crt'), certPem: pki('controller-manager.crt'), keyPem: pki('controller-manager.key') });
    try {
      const review = await root.create<{ status: { userInfo: { username: string; groups: string[] } } }>('/apis/authentication.platform.io/v1/selfsubjectreviews', {
        apiVersion: 'authentication.platform.io/v1',
        kind: 'SelfSubjectReview',
      });
      expect(review.status.userInfo).toMatchObject({ username: 'system:kube-controller-manager', groups: ['system:authenticated'] });
      // It holds the leader Lease, and may list anything, but writes nothing of the controllers'.
      await eventually(() => existing('/apis/coordination.platform.io/v1/namespaces/kube-system/leases/kube-controller-manager'), { until: (lease) => lease !== null, what: 'the leader Lease' });
      expect((await root.list(pods)).kind).toBe('PodList');
      const refused = await root.create(pods, { metadata: { name: 'not-mine' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } }).catch((err: unknown) => err);
      expect(isStatusError(refused) && refused.code).toBe(403);
    } finally {
      root.close();
    }
  });

  it('records the pods a Job controller creates under the kube-controller-manager field manager', async () => {
    await admin.create(jobs, jobSpec('recorded'));
    const [pod] = await eventually(() => podsOf('recorded'), { until: (items) => items.length > 0, what: 'a pod of the Job' });
    expect((pod.metadata.managedFields ?? []).map((f) => f.manager)).toContain('kube-controller-manager');
    // The node simulator binds and runs it, as its own service account.
    await eventually(() => admin.get<KubeObject>(`/apis/batch/v1/namespaces/default/jobs/recorded`), { until: (job) => (job.status as { succeeded?: number } | undefined)?.succeeded === 1, what: 'the Job succeeding' });
    // Its status is the kubelet's, under the kubelet's field manager, as in a cluster.
    const [done] = await podsOf('recorded');
    const managers = (done.metadata.managedFields ?? []).map((f) => `${f.manager}/${f.operation}/${f.subresource ?? ''}`);
    expect(managers).toEqual(['kube-controller-manager/Update/', 'kubelet/Update/status']);
  }, 60000);

  it('stops only the Job controller when its ClusterRoleBinding is removed, and lets it work again once restored', async () => {
    const binding = await admin.get<KubeObject>(`${bindings}/system:controller:job-controller`);
    await admin.delete(`${bindings}/system:controller:job-controller`);
    try {
      await admin.create(jobs, jobSpec('forbidden'));
      // The Job controller's requests are refused as its own service account...
      await eventually(async () => plinth.output(), { until: (log) => log.includes('User "system:serviceaccount:kube-system:job-controller" cannot'), what: 'the Job controller being forbidden' });
      expect(await podsOf('forbidden')).toEqual([]);
      // ...while the other controllers keep working: the garbage collector deletes an orphan.
      const leases = '/apis/coordination.platform.io/v1/namespaces/default/leases';
      const owner = await admin.create<KubeObject>(leases, { metadata: { name: 'owner' }, spec: { holderIdentity: 'test' } });
      await admin.create(pods, {
        metadata: { name: 'dependent', ownerReferences: [{ apiVersion: 'coordination.platform.io/v1', kind: 'Lease', name: 'owner', uid: owner.metadata.uid }] },
        spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] },
      });
      await admin.delete(`${leases}/owner`);
      await eventually(() => existing(`${pods}/dependent`), { until: (pod) => pod === null, what: 'the garbage collector deleting the dependent' });
      expect(await podsOf('forbidden')).toEqual([]);
    } finally {
      await admin.create(bindings, { ...binding, metadata: { name: binding.metadata.name, labels: binding.metadata.labels, annotations: binding.metadata.annotations } });
    }
    // A change to the Job syncs it at once, rather than after its back-off.
    await admin.patch(`${jobs}/forbidden`, 'merge', { metadata: { annotations: { touched: 'true' } } });
    await eventually(() => admin.get<KubeObject>(`${jobs}/forbidden`), { until: (job) => (job.status as { succeeded?: number } | undefined)?.succeeded === 1, what: 'the Job succeeding once allowed', timeoutMs: 60000 });
  }, 120000);
});
