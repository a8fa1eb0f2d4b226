import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KubeObject } from '@plinth/api';
import { isStatusError, realClock } from '@plinth/machinery';
import { PlinthProcess, startPlinth } from '@plinth/testing-server';
import { ApiClient, Informer, resourcePath } from '@plinth/client';
import { eventually } from '@plinth/testing';
import { graphObject } from '@plinth/controller-manager';

describe('ApiClient and Informer against the all-in-one', () => {
  let plinth: PlinthProcess;
  let client: ApiClient;

  beforeAll(async () => {
    plinth = await startPlinth(['--history-window', '1']);
    const pki = (name: string) => readFileSync(join(plinth.dataDir, 'pki', name), 'utf8');
    client = new ApiClient({ server: plinth.url, caPem: pki('ca.crt'), certPem: pki('admin.crt'), keyPem: pki('admin.key') });
  }, 60000);

  afterAll(async () => {
    client?.close();
    await plinth?.stop();
  });

  it('creates, reads, patches and deletes, and surfaces Status errors', async () => {
    const path = resourcePath({ group: '', version: 'v1', resource: 'namespaces' });
    const created = await client.create<KubeObject>(path, { metadata: { name: 'client-1' } });
    expect(created.metadata.uid).toBeDefined();
    const patched = await client.patch<KubeObject>(`${path}/client-1`, 'merge', { metadata: { labels: { a: 'b' } } });
    expect(patched.metadata.labels?.a).toBe('b');
    const err = await client.get(`${path}/missing`).catch((e: unknown) => e);
    expect(isStatusError(err) && err.code).toBe(404);
    expect(isStatusError(err) && err.message).toBe('namespaces "missing" not found');
  });

  it('keeps an informer in step, relisting after its watch expires', async () => {
    const path = resourcePath({ group: '', version: 'v1', resource: 'serviceaccounts', namespace: 'default' });
    const informer = new Informer(client, path, realClock);
    // Only this test's ServiceAccounts: the service-account controller creates "default" here
    // whenever it gets to it, before or after the informer's list.
    const events: string[] = [];
    const record = (what: string) => (o: KubeObject) => {
      if (o.metadata.name?.startsWith('sa-')) events.push(`${what} ${o.metadata.name}`);
    };
    informer.addHandlers({ onAdd: record('add'), onUpdate: record('update'), onDelete: record('delete') });
    informer.start();
    await informer.hasSynced();
    await client.create(path, { metadata: { name: 'sa-1' } });
    await client.patch(`${path}/sa-1`, 'merge', { metadata: { labels: { x: 'y' } } });
    await client.delete(`${path}/sa-1`);
    await eventually(() => events.includes('delete sa-1'), { what: () => `the delete event (events: ${events.join(', ')})`, timeoutMs: 10_000 });
    expect(events).toEqual(['add sa-1', 'update sa-1', 'delete sa-1']);
    expect(informer.get('default/sa-1')).toBeUndefined();
    informer.stop();
  });

  it("keeps and hands out what its transform makes of each object, listed or watched (the garbage collector's metadata)", async () => {
    const path = resourcePath({ group: 'coordination.k8s.io', version: 'v1', resource: 'leases', namespace: 'default' });
    await client.create(path, { metadata: { name: 'lease-listed' }, spec: { holderIdentity: 'h' } });
    const informer = new Informer(client, path, realClock, {}, undefined, 0, graphObject);
    const handed: KubeObject[] = [];
    informer.addHandlers({ onAdd: (o) => handed.push(o), onUpdate: (o) => handed.push(o) });
    informer.start();
    await informer.hasSynced();
    await client.create(path, { metadata: { name: 'lease-watched', labels: { a: 'b' } }, spec: { holderIdentity: 'h' } });
    await eventually(() => informer.get('default/lease-watched') !== undefined, { what: () => 'the watched Lease', timeoutMs: 10_000 });
    for (const name of ['lease-listed', 'lease-watched']) {
      const kept = informer.get(`default/${name}`);
      expect(kept && Object.keys(kept)).toEqual(['metadata']);
      expect(kept && Object.keys(kept.metadata).filter((field) => kept.metadata[field as keyof typeof kept.metadata] !== undefined)).toEqual(['name', 'namespace', 'uid', 'resourceVersion']);
      expect(kept?.metadata.uid).toBeDefined();
      expect(handed.filter((o) => o.metadata.name === name)).toEqual([kept]);
    }
    informer.stop();
  });
});
