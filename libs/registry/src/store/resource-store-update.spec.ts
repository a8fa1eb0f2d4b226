// ResourceStore.update when another writer comes between its read and its write: a patch (a
// transform of the current object) is re-run on the new state, as kube-apiserver's
// GuaranteedUpdate retries it; a resourceVersion the client named is still a precondition.
import { KubeObject } from '@plinth/api';
import { isStatusError, realClock } from '@plinth/machinery';
import { EmbeddedObjectStore, KeyValue } from '@plinth/storage';
import { leaseDefinition } from '../resources/coordination/leases';
import { ResourceStore } from './resource-store';

// InterleavingStore writes the competitor's change to an object once, right before the next
// update of it reaches the store, which then fails its compare on the revision read before.
class InterleavingStore extends EmbeddedObjectStore {
  competitor: ((stored: KubeObject) => KubeObject) | null = null;
  updates = 0;

  override async update(key: string, value: Uint8Array, expectedRevision: number): Promise<KeyValue> {
    this.updates++;
    const change = this.competitor;
    if (change) {
      this.competitor = null;
      const current = await this.get(key);
      const stored = JSON.parse(new TextDecoder().decode(current.value)) as KubeObject;
      await super.update(key, new TextEncoder().encode(JSON.stringify(change(stored))), current.revision);
    }
    return super.update(key, value, expectedRevision);
  }
}

describe('ResourceStore.update racing another writer', () => {
  let storage: InterleavingStore;
  let leases: ResourceStore;
  let created: KubeObject;

  beforeEach(async () => {
    storage = new InterleavingStore();
    leases = new ResourceStore(leaseDefinition, storage, realClock, new Map());
    created = await leases.create('default', { metadata: { name: 'l1' }, spec: { holderIdentity: 'first' } });
    storage.updates = 0;
    storage.competitor = (stored) => ({ ...stored, metadata: { ...stored.metadata, labels: { competitor: 'wrote' } } });
  });

  it('re-runs a patch on the object the other writer left, keeping both changes', async () => {
    const patch = (current: KubeObject | null) => ({ ...(current as KubeObject), spec: { ...(current as KubeObject).spec, holderIdentity: 'patched' } });
    const { object } = await leases.update('default', 'l1', patch);
    expect(object.spec).toEqual({ holderIdentity: 'patched' });
    expect(object.metadata.labels).toEqual({ competitor: 'wrote' });
    expect(storage.updates).toBe(2);
    expect(await leases.get('default', 'l1')).toEqual(object);
  });

  it('answers 409 Conflict to an update naming the resourceVersion it read, once another writer changed the object', async () => {
    const refused = await leases.update('default', 'l1', { ...created, spec: { holderIdentity: 'put' } }).catch((err: unknown) => err);
    expect(isStatusError(refused) && [refused.code, refused.reason]).toEqual([409, 'Conflict']);
    expect((await leases.get('default', 'l1')).spec).toEqual({ holderIdentity: 'first' });
  });

  it('answers 409 Conflict to a patch that names the resourceVersion it was written against', async () => {
    const patch = (current: KubeObject | null) => ({
      ...(current as KubeObject),
      metadata: { ...(current as KubeObject).metadata, resourceVersion: created.metadata.resourceVersion },
      spec: { holderIdentity: 'patched' },
    });
    const refused = await leases.update('default', 'l1', patch).catch((err: unknown) => err);
    expect(isStatusError(refused) && [refused.code, refused.reason]).toEqual([409, 'Conflict']);
    expect(await leases.get('default', 'l1')).toMatchObject({ metadata: { labels: { competitor: 'wrote' } }, spec: { holderIdentity: 'first' } });
  });
});
