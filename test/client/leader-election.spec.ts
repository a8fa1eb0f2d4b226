// Leader election on a Lease through the API: one leader at a time, and a clean hand-over
// when the leader stops.
import { LeaderElector } from '@plinth/client';
import { realClock } from '@plinth/machinery';
import { adminClient, PlinthProcess, startPlinth } from '@plinth/testing-server';

describe('LeaderElector', () => {
  let plinth: PlinthProcess;

  beforeAll(async () => {
    plinth = await startPlinth(['--simulated-nodes', '0', '--controllers=-job,-daemonset,-ttl-after-finished,-garbagecollector,-namespace,-serviceaccount']);
  }, 60000);

  afterAll(() => plinth?.stop());

  it('keeps one leader and hands over when it stops', async () => {
    const client = adminClient(plinth);
    const events: string[] = [];
    const candidate = (identity: string) =>
      new LeaderElector(client, realClock, {
        namespace: 'kube-system',
        name: 'plinth-controller-manager',
        identity,
        leaseDurationMs: 3000,
        renewDeadlineMs: 2000,
        retryPeriodMs: 200,
        onStartedLeading: () => void events.push(`${identity} leads`),
        onStoppedLeading: () => void events.push(`${identity} stops`),
      });
    const a = candidate('a');
    const b = candidate('b');
    try {
      a.start();
      await waitFor(() => a.isLeader);
      b.start();
      await new Promise((r) => setTimeout(r, 800));
      expect(b.isLeader).toBe(false);
      await a.stop();
      await waitFor(() => b.isLeader);
      expect(events).toEqual(['a leads', 'a stops', 'b leads']);
      const lease = await client.get<{ spec: { holderIdentity: string; leaseTransitions: number } }>('/apis/coordination.platform.io/v1/namespaces/kube-system/leases/plinth-controller-manager');
      expect(lease.spec.holderIdentity).toBe('b');
      expect(lease.spec.leaseTransitions).toBe(1);
    } finally {
      await a.stop();
      await b.stop();
      client.close();
    }
  }, 30000);
});

async function waitFor(check: () => boolean, timeoutMs = 10000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition never held');
    await new Promise((r) => setTimeout(r, 50));
  }
}
