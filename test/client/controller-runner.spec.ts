// ControllerRunner, the shell every controller runs in, against a real API server: the keys its
// informers' handlers enqueue reach the sync (those listed before it ran and those watched
// after), a failed sync is retried, and stop waits for the sync in flight.
import { KubeObject } from '@plinth/api';
import { ApiClient, objectKey, resourcePath } from '@plinth/client';
import { ControllerRunner, tolerating } from '@plinth/controller-manager';
import { isStatusError, realClock } from '@plinth/machinery';
import { startTestApiServer, TestApiServer, testTokens } from '@plinth/testing-server';

const accounts = resourcePath({ group: '', version: 'v1', resource: 'serviceaccounts' });
const inDefault = resourcePath({ group: '', version: 'v1', resource: 'serviceaccounts', namespace: 'default' });
const account = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: 'default' } });

// Arrivals hands out a promise per key that resolves when the sync first sees the key.
class Arrivals {
  private readonly waiting = new Map<string, () => void>();
  private readonly arrived = new Set<string>();

  seen(key: string): void {
    this.arrived.add(key);
    this.waiting.get(key)?.();
  }

  of(key: string): Promise<void> {
    if (this.arrived.has(key)) return Promise.resolve();
    return new Promise((resolve) => this.waiting.set(key, resolve));
  }
}

describe('ControllerRunner', () => {
  let server: TestApiServer;
  let client: ApiClient;

  beforeAll(async () => {
    server = await startTestApiServer();
    client = new ApiClient({ server: server.url, caPem: '', token: testTokens.admin });
  });

  afterAll(async () => {
    client.close();
    await server.stop();
  });

  it('syncs the keys its handlers enqueue, listed before it ran and watched after, retrying a failed sync', async () => {
    await client.create(inDefault, account('runner-before'));
    const errors: unknown[] = [];
    const runner = new ControllerRunner(client, realClock, { queue: { name: 'runner_test' }, workers: 2, onError: (err) => errors.push(err) });
    const arrivals = new Arrivals();
    const attempts = new Map<string, number>();
    const enqueueRunnerAccounts = runner.enqueue((o) => ((o.metadata.name ?? '').startsWith('runner-') ? objectKey(o) : null));
    const informer = runner.watch(accounts, { onAdd: enqueueRunnerAccounts });
    await runner.run(async (key) => {
      const attempt = (attempts.get(key) ?? 0) + 1;
      attempts.set(key, attempt);
      if (key === 'default/runner-flaky' && attempt === 1) throw new Error('first attempt fails');
      arrivals.seen(key);
    });
    try {
      await arrivals.of('default/runner-before');
      expect(informer.get('default/runner-before')?.metadata.name).toBe('runner-before');
      await client.create(inDefault, account('runner-after'));
      await client.create(inDefault, account('runner-flaky'));
      await Promise.all([arrivals.of('default/runner-after'), arrivals.of('default/runner-flaky')]);
      expect(attempts.get('default/runner-flaky')).toBe(2);
      expect(errors.map((e) => (e as Error).message)).toEqual(['first attempt fails']);
      expect(attempts.has('default/default')).toBe(false);
    } finally {
      await runner.stop();
    }
  });

  it('stops only once the sync in flight has finished', async () => {
    const runner = new ControllerRunner(client, realClock, { queue: { name: 'runner_stop_test' }, workers: 1 });
    runner.watch(inDefault, { onAdd: runner.enqueue((o) => (o.metadata.name === 'runner-slow' ? objectKey(o) : null)) });
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started: () => void = () => undefined;
    const syncStarted = new Promise<void>((resolve) => (started = resolve));
    const events: string[] = [];
    await runner.run(async () => {
      started();
      await released;
      events.push('sync finished');
    });
    await client.create(inDefault, account('runner-slow'));
    await syncStarted;
    const stopping = runner.stop().then(() => events.push('stopped'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual([]);
    release();
    await stopping;
    expect(events).toEqual(['sync finished', 'stopped']);
  });

  it('tolerates only the status codes it is told to', async () => {
    await expect(tolerating(client.delete(`${inDefault}/runner-missing`), [404])).resolves.toBeUndefined();
    const refused = await tolerating(client.delete(`${inDefault}/runner-missing`), [409]).catch((err: unknown) => err);
    expect(isStatusError(refused) && refused.code).toBe(404);
  });
});
