// ResourceStore.update of a computed object (a patch, a PUT): when another writer gets in
// between its read and its write, the object is computed again from the new state, as
// GuaranteedUpdate retries; the resourceVersion the client named still holds it to its own.
import { KubeObject } from '@plinth/api';
import { realClock } from '@plinth/machinery';
import { EmbeddedObjectStore } from '@plinth/storage';
import { leaseDefinition } from '../resources/coordination/leases';
import { ResourceStore } from './resource-store';

describe('ResourceStore.update racing another writer', () => {
  let leases: ResourceStore;

  beforeEach(() => {
    leases = new ResourceStore(leaseDefinition, new EmbeddedObjectStore(), realClock, new Map());
  });

  // racedOnce is a transform that, the first time it runs, lets another writer change the
  // lease before it answers; each run sets holderIdentity on the state it was given.
  function racedOnce(holder: string, keepResourceVersion: (current: KubeObject) => string | undefined) {
    let runs = 0;
    const transform = async (current: KubeObject | null): Promise<KubeObject> => {
      if (!current) throw new Error('the lease is gone');
      runs++;
      if (runs === 1) await leases.update('default', 'l1', { ...current, metadata: { ...current.metadata }, spec: { ...(current.spec as object), leaseDurationSeconds: 7 } });
      return { ...current, metadata: { ...current.metadata, resourceVersion: keepResourceVersion(current) }, spec: { ...(current.spec as object), holderIdentity: holder } };
    };
    return { transform, runs: () => runs };
  }

  it('computes a patch again on the new state when it named no resourceVersion of its own', async () => {
    await leases.create('default', { metadata: { name: 'l1' }, spec: {} });
    const patch = racedOnce('a', (current) => current.metadata.resourceVersion);
    const { object } = await leases.update('default', 'l1', patch.transform);
    expect(patch.runs()).toBe(2);
    expect(object.spec).toEqual({ leaseDurationSeconds: 7, holderIdentity: 'a' });
  });

  it('refuses with 409 when the resourceVersion the client named is no longer current', async () => {
    const created = await leases.create('default', { metadata: { name: 'l1' }, spec: {} });
    const put = racedOnce('b', () => created.metadata.resourceVersion);
    await expect(leases.update('default', 'l1', put.transform)).rejects.toMatchObject({ code: 409, reason: 'Conflict' });
    expect((await leases.get('default', 'l1')).spec).toEqual({ leaseDurationSeconds: 7 });
  });
});
