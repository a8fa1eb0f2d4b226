// Privilege-escalation prevention of the RBAC registry (v1.28): a user may only write a role
// granting rules they already hold (ConfirmNoEscalation in pkg/registry/rbac/validation/rule.go,
// Covers in component-helpers/auth/rbac/validation), unless they are in system:masters or hold
// the escalate verb on the role, and may only bind a role whose rules they hold unless they hold
// the bind verb on it (pkg/registry/rbac/escalation_check.go and the policybased storages).
import { KubeObject } from '@plinth/api';
import { forbidden, goQuote, internalError, notFound, semanticEqual, StatusError } from '@plinth/machinery';
import { resourceAttributes, SystemPrivilegedGroup, UserInfo } from './attributes';
import { authorize } from './authorizer';
import { canonicalApiGroup } from './rule-matching';
import { deepCopy, quoteList, sortedSet } from './go';
import { resolutionError, RuleResolver } from './policy-store';
import { APIGroupAll, ClusterRole, ClusterRoleBinding, PolicyRule, rbacGroup, ResourceAll, Role, RoleBinding, RoleRef, VerbAll } from './types';

// fullAuthority is what cluster-admin holds; setting an aggregationRule requires it.
export const fullAuthority: readonly PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

const list = (values: readonly string[] | null | undefined): readonly string[] => values ?? [];

// breakdownRule is BreakdownRule: the rule as rules of one group, resource, verb and name each.
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const subrules: PolicyRule[] = [];
  for (const group of list(rule.apiGroups)) {
    for (const resource of list(rule.resources)) {
      for (const verb of list(rule.verbs)) {
        if (list(rule.resourceNames).length > 0) {
          for (const resourceName of list(rule.resourceNames)) {
            subrules.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [resourceName] });
          }
        } else {
          subrules.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of list(rule.nonResourceURLs)) {
    for (const verb of list(rule.verbs)) subrules.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return subrules;
}

const has = (set: readonly string[], ele: string): boolean => set.includes(ele);
const hasAll = (set: readonly string[], contains: readonly string[]): boolean => contains.every((e) => set.includes(e));

function resourceCoversAll(setResources: readonly string[], coversResources: readonly string[]): boolean {
  if (has(setResources, ResourceAll) || hasAll(setResources, coversResources)) return true;
  for (const path of coversResources) {
    if (has(setResources, path)) continue;
    const slash = path.indexOf('/');
    if (slash < 0) return false;
    if (!has(setResources, `*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

function nonResourceURLCovers(ownerPath: string, subPath: string): boolean {
  if (ownerPath === subPath) return true;
  if (!ownerPath.endsWith('*')) return false;
  let end = ownerPath.length;
  while (end > 0 && ownerPath[end - 1] === '*') end--;
  return subPath.startsWith(ownerPath.slice(0, end));
}

function nonResourceURLsCoversAll(set: readonly string[], covers: readonly string[]): boolean {
  return covers.every((path) => set.some((owner) => nonResourceURLCovers(owner, path)));
}

// ruleCovers is ruleCovers: whether ownerRule covers a rule of breakdownRule.
function ruleCovers(ownerRule: PolicyRule, subRule: PolicyRule): boolean {
  const verbMatches = has(list(ownerRule.verbs), VerbAll) || hasAll(list(ownerRule.verbs), list(subRule.verbs));
  const groupMatches = has(list(ownerRule.apiGroups), APIGroupAll) || hasAll(list(ownerRule.apiGroups).map(canonicalApiGroup), list(subRule.apiGroups).map(canonicalApiGroup));
  const resourceMatches = resourceCoversAll(list(ownerRule.resources), list(subRule.resources));
  const nonResourceURLMatches = nonResourceURLsCoversAll(list(ownerRule.nonResourceURLs), list(subRule.nonResourceURLs));
  const ownerNames = list(ownerRule.resourceNames);
  const resourceNameMatches = list(subRule.resourceNames).length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, list(subRule.resourceNames));
  return verbMatches && groupMatches && resourceMatches && resourceNameMatches && nonResourceURLMatches;
}

// covers is Covers: whether ownerRules allow everything servantRules allow, and the broken-down
// servant rules they do not.
export function covers(ownerRules: readonly PolicyRule[], servantRules: readonly PolicyRule[]): { covered: boolean; missing: PolicyRule[] } {
  const missing: PolicyRule[] = [];
  for (const subrule of servantRules.flatMap(breakdownRule)) {
    if (!ownerRules.some((owner) => ruleCovers(owner, subrule))) missing.push(subrule);
  }
  return { covered: missing.length === 0, missing };
}

// compactRules is CompactRules: rules of one group and one resource and nothing else merge
// their verbs; the rest stay as they are.
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const isSimple =
      list(rule.resourceNames).length === 0 &&
      list(rule.nonResourceURLs).length === 0 &&
      list(rule.apiGroups).length === 1 &&
      list(rule.resources).length === 1;
    if (!isSimple) {
      compacted.push(rule);
      continue;
    }
    const key = JSON.stringify([list(rule.apiGroups)[0], list(rule.resources)[0]]);
    const existing = simple.get(key);
    if (existing) existing.verbs = [...list(existing.verbs), ...list(rule.verbs)];
    else simple.set(key, deepCopy(rule));
  }
  return [...compacted, ...simple.values()];
}

// compactString is CompactString: {APIGroups:[""], Resources:["pods"], Verbs:["get"]}.
export function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  if (list(rule.apiGroups).length > 0) parts.push(`APIGroups:${quoteList(rule.apiGroups)}`);
  if (list(rule.resources).length > 0) parts.push(`Resources:${quoteList(rule.resources)}`);
  if (list(rule.nonResourceURLs).length > 0) parts.push(`NonResourceURLs:${quoteList(rule.nonResourceURLs)}`);
  if (list(rule.resourceNames).length > 0) parts.push(`ResourceNames:${quoteList(rule.resourceNames)}`);
  if (list(rule.verbs).length > 0) parts.push(`Verbs:${quoteList(rule.verbs)}`);
  return `{${parts.join(', ')}}`;
}

// confirmNoEscalation is ConfirmNoEscalation: null when the user's rules in namespace cover
// rules, otherwise the forbidden detail naming the missing rules, one per line, sorted:
//
//	user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:
//	{APIGroups:[""], Resources:["pods"], Verbs:["get"]}
//
// followed by "; resolution errors: [...]" when some of the user's bindings could not be
// resolved. Roles are read as the registry reads them, so a missing role reads
// `clusterroles.rbac.authorization.platform.io "x" not found`.
export function confirmNoEscalation(resolver: RuleResolver, user: UserInfo, namespace: string, rules: readonly PolicyRule[]): string | null {
  const { rules: ownerRules, errors } = resolver.rulesFor(user, namespace, 'registry');
  const { covered, missing } = covers(ownerRules, rules);
  if (covered) return null;
  const descriptions = sortedSet(compactRules(missing).map(compactString));
  let msg = `user ${goQuote(user.name)} (groups=${quoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${descriptions.join('\n')}`;
  const aggregate = resolutionError(errors);
  if (aggregate !== undefined) msg += `; resolution errors: [${aggregate}]`;
  return msg;
}

// escalationAllowed is EscalationAllowed: members of system:masters may grant anything.
export function escalationAllowed(user: UserInfo): boolean {
  return user.groups.includes(SystemPrivilegedGroup);
}

// RoleRequest names the role a request writes, as the request's URL does: name is empty for a
// create posted to the collection.
export interface RoleRequest {
  resource: string;
  name: string;
  namespace: string;
}

// roleEscalationAuthorized is RoleEscalationAuthorized: whether the user holds the escalate verb
// on the roles or clusterroles the request writes.
export function roleEscalationAuthorized(resolver: RuleResolver, user: UserInfo, request: RoleRequest): boolean {
  if (request.resource !== 'roles' && request.resource !== 'clusterroles') return false;
  const attrs = resourceAttributes({
    user,
    verb: 'escalate',
    apiGroup: rbacGroup,
    apiVersion: '*',
    resource: request.resource,
    name: request.name,
    namespace: request.namespace,
  });
  return authorize(resolver, attrs).decision === 'Allow';
}

// bindingAuthorized is BindingAuthorized: whether the user holds the bind verb on the role the
// roleRef names, in the binding's namespace ('' for a ClusterRoleBinding). A roleRef naming
// rbac.authorization.k8s.io is checked against the platform group.
export function bindingAuthorized(resolver: RuleResolver, user: UserInfo, roleRef: RoleRef, bindingNamespace: string): boolean {
  let resource: string;
  if (roleRef.kind === 'ClusterRole') resource = 'clusterroles';
  else if (roleRef.kind === 'Role') resource = 'roles';
  else return false;
  const attrs = resourceAttributes({
    user,
    verb: 'bind',
    apiGroup: rbacGroup,
    apiVersion: '*',
    resource,
    name: roleRef.name,
    namespace: bindingNamespace,
  });
  return authorize(resolver, attrs).decision === 'Allow';
}

// isOnlyMutatingGCFields is IsOnlyMutatingGCFields: an update that only changes what the garbage
// collector changes (owner references, finalizers, selfLink, managed fields) is not checked.
export function isOnlyMutatingGCFields(obj: KubeObject, old: KubeObject | undefined): boolean {
  if (!old) return false;
  const metadata: Record<string, unknown> = { ...obj.metadata };
  const oldMetadata = old.metadata as Record<string, unknown>;
  for (const key of ['ownerReferences', 'finalizers', 'selfLink', 'managedFields']) {
    if (oldMetadata[key] === undefined) delete metadata[key];
    else metadata[key] = oldMetadata[key];
  }
  return semanticEqual({ ...obj, metadata }, old);
}

const gr = (resource: string) => ({ group: rbacGroup, resource });

export interface RoleWrite<T> {
  // namespace is the request's namespace; '' for cluster-scoped objects.
  namespace: string;
  // old is the stored object of an update.
  old?: T;
  // requestName is the name in the request's URL; by default the object's name for an update
  // and '' for a create.
  requestName?: string;
}

function requestName<T extends KubeObject>(obj: T, write: RoleWrite<T>): string {
  return write.requestName ?? (write.old ? (obj.metadata.name ?? '') : '');
}

// checkRoleEscalation is the Role storage's Create and Update check: null when allowed, else
// the 403 to answer.
export function checkRoleEscalation(resolver: RuleResolver, user: UserInfo, role: Role, write: RoleWrite<Role>): StatusError | null {
  if (escalationAllowed(user)) return null;
  if (roleEscalationAuthorized(resolver, user, { resource: 'roles', name: requestName(role, write), namespace: write.namespace })) return null;
  if (write.old && isOnlyMutatingGCFields(role, write.old)) return null;
  const detail = confirmNoEscalation(resolver, user, write.namespace, role.rules ?? []);
  return detail === null ? null : forbidden(gr('roles'), role.metadata.name ?? '', detail);
}

const hasAggregationRule = (role: ClusterRole | undefined): boolean => (role?.aggregationRule?.clusterRoleSelectors ?? []).length > 0;

// checkClusterRoleEscalation is the ClusterRole storage's check: the rules must be held, and
// setting or changing an aggregationRule needs cluster-admin's authority.
export function checkClusterRoleEscalation(resolver: RuleResolver, user: UserInfo, clusterRole: ClusterRole, write: Omit<RoleWrite<ClusterRole>, 'namespace'> = {}): StatusError | null {
  if (escalationAllowed(user)) return null;
  if (roleEscalationAuthorized(resolver, user, { resource: 'clusterroles', name: requestName(clusterRole, { ...write, namespace: '' }), namespace: '' })) return null;
  if (write.old && isOnlyMutatingGCFields(clusterRole, write.old)) return null;
  const name = clusterRole.metadata.name ?? '';
  const detail = confirmNoEscalation(resolver, user, '', clusterRole.rules ?? []);
  if (detail !== null) return forbidden(gr('clusterroles'), name, detail);
  if (hasAggregationRule(clusterRole) || hasAggregationRule(write.old)) {
    if (confirmNoEscalation(resolver, user, '', fullAuthority) !== null) {
      return forbidden(gr('clusterroles'), name, 'must have cluster-admin privileges to use the aggregationRule');
    }
  }
  return null;
}

function checkBinding(
  resolver: RuleResolver,
  user: UserInfo,
  binding: RoleBinding | ClusterRoleBinding,
  namespace: string,
  resource: 'rolebindings' | 'clusterrolebindings',
  old: RoleBinding | ClusterRoleBinding | undefined,
): StatusError | null {
  if (escalationAllowed(user)) return null;
  if (old && isOnlyMutatingGCFields(binding, old)) return null;
  if (bindingAuthorized(resolver, user, binding.roleRef, namespace)) return null;
  const resolved = resolver.getRoleReferenceRules(binding.roleRef, namespace, 'registry');
  if (!resolved.ok) {
    if (resolved.notFound) return notFound(gr(resolved.notFound.kind === 'Role' ? 'roles' : 'clusterroles'), resolved.notFound.name);
    return internalError(resolved.error);
  }
  const detail = confirmNoEscalation(resolver, user, namespace, resolved.rules);
  return detail === null ? null : forbidden(gr(resource), binding.metadata.name ?? '', detail);
}

// checkRoleBindingEscalation is the RoleBinding storage's check: the user may bind the role, or
// holds every rule of it in the binding's namespace. A missing role is a 404.
export function checkRoleBindingEscalation(resolver: RuleResolver, user: UserInfo, binding: RoleBinding, write: RoleWrite<RoleBinding>): StatusError | null {
  return checkBinding(resolver, user, binding, write.namespace, 'rolebindings', write.old);
}

// checkClusterRoleBindingEscalation is the ClusterRoleBinding storage's check.
export function checkClusterRoleBindingEscalation(
  resolver: RuleResolver,
  user: UserInfo,
  binding: ClusterRoleBinding,
  write: Omit<RoleWrite<ClusterRoleBinding>, 'namespace'> = {},
): StatusError | null {
  return checkBinding(resolver, user, binding, '', 'clusterrolebindings', write.old);
}
