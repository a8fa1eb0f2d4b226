// Leader election on a Lease through the API: one leader at a time, and a clean hand-over
// when the leader stops.
import { LeaderElector } from '@plinth/client';
import { adminClient, PlinthProcess, startPlinth } from '@plinth/testing-server';
import { eventually, FakeClock } from '@plinth/testing';

describe('LeaderElector', () => {
  let plinth: PlinthProcess;

  beforeAll(async () => {
    plinth = await startPlinth(['--simulated-nodes', '0', '--controllers=-job,-daemonset,-ttl-after-finished,-garbagecollector,-namespace,-serviceaccount']);
  }, 60000);

  afterAll(() => plinth?.stop());

  it('keeps one leader and hands over when it stops', async () => {
    const client = adminClient(plinth);
    const events: string[] = [];
    // The candidates run on a fake clock, so that b's retries, while a renews, are counted
    // rather than slept through.
    const clock = new FakeClock(Date.now());
    const candidate = (identity: string) =>
      new LeaderElector(client, clock, {
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
      await eventually(() => a.isLeader, { timeoutMs: 10_000 });
      b.start();
      // Each round, both candidates try once (a renews, b finds the Lease held) and schedule
      // their next try; over ten rounds (2 s, within the 3 s lease) b never leads.
      for (let round = 0; round < 10; round++) {
        await eventually(() => clock.pendingTimers === 2, { what: 'both candidates waiting for their next try' });
        expect(b.isLeader).toBe(false);
        clock.advance(200);
      }
      await eventually(() => clock.pendingTimers === 2, { what: 'both candidates waiting for their next try' });
      expect(b.isLeader).toBe(false);
      await a.stop();
      clock.advance(200);
      await eventually(() => b.isLeader, { timeoutMs: 10_000 });
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
