import { DeletionOutcome, failedConditions, updateConditions } from './conditions';

const clean = (): DeletionOutcome => ({ deleteErrors: [], remaining: new Map(), finalizers: new Map() });

describe('namespace deletion conditions', () => {
  it('reports failures with Kubernetes reasons and messages, sorted', () => {
    const outcome: DeletionOutcome = {
      discoveryError: { message: 'unable to retrieve the complete list of server APIs: example.com/v1: boom', failedGroups: 1 },
      deleteErrors: ['b failed', 'a failed'],
      remaining: new Map([['pods.', 2], ['leases.coordination.platform.io', 1], ['jobs.batch', 0]]),
      finalizers: new Map([['z/f', 1], ['a/f', 2]]),
    };
    expect(failedConditions(outcome, 'T').map(({ type, reason, message }) => ({ type, reason, message }))).toEqual([
      { type: 'NamespaceDeletionDiscoveryFailure', reason: 'DiscoveryFailed', message: 'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: example.com/v1: boom' },
      { type: 'NamespaceContentRemaining', reason: 'SomeResourcesRemain', message: 'Some resources are remaining: leases.coordination.platform.io has 1 resource instances, pods. has 2 resource instances' },
      { type: 'NamespaceFinalizersRemaining', reason: 'SomeFinalizersRemain', message: 'Some content in the namespace has finalizers remaining: a/f in 2 resource instances, z/f in 1 resource instances' },
      { type: 'NamespaceDeletionContentFailure', reason: 'ContentDeletionFailed', message: 'Failed to delete all resource types, 2 remaining: a failed, b failed' },
    ]);
  });

  it('sets every condition, False when all went well, and moves lastTransitionTime only on a status change', () => {
    const first = updateConditions([], failedConditions(clean(), 'T1'), 'T1');
    expect(first.changed).toBe(true);
    expect(first.conditions.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered'],
      ['NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions'],
      ['NamespaceDeletionContentFailure', 'False', 'ContentDeleted'],
      ['NamespaceContentRemaining', 'False', 'ContentRemoved'],
      ['NamespaceFinalizersRemaining', 'False', 'ContentHasNoFinalizers'],
    ]);
    expect(updateConditions(first.conditions, failedConditions(clean(), 'T2'), 'T2').changed).toBe(false);
    const remaining = { ...clean(), remaining: new Map([['pods.', 1]]) };
    const second = updateConditions(first.conditions, failedConditions(remaining, 'T3'), 'T3');
    expect(second.changed).toBe(true);
    expect(second.conditions.find((c) => c.type === 'NamespaceContentRemaining')).toEqual({
      type: 'NamespaceContentRemaining',
      status: 'True',
      lastTransitionTime: 'T3',
      reason: 'SomeResourcesRemain',
      message: 'Some resources are remaining: pods. has 1 resource instances',
    });
    expect(second.conditions.find((c) => c.type === 'NamespaceDeletionDiscoveryFailure')?.lastTransitionTime).toBe('T1');
    expect(first.conditions.find((c) => c.type === 'NamespaceContentRemaining')?.status).toBe('False');
  });
});
