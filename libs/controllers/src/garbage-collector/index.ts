export { finalizersWithout, foregroundDeletion, foregroundPlan, garbageAction, isWellFormedOwnerReference, orphanFinalizer, ownerReferences, referencesWithout } from './decisions';
export type { ForegroundPlan, GarbageAction } from './decisions';
