import { KubeObject } from '@plinth/api';
import { FakeClock } from '@plinth/testing';
import { ApiClient, WatchStream } from './api-client';
import { Informer } from './informer';
import { resyncPeriod } from './resync';

// listingClient lists the given objects and then holds a watch open until it is closed.
function listingClient(items: KubeObject[]): ApiClient {
  const client = {
    list: async () => ({ apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '10' }, items }),
    watch: (): WatchStream => {
      let close = () => undefined as void;
      const done = new Promise<void>((resolve) => (close = resolve));
      return { done, close };
    },
  };
  return client as unknown as ApiClient;
}

describe('resync', () => {
  it('draws periods between MinResyncPeriod and twice it', () => {
    const twelveHours = 12 * 3600 * 1000;
    expect(resyncPeriod(twelveHours, () => 0)()).toBe(twelveHours);
    expect(resyncPeriod(twelveHours, () => 0.5)()).toBe(18 * 3600 * 1000);
    const periods = Array.from({ length: 50 }, resyncPeriod(1000));
    for (const p of periods) expect(p >= 1000 && p < 2000).toBe(true);
  });

  it('re-delivers every cached object as an update each period, and stops with the informer', async () => {
    const clock = new FakeClock();
    const objects: KubeObject[] = [{ metadata: { name: 'a', namespace: 'n', resourceVersion: '3' } }, { metadata: { name: 'b', namespace: 'n', resourceVersion: '4' } }];
    const informer = new Informer(listingClient(objects), '/api/v1/pods', clock, {}, undefined, 1500);
    const updates: string[] = [];
    informer.addHandlers({ onUpdate: (o, old) => updates.push(`${o.metadata.name}:${o === old}`) });
    informer.start();
    await informer.hasSynced();
    clock.advance(1499);
    expect(updates).toEqual([]);
    clock.advance(1);
    expect(updates).toEqual(['a:true', 'b:true']);
    clock.advance(1500);
    expect(updates).toHaveLength(4);
    informer.stop();
    clock.advance(3000);
    expect(updates).toHaveLength(4);
  });

  it('never resyncs without a period', async () => {
    const clock = new FakeClock();
    const informer = new Informer(listingClient([{ metadata: { name: 'a', resourceVersion: '1' } }]), '/api/v1/nodes', clock);
    const updates: string[] = [];
    informer.addHandlers({ onUpdate: (o) => updates.push(o.metadata.name ?? '') });
    informer.start();
    await informer.hasSynced();
    clock.advance(365 * 24 * 3600 * 1000);
    expect(updates).toEqual([]);
    informer.stop();
  });
});
