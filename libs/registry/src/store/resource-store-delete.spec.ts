// ResourceStore.delete given the object as a list read it (a deletecollection's): one write
// when the listed state is current, the current state's decision when it is not.
import { KubeObject } from '@plinth/api';
import { isStatusError, realClock } from '@plinth/machinery';
import { EmbeddedObjectStore, ObjectStore } from '@plinth/storage';
import { leaseDefinition } from '../resources/coordination/leases';
import { ResourceStore } from './resource-store';

// CountingStore counts the reads of the store under it.
class CountingStore extends EmbeddedObjectStore {
  gets = 0;

  override get(...args: Parameters<ObjectStore['get']>) {
    this.gets++;
    return super.get(...args);
  }
}

describe('ResourceStore.delete of a listed object', () => {
  let storage: CountingStore;
  let leases: ResourceStore;

  beforeEach(() => {
    storage = new CountingStore();
    leases = new ResourceStore(leaseDefinition, storage, realClock, new Map());
  });

  const lease = (name: string, finalizers?: string[]): KubeObject => ({ metadata: { name, ...(finalizers ? { finalizers } : {}) }, spec: {} });
  // rewrite replaces the stored object (Leases update only at a named resourceVersion).
  const rewrite = (from: KubeObject, to: KubeObject) => leases.update('default', from.metadata.name ?? '', { ...to, metadata: { ...to.metadata, resourceVersion: from.metadata.resourceVersion } });

  it('deletes a listed object that is current without reading it again', async () => {
    const listed = await leases.create('default', lease('current'));
    const result = await leases.delete('default', 'current', {}, listed);
    expect(result.deleted).toBe(true);
    expect(storage.gets).toBe(0);
    expect(Number(result.object.metadata.resourceVersion)).toBeGreaterThan(Number(listed.metadata.resourceVersion));
    await expect(leases.get('default', 'current')).rejects.toMatchObject({ code: 404 });
  });

  it('decides on the current state when the object changed since it was listed: a finalizer added meanwhile holds it', async () => {
    const listed = await leases.create('default', lease('changed'));
    await rewrite(listed, lease('changed', ['example.com/hold']));
    const result = await leases.delete('default', 'changed', {}, listed);
    expect(result.deleted).toBe(false);
    expect(result.object.metadata.deletionTimestamp).toBeDefined();
    expect(result.object.metadata.finalizers).toEqual(['example.com/hold']);
    expect((await leases.get('default', 'changed')).metadata.deletionTimestamp).toBeDefined();
  });

  it('checks preconditions against the current state when the listed one fails them', async () => {
    const listed = await leases.create('default', lease('moved'));
    await rewrite(listed, { ...lease('moved'), spec: { holderIdentity: 'someone' } });
    const now = await leases.get('default', 'moved');
    const result = await leases.delete('default', 'moved', { preconditions: { resourceVersion: now.metadata.resourceVersion } }, listed);
    expect(result.deleted).toBe(true);
    const refused = await leases.delete('default', 'moved', { preconditions: { resourceVersion: now.metadata.resourceVersion } }, listed).catch((err: unknown) => err);
    expect(isStatusError(refused) && refused.code).toBe(404);
  });

  it('reads an object already marked for deletion afresh rather than answer the listed state unwritten', async () => {
    const created = await leases.create('default', lease('marked', ['example.com/hold']));
    const marked = await leases.delete('default', 'marked');
    expect(marked.deleted).toBe(false);
    storage.gets = 0;
    const again = await leases.delete('default', 'marked', {}, marked.object);
    expect(again).toEqual({ object: marked.object, deleted: false });
    expect(storage.gets).toBe(1);
    expect(created.metadata.deletionTimestamp).toBeUndefined();
  });

  it('reads the object for a dry run, whatever was listed', async () => {
    const listed = await leases.create('default', lease('dry'));
    const result = await leases.delete('default', 'dry', { dryRun: true }, listed);
    expect(result.deleted).toBe(true);
    expect(storage.gets).toBe(1);
    expect((await leases.get('default', 'dry')).metadata.name).toBe('dry');
  });
});
