// ClusterRole aggregation as pkg/controller/clusterroleaggregation does it (v1.28): the rules of
// an aggregated ClusterRole are the rules of every ClusterRole its selectors match, selector by
// selector, the matched roles in name order, each rule once.
import { labelSelectorAsSelector, semanticEqual } from '@plinth/machinery';
import { compareGoStrings, deepCopy } from './go';
import { ClusterRole, PolicyRule } from './types';

function ruleExists(haystack: readonly PolicyRule[], needle: PolicyRule): boolean {
  return haystack.some((rule) => semanticEqual(rule, needle));
}

// aggregateClusterRole is syncClusterRole: the rules the role should have, or null when the role
// has no aggregationRule or already has exactly those rules. An invalid selector throws the
// SelectorError of labelSelectorAsSelector, as the controller's sync fails.
export function aggregateClusterRole(role: ClusterRole, allClusterRoles: readonly ClusterRole[]): PolicyRule[] | null {
  if (!role.aggregationRule) return null;
  const rules: PolicyRule[] = [];
  for (const selector of role.aggregationRule.clusterRoleSelectors ?? []) {
    const matcher = labelSelectorAsSelector(selector);
    const matched = allClusterRoles
      .filter((candidate) => matcher.matches(candidate.metadata.labels ?? {}))
      .sort((a, b) => compareGoStrings(a.metadata.name ?? '', b.metadata.name ?? ''));
    for (const candidate of matched) {
      if (candidate.metadata.name === role.metadata.name) continue;
      for (const rule of candidate.rules ?? []) {
        if (!ruleExists(rules, rule)) rules.push(deepCopy(rule));
      }
    }
  }
  return semanticEqual(rules, role.rules ?? []) ? null : rules;
}

// ClusterRoleAggregation is one role whose rules the controller must set, or whose selectors
// could not be used.
export type ClusterRoleAggregation = { name: string; rules: PolicyRule[] } | { name: string; error: string };

// pendingAggregations runs aggregateClusterRole for every aggregated role, as the controller
// queues them all on any ClusterRole change, and lists those whose rules must change.
export function pendingAggregations(allClusterRoles: readonly ClusterRole[]): ClusterRoleAggregation[] {
  const pending: ClusterRoleAggregation[] = [];
  for (const role of allClusterRoles) {
    const name = role.metadata.name ?? '';
    try {
      const rules = aggregateClusterRole(role, allClusterRoles);
      if (rules !== null) pending.push({ name, rules });
    } catch (err) {
      pending.push({ name, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return pending.sort((a, b) => compareGoStrings(a.name, b.name));
}
