// The garbage collector's decisions, as Kubernetes' pkg/controller/garbagecollector
// (attemptToDeleteItem, processDeletingDependentsItem, orphanDependents), over objects and
// their ownerReferences; the graph of owners and dependents is the runner's cache.
import { KubeObject, OwnerReference } from '@plinth/api';

export const foregroundDeletion = 'foregroundDeletion';
export const orphanFinalizer = 'orphan';

// isWellFormedOwnerReference holds for an owner reference validation accepts: an object with a
// non-empty apiVersion, kind, name and uid.
export function isWellFormedOwnerReference(ref: unknown): ref is OwnerReference {
  if (typeof ref !== 'object' || ref === null || Array.isArray(ref)) return false;
  const r = ref as Record<string, unknown>;
  return ['apiVersion', 'kind', 'name', 'uid'].every((k) => typeof r[k] === 'string' && r[k] !== '');
}

// ownerReferences splits an object's ownerReferences into the well-formed ones and a count of
// those the API would refuse today (null, or without apiVersion, kind, name or uid: stored
// before it was validated, or written around the API), which the collector skips.
export function ownerReferences(object: KubeObject): { references: OwnerReference[]; malformed: number } {
  const refs: unknown = object.metadata.ownerReferences;
  if (refs === undefined || refs === null) return { references: [], malformed: 0 };
  const all: unknown[] = Array.isArray(refs) ? refs : [refs];
  const references = all.filter(isWellFormedOwnerReference);
  return { references, malformed: all.length - references.length };
}

// GarbageAction is what a sync does with an object: orphan its dependents (deleted with the
// orphan finalizer), delete its dependents first (foregroundDeletion), or delete it once every
// owner is gone.
export type GarbageAction = 'orphanDependents' | 'deleteDependentsFirst' | 'collectIfOrphaned';

export function garbageAction(object: KubeObject): GarbageAction {
  const finalizers = object.metadata.finalizers ?? [];
  if (object.metadata.deletionTimestamp && finalizers.includes(orphanFinalizer)) return 'orphanDependents';
  if (object.metadata.deletionTimestamp && finalizers.includes(foregroundDeletion)) return 'deleteDependentsFirst';
  return 'collectIfOrphaned';
}

// ForegroundPlan lists the dependents to delete (in the foreground) and says whether the owner
// may lose its foregroundDeletion finalizer: only once no dependent blocks it.
export interface ForegroundPlan {
  toDelete: KubeObject[];
  removeFinalizer: boolean;
}

export function foregroundPlan(owner: KubeObject, dependents: readonly KubeObject[]): ForegroundPlan {
  const ownerUid = owner.metadata.uid;
  const blocking = dependents.filter((d) => ownerReferences(d).references.some((r) => r.uid === ownerUid && r.blockOwnerDeletion)).length;
  return { toDelete: dependents.filter((d) => !d.metadata.deletionTimestamp), removeFinalizer: blocking === 0 };
}

// referencesWithout is the dependent's ownerReferences without the owner's (null when none is
// left, to remove the field in a merge patch).
export function referencesWithout(dependent: KubeObject, ownerUid: string): OwnerReference[] | null {
  const refs = ownerReferences(dependent).references.filter((r) => r.uid !== ownerUid);
  return refs.length ? refs : null;
}

// finalizersWithout is the object's finalizers without one (null when none is left).
export function finalizersWithout(object: KubeObject, finalizer: string): string[] | null {
  const finalizers = (object.metadata.finalizers ?? []).filter((f) => f !== finalizer);
  return finalizers.length ? finalizers : null;
}

// ownerGroups are the groups whose resources an owner reference's group names: itself and, for a
// *.k8s.io alias, the *.platform.io group it stands for (the same objects).
export function ownerGroups(group: string): string[] {
  return group.endsWith('.k8s.io') ? [group, `${group.slice(0, -'.k8s.io'.length)}.platform.io`] : [group];
}
