// RbacPolicy holds the Roles, ClusterRoles, RoleBindings and ClusterRoleBindings the authorizer
// reads, and resolves the rules that apply to a user as DefaultRuleResolver does in
// pkg/registry/rbac/validation/rule.go (v1.28): ClusterRoleBindings first, then the RoleBindings
// of the namespace; a binding whose roleRef cannot be resolved is an error that does not stop
// the other bindings from applying.
//
// Objects are copied and frozen when stored. A snapshot is an immutable view: the policy copies
// its indexes before the first change after a snapshot was taken, so a decision in progress sees
// one consistent policy however the policy changes meanwhile.
import { aggregateMessage, goQuote } from '@plinth/machinery';
import { serviceAccountMatchesUsername, UserInfo } from './attributes';
import { compareGoStrings, deepCopy } from './go';
import {
  ClusterRole,
  ClusterRoleBinding,
  GroupKind,
  PolicyRule,
  RbacObject,
  rbacGroup,
  Role,
  RoleBinding,
  RoleRef,
  ServiceAccountKind,
  Subject,
  UserKind,
} from './types';

// RuleVisitor is VisitRulesFor's visitor: a rule with the description of the binding that grants
// it, or an error; returning false stops the visit.
export type RuleVisitor = (source: string | null, rule: PolicyRule | null, err: string | null) => boolean;

export interface RulesForResult {
  rules: PolicyRule[];
  errors: string[];
}

// RoleReferenceResult is GetRoleReferenceRules' answer. notFound names the missing role, so a
// registry can answer 404 for it.
export type RoleReferenceResult =
  | { ok: true; rules: PolicyRule[] }
  | { ok: false; error: string; notFound?: { kind: 'Role' | 'ClusterRole'; name: string } };

// ErrorStyle chooses how a missing role reads. 'authorizer' is the informer lister's
// `clusterrole.<group> "x" not found`; 'registry' is the storage's `clusterroles.<group> "x" not
// found`, which the escalation checks of the RBAC registry report.
export type ErrorStyle = 'authorizer' | 'registry';

// RuleResolver is AuthorizationRuleResolver.
export interface RuleResolver {
  visitRulesFor(user: UserInfo, namespace: string, visitor: RuleVisitor, style?: ErrorStyle): void;
  rulesFor(user: UserInfo, namespace: string, style?: ErrorStyle): RulesForResult;
  getRoleReferenceRules(roleRef: RoleRef, bindingNamespace: string, style?: ErrorStyle): RoleReferenceResult;
}

type Index<T> = Map<string, T>;
type NamespacedIndex<T> = Map<string, Index<T>>;

interface PolicyState {
  roles: NamespacedIndex<Role>;
  clusterRoles: Index<ClusterRole>;
  roleBindings: NamespacedIndex<RoleBinding>;
  clusterRoleBindings: Index<ClusterRoleBinding>;
}

function emptyState(): PolicyState {
  return { roles: new Map(), clusterRoles: new Map(), roleBindings: new Map(), clusterRoleBindings: new Map() };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}

function byName<T extends RbacObject>(a: T, b: T): number {
  return compareGoStrings(a.metadata.name ?? '', b.metadata.name ?? '');
}

function notFoundMessage(kind: 'Role' | 'ClusterRole', name: string, style: ErrorStyle): string {
  const resource = kind === 'Role' ? 'role' : 'clusterrole';
  const qualified = style === 'registry' ? `${resource}s.${rbacGroup}` : `${resource}.${rbacGroup}`;
  return `${qualified} ${goQuote(name)} not found`;
}

// describeSubject is describeSubject: a service account reads "name/namespace", as Kubernetes
// writes it.
function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === ServiceAccountKind) {
    const ns = s.namespace ? s.namespace : bindingNamespace;
    return `${s.kind} ${goQuote(`${s.name}/${ns}`)}`;
  }
  return `${s.kind} ${goQuote(s.name)}`;
}

function describeClusterRoleBinding(binding: ClusterRoleBinding, subject: Subject): string {
  const { roleRef } = binding;
  return `ClusterRoleBinding ${goQuote(binding.metadata.name ?? '')} of ${roleRef.kind} ${goQuote(roleRef.name)} to ${describeSubject(subject, '')}`;
}

function describeRoleBinding(binding: RoleBinding, subject: Subject): string {
  const { roleRef } = binding;
  const ns = binding.metadata.namespace ?? '';
  return `RoleBinding ${goQuote(`${binding.metadata.name ?? ''}/${ns}`)} of ${roleRef.kind} ${goQuote(roleRef.name)} to ${describeSubject(subject, ns)}`;
}

function describeBinding(binding: RoleBinding | ClusterRoleBinding, namespace: string): string {
  return namespace === ''
    ? `ClusterRoleBinding ${goQuote(binding.metadata.name ?? '')}`
    : `RoleBinding ${goQuote(`${binding.metadata.name ?? ''}/${namespace}`)}`;
}

interface AppliesTo {
  index: number;
  errors: string[];
}

// appliesTo is appliesTo: the index of the first subject naming the user, or -1. Kubernetes
// ignores subjects it cannot use; Plinth also reports them, as the API promises, when no valid
// subject applies: an unknown kind always, and a User or Group with a namespace when its name
// would have matched the user.
function appliesTo(user: UserInfo, binding: RoleBinding | ClusterRoleBinding, namespace: string): AppliesTo {
  const errors: string[] = [];
  const subjects = binding.subjects ?? [];
  for (let i = 0; i < subjects.length; i++) {
    const s = subjects[i];
    switch (s.kind) {
      case UserKind:
      case GroupKind: {
        const named = s.kind === UserKind ? user.name === s.name : user.groups.includes(s.name);
        if (!named) break;
        if (s.namespace) {
          errors.push(`${s.kind} subject ${goQuote(s.name)} of ${describeBinding(binding, namespace)} must not have a namespace, got ${goQuote(s.namespace)}`);
          break;
        }
        return { index: i, errors: [] };
      }
      case ServiceAccountKind: {
        // A service account without a namespace is the one of the binding's namespace.
        const saNamespace = s.namespace ? s.namespace : namespace;
        if (saNamespace && serviceAccountMatchesUsername(saNamespace, s.name, user.name)) return { index: i, errors: [] };
        break;
      }
      default:
        errors.push(`unsupported subject kind: ${goQuote(s.kind)} in ${describeBinding(binding, namespace)}`);
    }
  }
  return { index: -1, errors };
}

// PolicySnapshot is the policy at one point in time.
export class PolicySnapshot implements RuleResolver {
  private sortedClusterRoleBindings?: ClusterRoleBinding[];
  private readonly sortedRoleBindings = new Map<string, RoleBinding[]>();

  constructor(private readonly state: PolicyState) {}

  getRole(namespace: string, name: string): Role | undefined {
    return this.state.roles.get(namespace)?.get(name);
  }

  getClusterRole(name: string): ClusterRole | undefined {
    return this.state.clusterRoles.get(name);
  }

  getRoleBinding(namespace: string, name: string): RoleBinding | undefined {
    return this.state.roleBindings.get(namespace)?.get(name);
  }

  getClusterRoleBinding(name: string): ClusterRoleBinding | undefined {
    return this.state.clusterRoleBindings.get(name);
  }

  // listRoles lists the roles of a namespace, or of all namespaces for '', by name.
  listRoles(namespace = ''): Role[] {
    return listNamespaced(this.state.roles, namespace);
  }

  listClusterRoles(): ClusterRole[] {
    return [...this.state.clusterRoles.values()].sort(byName);
  }

  listRoleBindings(namespace = ''): RoleBinding[] {
    return namespace === '' ? listNamespaced(this.state.roleBindings, '') : [...this.roleBindingsIn(namespace)];
  }

  listClusterRoleBindings(): ClusterRoleBinding[] {
    return [...this.clusterRoleBindingsByName()];
  }

  // The sorted binding lists are kept for the snapshot's life: the policy they list never changes.
  private roleBindingsIn(namespace: string): readonly RoleBinding[] {
    let list = this.sortedRoleBindings.get(namespace);
    if (!list) {
      list = listNamespaced(this.state.roleBindings, namespace);
      this.sortedRoleBindings.set(namespace, list);
    }
    return list;
  }

  private clusterRoleBindingsByName(): readonly ClusterRoleBinding[] {
    this.sortedClusterRoleBindings ??= [...this.state.clusterRoleBindings.values()].sort(byName);
    return this.sortedClusterRoleBindings;
  }

  getRoleReferenceRules(roleRef: RoleRef, bindingNamespace: string, style: ErrorStyle = 'authorizer'): RoleReferenceResult {
    switch (roleRef.kind) {
      case 'Role': {
        const role = bindingNamespace ? this.getRole(bindingNamespace, roleRef.name) : undefined;
        if (!role) return { ok: false, error: notFoundMessage('Role', roleRef.name, style), notFound: { kind: 'Role', name: roleRef.name } };
        return { ok: true, rules: role.rules ?? [] };
      }
      case 'ClusterRole': {
        const role = this.getClusterRole(roleRef.name);
        if (!role) return { ok: false, error: notFoundMessage('ClusterRole', roleRef.name, style), notFound: { kind: 'ClusterRole', name: roleRef.name } };
        return { ok: true, rules: role.rules ?? [] };
      }
      default:
        return { ok: false, error: `unsupported role reference kind: ${goQuote(roleRef.kind)}` };
    }
  }

  // visitRulesFor visits the rules that apply to user in namespace: those of ClusterRoleBindings,
  // then, for a namespace, those of its RoleBindings. Bindings are visited in name order.
  visitRulesFor(user: UserInfo, namespace: string, visitor: RuleVisitor, style: ErrorStyle = 'authorizer'): void {
    if (!this.visitBindings(user, '', this.clusterRoleBindingsByName(), visitor, style)) return;
    if (namespace.length > 0) this.visitBindings(user, namespace, this.roleBindingsIn(namespace), visitor, style);
  }

  private visitBindings(
    user: UserInfo,
    namespace: string,
    bindings: readonly (RoleBinding | ClusterRoleBinding)[],
    visitor: RuleVisitor,
    style: ErrorStyle,
  ): boolean {
    for (const binding of bindings) {
      const applies = appliesTo(user, binding, namespace);
      if (applies.index < 0) {
        for (const err of applies.errors) if (!visitor(null, null, err)) return false;
        continue;
      }
      const resolved = this.getRoleReferenceRules(binding.roleRef, namespace, style);
      if (!resolved.ok) {
        if (!visitor(null, null, resolved.error)) return false;
        continue;
      }
      const subject = (binding.subjects ?? [])[applies.index];
      const source = namespace === '' ? describeClusterRoleBinding(binding, subject) : describeRoleBinding(binding, subject);
      for (const rule of resolved.rules) if (!visitor(source, rule, null)) return false;
    }
    return true;
  }

  // rulesFor is RulesFor: every rule that applies, and the errors met finding them. The rules
  // are usable even with errors, since rules only ever add permissions.
  rulesFor(user: UserInfo, namespace: string, style: ErrorStyle = 'authorizer'): RulesForResult {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    this.visitRulesFor(
      user,
      namespace,
      (_source, rule, err) => {
        if (rule) rules.push(rule);
        if (err) errors.push(err);
        return true;
      },
      style,
    );
    return { rules, errors };
  }
}

function listNamespaced<T extends RbacObject>(index: NamespacedIndex<T>, namespace: string): T[] {
  if (namespace !== '') return [...(index.get(namespace)?.values() ?? [])].sort(byName);
  const all: T[] = [];
  for (const ns of [...index.keys()].sort(compareGoStrings)) all.push(...[...(index.get(ns)?.values() ?? [])].sort(byName));
  return all;
}

type RbacKind = 'Role' | 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding';

export interface ObjectKey {
  kind?: string;
  metadata: { name?: string; namespace?: string };
}

function keyOf(obj: ObjectKey): { kind: RbacKind; namespace: string; name: string } {
  const kind = obj.kind;
  if (kind !== 'Role' && kind !== 'ClusterRole' && kind !== 'RoleBinding' && kind !== 'ClusterRoleBinding') {
    throw new Error(`RbacPolicy holds Role, ClusterRole, RoleBinding and ClusterRoleBinding objects, not ${goQuote(kind ?? '')}`);
  }
  const name = obj.metadata?.name ?? '';
  if (!name) throw new Error(`${kind} without a name`);
  const namespace = obj.metadata.namespace ?? '';
  if ((kind === 'Role' || kind === 'RoleBinding') && !namespace) throw new Error(`${kind} ${goQuote(name)} without a namespace`);
  return { kind, namespace: kind === 'Role' || kind === 'RoleBinding' ? namespace : '', name };
}

export interface PolicyContents {
  roles?: readonly Role[];
  clusterRoles?: readonly ClusterRole[];
  roleBindings?: readonly RoleBinding[];
  clusterRoleBindings?: readonly ClusterRoleBinding[];
}

// RbacPolicy is the mutable policy an informer keeps up to date.
export class RbacPolicy implements RuleResolver {
  private state: PolicyState = emptyState();
  private current?: PolicySnapshot;
  // owned holds the maps no snapshot has seen, which may change in place.
  private owned = new WeakSet<Map<unknown, unknown>>();

  constructor(contents: PolicyContents = {}) {
    this.replace(contents);
  }

  // snapshot returns the policy as it is now; it never changes afterwards.
  snapshot(): PolicySnapshot {
    if (!this.current) {
      this.current = new PolicySnapshot(this.state);
      this.owned = new WeakSet();
    }
    return this.current;
  }

  // add stores a new object, or replaces the stored one of the same kind, namespace and name.
  add(obj: RbacObject): void {
    const { kind, namespace, name } = keyOf(obj);
    const stored = deepFreeze(deepCopy(obj));
    this.change(kind, namespace, (index) => index.set(name, stored));
  }

  update(obj: RbacObject): void {
    this.add(obj);
  }

  delete(obj: ObjectKey): void {
    const { kind, namespace, name } = keyOf(obj);
    this.change(kind, namespace, (index) => index.delete(name));
  }

  // replace drops everything held and stores the given objects, as an informer's relist does.
  replace(contents: PolicyContents): void {
    this.state = emptyState();
    this.current = undefined;
    const all: RbacObject[] = [
      ...(contents.roles ?? []).map((o) => ({ ...o, kind: 'Role' })),
      ...(contents.clusterRoles ?? []).map((o) => ({ ...o, kind: 'ClusterRole' })),
      ...(contents.roleBindings ?? []).map((o) => ({ ...o, kind: 'RoleBinding' })),
      ...(contents.clusterRoleBindings ?? []).map((o) => ({ ...o, kind: 'ClusterRoleBinding' })),
    ] as RbacObject[];
    for (const obj of all) this.add(obj);
  }

  // change applies a mutation to one index. Maps a snapshot may be reading are copied before
  // their first change; the copies belong to the policy until the next snapshot.
  private change(kind: RbacKind, namespace: string, mutate: (index: Map<string, RbacObject>) => void): void {
    const state = { ...this.state };
    switch (kind) {
      case 'ClusterRole':
        state.clusterRoles = this.own(state.clusterRoles);
        mutate(state.clusterRoles as Map<string, RbacObject>);
        break;
      case 'ClusterRoleBinding':
        state.clusterRoleBindings = this.own(state.clusterRoleBindings);
        mutate(state.clusterRoleBindings as Map<string, RbacObject>);
        break;
      case 'Role':
        state.roles = this.changeNamespaced(state.roles, namespace, mutate);
        break;
      case 'RoleBinding':
        state.roleBindings = this.changeNamespaced(state.roleBindings, namespace, mutate);
        break;
    }
    this.state = state;
    this.current = undefined;
  }

  private own<K, V>(map: Map<K, V>): Map<K, V> {
    if (this.owned.has(map)) return map;
    const copy = new Map(map);
    this.owned.add(copy);
    return copy;
  }

  private changeNamespaced<T>(index: NamespacedIndex<T>, namespace: string, mutate: (index: Map<string, RbacObject>) => void): NamespacedIndex<T> {
    const outer = this.own(index);
    const inner = this.own(outer.get(namespace) ?? new Map<string, T>());
    mutate(inner as unknown as Map<string, RbacObject>);
    if (inner.size === 0) outer.delete(namespace);
    else outer.set(namespace, inner);
    return outer;
  }

  getRole(namespace: string, name: string): Role | undefined {
    return this.snapshot().getRole(namespace, name);
  }

  getClusterRole(name: string): ClusterRole | undefined {
    return this.snapshot().getClusterRole(name);
  }

  getRoleBinding(namespace: string, name: string): RoleBinding | undefined {
    return this.snapshot().getRoleBinding(namespace, name);
  }

  getClusterRoleBinding(name: string): ClusterRoleBinding | undefined {
    return this.snapshot().getClusterRoleBinding(name);
  }

  listRoles(namespace = ''): Role[] {
    return this.snapshot().listRoles(namespace);
  }

  listClusterRoles(): ClusterRole[] {
    return this.snapshot().listClusterRoles();
  }

  listRoleBindings(namespace = ''): RoleBinding[] {
    return this.snapshot().listRoleBindings(namespace);
  }

  listClusterRoleBindings(): ClusterRoleBinding[] {
    return this.snapshot().listClusterRoleBindings();
  }

  visitRulesFor(user: UserInfo, namespace: string, visitor: RuleVisitor, style: ErrorStyle = 'authorizer'): void {
    this.snapshot().visitRulesFor(user, namespace, visitor, style);
  }

  rulesFor(user: UserInfo, namespace: string, style: ErrorStyle = 'authorizer'): RulesForResult {
    return this.snapshot().rulesFor(user, namespace, style);
  }

  getRoleReferenceRules(roleRef: RoleRef, bindingNamespace: string, style: ErrorStyle = 'authorizer'): RoleReferenceResult {
    return this.snapshot().getRoleReferenceRules(roleRef, bindingNamespace, style);
  }
}

// resolutionError is the text of the aggregated errors of a rule resolution (utilerrors.NewAggregate).
export function resolutionError(errors: readonly string[]): string | undefined {
  return aggregateMessage(errors);
}
