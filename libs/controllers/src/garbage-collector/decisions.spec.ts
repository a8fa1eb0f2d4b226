import { KubeObject, OwnerReference } from '@plinth/api';
import { finalizersWithout, foregroundDeletion, foregroundPlan, garbageAction, orphanFinalizer, ownerGroups, ownerReferences, referencesWithout } from './decisions';

const ref = (uid: string, extra: Partial<OwnerReference> = {}): OwnerReference => ({ apiVersion: 'v1', kind: 'ConfigMap', name: `cm-${uid}`, uid, ...extra });
const object = (uid: string, metadata: KubeObject['metadata'] = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: `s-${uid}`, uid, ...metadata } });

describe('garbage collector decisions', () => {
  it('reads an owner reference of a *.k8s.io alias group as its *.platform.io group too', () => {
    expect(ownerGroups('coordination.k8s.io')).toEqual(['coordination.k8s.io', 'coordination.platform.io']);
    expect(ownerGroups('coordination.platform.io')).toEqual(['coordination.platform.io']);
    expect(ownerGroups('')).toEqual(['']);
    expect(ownerGroups('example.com')).toEqual(['example.com']);
  });

  it('skips ownerReferences the API would refuse, and counts them', () => {
    const bad = object('d', { ownerReferences: [ref('a'), null, { kind: 'ConfigMap', name: 'x', uid: 'b' }] as unknown as OwnerReference[] });
    expect(ownerReferences(bad)).toEqual({ references: [ref('a')], malformed: 2 });
    expect(ownerReferences(object('e'))).toEqual({ references: [], malformed: 0 });
  });

  it('orphans or deletes dependents first only for an owner being deleted with that finalizer', () => {
    const deleting = (finalizer: string) => object('o', { deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: [finalizer] });
    expect(garbageAction(deleting(orphanFinalizer))).toBe('orphanDependents');
    expect(garbageAction(deleting(foregroundDeletion))).toBe('deleteDependentsFirst');
    expect(garbageAction(object('o', { finalizers: [foregroundDeletion] }))).toBe('collectIfOrphaned');
  });

  it('keeps the foreground finalizer while a dependent blocks the owner, deleting those not yet deleting', () => {
    const owner = object('o');
    const blocking = object('b', { ownerReferences: [ref('o', { blockOwnerDeletion: true })] });
    const deleting = object('c', { ownerReferences: [ref('o')], deletionTimestamp: '2026-01-01T00:00:00Z' });
    expect(foregroundPlan(owner, [blocking, deleting])).toEqual({ toDelete: [blocking], removeFinalizer: false });
    expect(foregroundPlan(owner, [deleting])).toEqual({ toDelete: [], removeFinalizer: true });
  });

  it('removes the owner from the references and the finalizer from the list, null when empty', () => {
    const dependent = object('d', { ownerReferences: [ref('o'), ref('p')], finalizers: [orphanFinalizer] });
    expect(referencesWithout(dependent, 'o')).toEqual([ref('p')]);
    expect(referencesWithout(object('e', { ownerReferences: [ref('o')] }), 'o')).toBeNull();
    expect(finalizersWithout(dependent, orphanFinalizer)).toBeNull();
    expect(finalizersWithout(object('f', { finalizers: ['a', orphanFinalizer] }), orphanFinalizer)).toEqual(['a']);
  });
});
