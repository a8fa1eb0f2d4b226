// RBAC validation with the paths and messages of pkg/apis/rbac/validation (v1.28). The group
// is rbac.authorization.platform.io; references that still name rbac.authorization.k8s.io are
// accepted as the same group, so manifests written for Kubernetes apply unchanged.
import { field, FieldError, FieldPath, goQuote, LabelSelector, labelSelectorAsSelector, newPath, validateLabelSelector, validation } from '@plinth/machinery';
import { PolicyRule, rbacGroup, RoleRef as ApiRoleRef, Subject as ApiSubject } from '@plinth/api';
import { isRbacGroup } from '@plinth/rbac';
import { goNull, goStruct } from '../shared/go-values';

// Subject and RoleRef as validation receives them: any field may be missing.
export type Subject = Partial<ApiSubject>;
export type RoleRef = Partial<ApiRoleRef>;

// validateRBACName is ValidateRBACName: names only need to be valid path segments.
export function validateRBACName(name: string): string[] {
  return validation.isValidPathSegmentName(name);
}

const len = (values: readonly unknown[] | null | undefined): number => values?.length ?? 0;

// validatePolicyRule is ValidatePolicyRule: a rule has verbs and covers either resources (with
// api groups) or non-resource URLs (cluster roles only), never both.
export function validatePolicyRule(rule: PolicyRule, isNamespaced: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (len(rule.verbs) === 0) errs.push(field.required(path.child('verbs'), 'verbs must contain at least one value'));
  if (len(rule.nonResourceURLs) > 0) {
    const urls = rule.nonResourceURLs as string[];
    if (isNamespaced) errs.push(field.invalid(path.child('nonResourceURLs'), urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (len(rule.apiGroups) > 0 || len(rule.resources) > 0 || len(rule.resourceNames) > 0) {
      errs.push(field.invalid(path.child('nonResourceURLs'), urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (len(rule.apiGroups) === 0) errs.push(field.required(path.child('apiGroups'), 'resource rules must supply at least one api group'));
  if (len(rule.resources) === 0) errs.push(field.required(path.child('resources'), 'resource rules must supply at least one resource'));
  return errs;
}

export function validateRules(rules: PolicyRule[] | null | undefined, isNamespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  (rules ?? []).forEach((rule, i) => errs.push(...validatePolicyRule(rule ?? {}, isNamespaced, newPath('rules').index(i))));
  return errs;
}

export interface ClusterRoleValidationOptions {
  allowInvalidLabelValueInSelector?: boolean;
}

// validateAggregationRule checks the selectors of a ClusterRole's aggregationRule.
export function validateAggregationRule(rule: { clusterRoleSelectors?: LabelSelector[] | null } | null | undefined, opts: ClusterRoleValidationOptions): FieldError[] {
  if (rule === null || rule === undefined) return [];
  const errs: FieldError[] = [];
  const selectorsPath = newPath('aggregationRule', 'clusterRoleSelectors');
  const selectors = rule.clusterRoleSelectors ?? [];
  if (selectors.length === 0) errs.push(field.required(selectorsPath, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
  selectors.forEach((selector, i) => {
    const path = selectorsPath.index(i);
    errs.push(...validateLabelSelector(selector ?? {}, { allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector }, path));
    try {
      labelSelectorAsSelector(selector ?? {});
    } catch {
      // The converted (nil) selector is what Kubernetes reports.
      errs.push(field.invalid(path, goNull, 'invalid label selector.'));
    }
  });
  return errs;
}

// labelSelectorsHaveInvalidLabelValue tells whether an old object's selectors predate the
// stricter label value checks, which then stay relaxed for its updates.
export function labelSelectorsHaveInvalidLabelValue(selectors: (LabelSelector | null | undefined)[]): boolean {
  return selectors.some((selector) => (selector?.matchExpressions ?? []).some((e) => (e.values ?? []).some((v) => validation.isValidLabelValue(v).length > 0)));
}

// validateRoleRef checks a binding's roleRef: the RBAC group, a Role or ClusterRole kind (only
// ClusterRole for a ClusterRoleBinding), and a name.
export function validateRoleRef(roleRef: RoleRef | null | undefined, isNamespaced: boolean): FieldError[] {
  const ref = roleRef ?? {};
  const errs: FieldError[] = [];
  const path = newPath('roleRef');
  if (!isRbacGroup(ref.apiGroup)) errs.push(field.notSupported(path.child('apiGroup'), ref.apiGroup ?? '', [rbacGroup]));
  const kinds = isNamespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  errs.push(...field.validateEnum(path.child('kind'), ref.kind ?? '', kinds));
  const name = ref.name ?? '';
  if (name.length === 0) errs.push(field.required(path.child('name')));
  else errs.push(...validateRBACName(name).map((msg) => field.invalid(path.child('name'), name, msg)));
  return errs;
}

// validateSubject is ValidateRoleBindingSubject.
export function validateSubject(subject: Subject, isNamespaced: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = subject.name ?? '';
  const apiGroup = subject.apiGroup ?? '';
  if (name.length === 0) errs.push(field.required(path.child('name')));
  switch (subject.kind) {
    case 'ServiceAccount':
      if (name.length > 0) errs.push(...validation.isDNS1123Subdomain(name).map((msg) => field.invalid(path.child('name'), name, msg)));
      if (apiGroup.length > 0) errs.push(field.notSupported(path.child('apiGroup'), apiGroup, ['']));
      if (!isNamespaced && !subject.namespace) errs.push(field.required(path.child('namespace')));
      break;
    case 'User':
    case 'Group':
      if (!isRbacGroup(apiGroup)) errs.push(field.notSupported(path.child('apiGroup'), apiGroup, [rbacGroup]));
      break;
    default:
      errs.push(field.notSupported(path.child('kind'), subject.kind ?? '', ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

export function validateSubjects(subjects: Subject[] | null | undefined, isNamespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  (subjects ?? []).forEach((subject, i) => errs.push(...validateSubject(subject ?? {}, isNamespaced, newPath('subjects').index(i))));
  return errs;
}

// sameApiGroup says two roleRef apiGroups name the same group: the RBAC group's two spellings
// (a binding written through the alias and updated through the platform group, or the other
// way round, or with apiGroup left to its default) are one group.
function sameApiGroup(a: string | undefined, b: string | undefined): boolean {
  return (a ?? '') === (b ?? '') || (isRbacGroup(a) && isRbacGroup(b));
}

// validateRoleRefUpdate: a binding's roleRef cannot change; delete and recreate instead.
export function validateRoleRefUpdate(roleRef: RoleRef | null | undefined, oldRoleRef: RoleRef | null | undefined): FieldError[] {
  const next = roleRef ?? {};
  const prev = oldRoleRef ?? {};
  if (sameApiGroup(next.apiGroup, prev.apiGroup) && (next.kind ?? '') === (prev.kind ?? '') && (next.name ?? '') === (prev.name ?? '')) return [];
  const value = goStruct('rbac.RoleRef', [
    ['APIGroup', goQuote(next.apiGroup ?? '')],
    ['Kind', goQuote(next.kind ?? '')],
    ['Name', goQuote(next.name ?? '')],
  ]);
  return [field.invalid(newPath('roleRef'), value, 'cannot change roleRef')];
}
