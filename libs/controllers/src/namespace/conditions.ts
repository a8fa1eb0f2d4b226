// The status conditions the namespace controller keeps on a terminating namespace, after
// pkg/controller/namespace/deletion/namespace_condition_updater.go (v1.28): each of the five
// types is True with a failure reason while its problem lasts, and False with an "ok" reason
// otherwise; a condition's lastTransitionTime moves only when its status changes.

export interface NamespaceCondition {
  type: string;
  status: 'True' | 'False';
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export const NamespaceDeletionDiscoveryFailure = 'NamespaceDeletionDiscoveryFailure';
export const NamespaceDeletionGroupVersionParsingFailure = 'NamespaceDeletionGroupVersionParsingFailure';
export const NamespaceDeletionContentFailure = 'NamespaceDeletionContentFailure';
export const NamespaceContentRemaining = 'NamespaceContentRemaining';
export const NamespaceFinalizersRemaining = 'NamespaceFinalizersRemaining';

const conditionTypes = [
  NamespaceDeletionDiscoveryFailure,
  NamespaceDeletionGroupVersionParsingFailure,
  NamespaceDeletionContentFailure,
  NamespaceContentRemaining,
  NamespaceFinalizersRemaining,
];

const okReasons: Record<string, string> = {
  [NamespaceDeletionDiscoveryFailure]: 'ResourcesDiscovered',
  [NamespaceDeletionGroupVersionParsingFailure]: 'ParsedGroupVersions',
  [NamespaceDeletionContentFailure]: 'ContentDeleted',
  [NamespaceContentRemaining]: 'ContentRemoved',
  [NamespaceFinalizersRemaining]: 'ContentHasNoFinalizers',
};

const okMessages: Record<string, string> = {
  [NamespaceDeletionDiscoveryFailure]: 'All resources successfully discovered',
  [NamespaceDeletionGroupVersionParsingFailure]: 'All legacy kube types successfully parsed',
  [NamespaceDeletionContentFailure]: 'All content successfully deleted, may be waiting on finalization',
  [NamespaceContentRemaining]: 'All content successfully removed',
  [NamespaceFinalizersRemaining]: 'All content-preserving finalizers finished',
};

// DeletionOutcome is what one pass over a namespace's content found.
export interface DeletionOutcome {
  // discoveryError is the message of a failed discovery (some groups may still have been found);
  // failedGroups counts the groups whose discovery failed (0 for another kind of failure).
  discoveryError?: { message: string; failedGroups: number };
  groupVersionError?: string;
  // deleteErrors are the messages of the resources whose content could not be deleted.
  deleteErrors: string[];
  // remaining counts objects left per resource ("<resource>.<group>"), and finalizers per
  // finalizer name among them.
  remaining: Map<string, number>;
  finalizers: Map<string, number>;
}

function failure(type: string, reason: string, message: string, now: string): NamespaceCondition {
  return { type, status: 'True', lastTransitionTime: now, reason, message };
}

// failedConditions are the True conditions an outcome calls for.
export function failedConditions(outcome: DeletionOutcome, now: string): NamespaceCondition[] {
  const conditions: NamespaceCondition[] = [];
  if (outcome.discoveryError) {
    const { message, failedGroups } = outcome.discoveryError;
    const text = failedGroups > 0 ? `Discovery failed for some groups, ${failedGroups} failing: ${message}` : message;
    conditions.push(failure(NamespaceDeletionDiscoveryFailure, 'DiscoveryFailed', text, now));
  }
  if (outcome.groupVersionError) conditions.push(failure(NamespaceDeletionGroupVersionParsingFailure, 'GroupVersionParsingFailed', outcome.groupVersionError, now));
  const resources = [...outcome.remaining].filter(([, n]) => n > 0).map(([r, n]) => `${r} has ${n} resource instances`).sort();
  if (resources.length > 0) conditions.push(failure(NamespaceContentRemaining, 'SomeResourcesRemain', `Some resources are remaining: ${resources.join(', ')}`, now));
  const finalizers = [...outcome.finalizers].filter(([, n]) => n > 0).map(([f, n]) => `${f} in ${n} resource instances`).sort();
  if (finalizers.length > 0) {
    conditions.push(failure(NamespaceFinalizersRemaining, 'SomeFinalizersRemain', `Some content in the namespace has finalizers remaining: ${finalizers.join(', ')}`, now));
  }
  if (outcome.deleteErrors.length > 0) {
    const messages = [...outcome.deleteErrors].sort();
    conditions.push(failure(NamespaceDeletionContentFailure, 'ContentDeletionFailed', `Failed to delete all resource types, ${messages.length} remaining: ${messages.join(', ')}`, now));
  }
  return conditions;
}

// updateConditions merges the failures into a namespace's conditions, every type present
// afterwards; it returns the new list and whether anything changed.
export function updateConditions(current: NamespaceCondition[], failures: NamespaceCondition[], now: string): { conditions: NamespaceCondition[]; changed: boolean } {
  const conditions = current.map((c) => ({ ...c }));
  let changed = false;
  for (const type of conditionTypes) {
    const next = failures.find((c) => c.type === type) ?? { type, status: 'False', lastTransitionTime: now, reason: okReasons[type], message: okMessages[type] };
    const old = conditions.find((c) => c.type === type);
    if (!old) {
      conditions.push(next);
      changed = true;
    } else if (old.status !== next.status || old.message !== next.message || old.reason !== next.reason) {
      if (old.status !== next.status) old.lastTransitionTime = now;
      Object.assign(old, { status: next.status, reason: next.reason, message: next.message });
      changed = true;
    }
  }
  return { conditions, changed };
}
