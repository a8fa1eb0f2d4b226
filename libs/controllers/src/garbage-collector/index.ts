export { finalizersWithout, foregroundDeletion, foregroundPlan, garbageAction, isWellFormedOwnerReference, orphanFinalizer, ownerGroups, ownerReferences, referencesWithout } from './decisions';
export type { ForegroundPlan, GarbageAction } from './decisions';
