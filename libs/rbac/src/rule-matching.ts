// Rule matching of pkg/apis/rbac/v1/evaluation_helpers.go and RuleAllows of
// plugin/pkg/auth/authorizer/rbac/rbac.go (v1.28): a rule allows a request when every part
// of it matches; '*' matches anything, and a '*/sub' resource matches that subresource of any
// resource.
import { Attributes } from './attributes';
import { APIGroupAll, NonResourceAll, PolicyRule, ResourceAll, VerbAll } from './types';

export function verbMatches(rule: PolicyRule, requestedVerb: string): boolean {
  return (rule.verbs ?? []).some((v) => v === VerbAll || v === requestedVerb);
}

// canonicalApiGroup names a group as Plinth serves it: a rule written for Kubernetes
// (`rbac.authorization.k8s.io`) means the group served as its alias' twin
// (`rbac.authorization.platform.io`), so manifests written for Kubernetes grant what they say.
export function canonicalApiGroup(group: string): string {
  return group.endsWith('.k8s.io') ? `${group.slice(0, -'.k8s.io'.length)}.platform.io` : group;
}

export function apiGroupMatches(rule: PolicyRule, requestedGroup: string): boolean {
  const requested = canonicalApiGroup(requestedGroup);
  return (rule.apiGroups ?? []).some((g) => g === APIGroupAll || canonicalApiGroup(g) === requested);
}

// resourceMatches takes the combined "resource/subresource" and the subresource alone.
export function resourceMatches(rule: PolicyRule, combinedRequestedResource: string, requestedSubresource: string): boolean {
  for (const ruleResource of rule.resources ?? []) {
    if (ruleResource === ResourceAll) return true;
    if (ruleResource === combinedRequestedResource) return true;
    if (requestedSubresource.length === 0) continue;
    if (
      ruleResource.length === requestedSubresource.length + 2 &&
      ruleResource.startsWith('*/') &&
      ruleResource.endsWith(requestedSubresource)
    ) {
      return true;
    }
  }
  return false;
}

// resourceNameMatches: a rule without resourceNames applies to every name.
export function resourceNameMatches(rule: PolicyRule, requestedName: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(requestedName);
}

// nonResourceURLMatches: '*' matches any path, and a URL ending in '*' matches by prefix.
export function nonResourceURLMatches(rule: PolicyRule, requestedURL: string): boolean {
  for (const ruleURL of rule.nonResourceURLs ?? []) {
    if (ruleURL === NonResourceAll) return true;
    if (ruleURL === requestedURL) return true;
    if (ruleURL.endsWith('*') && requestedURL.startsWith(trimRight(ruleURL, '*'))) return true;
  }
  return false;
}

// trimRight is strings.TrimRight with a one-character cutset.
function trimRight(s: string, c: string): string {
  let end = s.length;
  while (end > 0 && s[end - 1] === c) end--;
  return s.slice(0, end);
}

// ruleAllows is RuleAllows: whether one rule allows the request.
export function ruleAllows(attrs: Attributes, rule: PolicyRule): boolean {
  if (attrs.isResourceRequest) {
    const combinedResource = attrs.subresource.length > 0 ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
    return (
      verbMatches(rule, attrs.verb) &&
      apiGroupMatches(rule, attrs.apiGroup) &&
      resourceMatches(rule, combinedResource, attrs.subresource) &&
      resourceNameMatches(rule, attrs.name)
    );
  }
  return verbMatches(rule, attrs.verb) && nonResourceURLMatches(rule, attrs.path);
}

// rulesAllow is RulesAllow: whether any of the rules allows the request.
export function rulesAllow(attrs: Attributes, rules: readonly PolicyRule[]): boolean {
  return rules.some((rule) => ruleAllows(attrs, rule));
}
