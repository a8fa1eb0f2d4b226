// The Job controller syncs a Job at once when its spec changes (a new generation) and a second
// later when a write leaves the generation (its own status writes, labels, another writer's
// status), as kube-controller-manager's syncJobBatchPeriod does: the sync that its own status
// write causes then finds the pods it just created in the pod informer, instead of counting
// them not active. The controller runs on a FakeClock, so "a second later" is the test's to give.
import { KubeObject } from '@plinth/api';
import { ApiClient } from '@plinth/client';
import { JobController, statusSyncBatchMs } from '@plinth/controller-manager';
import { TestApiServer, startTestApiServer, testTokens } from '@plinth/testing-server';
import { eventually, FakeClock } from '@plinth/testing';

const jobs = '/apis/batch/v1/namespaces/default/jobs';

interface Condition {
  type: string;
  status: string;
}

const suspended = (job: KubeObject) => ((job.status as { conditions?: Condition[] } | undefined)?.conditions ?? []).some((c) => c.type === 'Suspended' && c.status === 'True');

describe('Job syncs after writes that leave the generation', () => {
  const clock = new FakeClock(Date.now());
  let server: TestApiServer;
  let client: ApiClient;
  let controller: JobController;

  beforeAll(async () => {
    server = await startTestApiServer();
    client = new ApiClient({ server: server.url, caPem: '', token: testTokens.admin });
    controller = new JobController(client, clock);
    await controller.start();
  }, 60000);

  afterAll(async () => {
    await controller?.stop();
    client?.close();
    await server?.stop();
  });

  const read = (name: string) => client.get(`${jobs}/${name}`);

  // clearStatus takes the Suspended condition away, as another writer of the status might; a
  // sync of the Job writes it back.
  async function clearStatus(name: string): Promise<void> {
    const job = await read(name);
    await client.update(`${jobs}/${name}/status`, { ...job, status: {} });
  }

  // deferredSyncs waits until the controller has seen the write and put its sync off: a timer of
  // the batch period is pending on the clock.
  const deferredSync = (before: number) => eventually(() => clock.pendingTimers > before, { what: "the Job's sync put off by the batch period" });

  it("syncs a status another writer changed a second later, not at once", async () => {
    await client.create(jobs, { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'batched' }, spec: { suspend: true, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } });
    await eventually(async () => suspended(await read('batched')), { what: 'the new Job synced at once, Suspended' });
    // Its own status write is a write that leaves the generation: its sync is put off too.
    clock.advance(statusSyncBatchMs);
    const before = clock.pendingTimers;
    await clearStatus('batched');
    await deferredSync(before);
    expect(suspended(await read('batched'))).toBe(false);
    clock.advance(statusSyncBatchMs);
    await eventually(async () => suspended(await read('batched')), { what: 'the Job synced once the batch period passed' });
  }, 60000);

  it('syncs a spec change at once', async () => {
    await client.create(jobs, { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'at-once' }, spec: { suspend: true, parallelism: 1, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } });
    await eventually(async () => suspended(await read('at-once')), { what: 'the new Job synced at once, Suspended' });
    clock.advance(statusSyncBatchMs);
    const before = clock.pendingTimers;
    await clearStatus('at-once');
    await deferredSync(before);
    const job = await read('at-once');
    await client.update(`${jobs}/at-once`, { ...job, spec: { ...(job.spec as object), parallelism: 2 } });
    await eventually(async () => suspended(await read('at-once')), { what: 'the Job synced at once after its spec changed' });
    expect((await read('at-once')).metadata.generation).toBe(2);
  }, 60000);
});
