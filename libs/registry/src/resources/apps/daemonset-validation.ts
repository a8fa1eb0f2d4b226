// DaemonSet validation with the paths and messages of pkg/apis/apps/validation (v1.28):
// ValidateDaemonSetSpec, the rolling-update parameters and the status checks.
import { field, FieldError, FieldPath, goQuote, labelSelectorAsSelector, newPath, validateLabelSelector, validation } from '@plinth/machinery';
import { DaemonSetSpec, DaemonSetStatus, IntOrString, RollingUpdateDaemonSet } from '@plinth/api';
import { validatePodTemplateSpec } from '../core/pod-validation';
import { goIntOrString, goIntOrStringText, goLabelSelector, goStringMap, goStruct } from '../shared/go-values';

export interface DaemonSetValidationOptions {
  allowInvalidLabelValueInSelector?: boolean;
}

function nonNegative(value: number, path: FieldPath): FieldError[] {
  return value < 0 ? [field.invalid(path, value, 'must be greater than or equal to 0')] : [];
}

const percentFmt = '[0-9]+%';
const percentRegexp = new RegExp(`^${percentFmt}$`);

// isValidPercent is validation.IsValidPercent.
function isValidPercent(value: string): string[] {
  if (percentRegexp.test(value)) return [];
  return [validation.regexError("a valid percent string must be a numeric string followed by an ending '%'", percentFmt, '1%', '93%')];
}

// validatePositiveIntOrPercent is ValidatePositiveIntOrPercent.
function validatePositiveIntOrPercent(value: IntOrString, path: FieldPath): FieldError[] {
  if (typeof value === 'string') return isValidPercent(value).map((msg) => field.invalid(path, goIntOrString(value), msg));
  return nonNegative(value, path);
}

function percentValue(value: IntOrString): number | undefined {
  if (typeof value !== 'string' || isValidPercent(value).length > 0) return undefined;
  return Number.parseInt(value.slice(0, -1), 10);
}

// intOrPercentValue is getIntOrPercentValue: a percentage's number, else IntOrString.IntValue().
function intOrPercentValue(value: IntOrString): number {
  const percent = percentValue(value);
  if (percent !== undefined) return percent;
  if (typeof value === 'number') return value;
  return /^[+-]?[0-9]+$/.test(value) ? Number.parseInt(value, 10) : 0;
}

function isNotMoreThan100Percent(value: IntOrString, path: FieldPath): FieldError[] {
  const percent = percentValue(value);
  if (percent === undefined || percent <= 100) return [];
  return [field.invalid(path, goIntOrString(value), 'must not be greater than 100%')];
}

// validateRollingUpdateDaemonSet: both values int-or-percent, at most 100%, and exactly one of
// maxSurge and maxUnavailable non-zero.
function validateRollingUpdateDaemonSet(rollingUpdate: RollingUpdateDaemonSet, path: FieldPath): FieldError[] {
  // A nil IntOrString converts to the zero value, the integer 0.
  const maxUnavailable = rollingUpdate.maxUnavailable ?? 0;
  const maxSurge = rollingUpdate.maxSurge ?? 0;
  const errs = [
    ...validatePositiveIntOrPercent(maxUnavailable, path.child('maxUnavailable')),
    ...validatePositiveIntOrPercent(maxSurge, path.child('maxSurge')),
    ...isNotMoreThan100Percent(maxUnavailable, path.child('maxUnavailable')),
    ...isNotMoreThan100Percent(maxSurge, path.child('maxSurge')),
  ];
  const hasUnavailable = intOrPercentValue(maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(maxSurge) !== 0;
  if (hasUnavailable && hasSurge) {
    errs.push(field.invalid(path.child('maxSurge'), goIntOrString(maxSurge), 'may not be set when maxUnavailable is non-zero'));
  } else if (!hasUnavailable && !hasSurge) {
    errs.push(field.required(path.child('maxUnavailable'), 'cannot be 0 when maxSurge is 0'));
  }
  return errs;
}

// strategyLiteral renders an apps.DaemonSetUpdateStrategy the way %#v does (a non-nil pointer
// prints as an address, which no client can rely on).
function strategyLiteral(strategy: NonNullable<DaemonSetSpec['updateStrategy']>): unknown {
  const rollingUpdate = strategy.rollingUpdate
    ? `&apps.RollingUpdateDaemonSet{MaxUnavailable:${goIntOrStringText(strategy.rollingUpdate.maxUnavailable ?? 0)}, MaxSurge:${goIntOrStringText(strategy.rollingUpdate.maxSurge ?? 0)}}`
    : '(*apps.RollingUpdateDaemonSet)(nil)';
  return goStruct('apps.DaemonSetUpdateStrategy', [
    ['Type', goQuote(strategy.type ?? '')],
    ['RollingUpdate', rollingUpdate],
  ]);
}

function validateUpdateStrategy(strategy: NonNullable<DaemonSetSpec['updateStrategy']>, path: FieldPath): FieldError[] {
  switch (strategy.type) {
    case 'OnDelete':
      return [];
    case 'RollingUpdate':
      if (!strategy.rollingUpdate) return [field.required(path.child('rollingUpdate'))];
      return validateRollingUpdateDaemonSet(strategy.rollingUpdate, path.child('rollingUpdate'));
    default:
      return [field.notSupported(path, strategyLiteral(strategy), ['RollingUpdate', 'OnDelete'])];
  }
}

// validateDaemonSetSpec is ValidateDaemonSetSpec; templateGeneration is the internal field kept
// in the deprecated.daemonset.template.generation annotation of apps/v1.
export function validateDaemonSetSpec(spec: DaemonSetSpec, templateGeneration: number, path: FieldPath, opts: DaemonSetValidationOptions): FieldError[] {
  const errs = validateLabelSelector(spec.selector, { allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector }, path.child('selector'));
  const labels = spec.template?.metadata?.labels;
  let matches: boolean | undefined;
  try {
    matches = labelSelectorAsSelector(spec.selector).matches(labels ?? {});
  } catch {
    matches = undefined;
  }
  if (matches === false) {
    errs.push(field.invalid(path.child('template', 'metadata', 'labels'), goStringMap(labels), '`selector` does not match template `labels`'));
  }
  const selector = spec.selector;
  if (selector && Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0) {
    errs.push(field.invalid(path.child('selector'), goLabelSelector(selector), 'empty selector is invalid for daemonset'));
  }
  const template = spec.template ?? {};
  errs.push(...validatePodTemplateSpec(template as Record<string, unknown>, path.child('template')));
  const restartPolicy = template.spec?.restartPolicy ?? '';
  if (restartPolicy !== 'Always') errs.push(field.notSupported(path.child('template', 'spec', 'restartPolicy'), restartPolicy, ['Always']));
  if (template.spec?.activeDeadlineSeconds !== undefined && template.spec?.activeDeadlineSeconds !== null) {
    errs.push(field.forbidden(path.child('template', 'spec', 'activeDeadlineSeconds'), 'activeDeadlineSeconds in DaemonSet is not Supported'));
  }
  errs.push(...nonNegative(spec.minReadySeconds ?? 0, path.child('minReadySeconds')));
  errs.push(...nonNegative(templateGeneration, path.child('templateGeneration')));
  errs.push(...validateUpdateStrategy(spec.updateStrategy ?? {}, path.child('updateStrategy')));
  if (spec.revisionHistoryLimit !== undefined && spec.revisionHistoryLimit !== null) {
    errs.push(...nonNegative(spec.revisionHistoryLimit, path.child('revisionHistoryLimit')));
  }
  return errs;
}

// validateDaemonSetStatus is ValidateDaemonSetStatusUpdate without ObjectMeta.
export function validateDaemonSetStatus(status: DaemonSetStatus | undefined, oldStatus: DaemonSetStatus | undefined): FieldError[] {
  const path = newPath('status');
  const s = status ?? {};
  const errs: FieldError[] = [];
  const counters = [
    'currentNumberScheduled',
    'numberMisscheduled',
    'desiredNumberScheduled',
    'numberReady',
    'observedGeneration',
    'updatedNumberScheduled',
    'numberAvailable',
    'numberUnavailable',
  ] as const;
  for (const name of counters) errs.push(...nonNegative(s[name] ?? 0, path.child(name)));
  if (s.collisionCount !== undefined && s.collisionCount !== null) errs.push(...nonNegative(s.collisionCount, path.child('collisionCount')));
  const next = s.collisionCount ?? undefined;
  const prev = oldStatus?.collisionCount ?? undefined;
  const decremented = (next === undefined && prev !== undefined) || (next !== undefined && prev !== undefined && next < prev);
  if (decremented) errs.push(field.invalid(path.child('collisionCount'), next ?? 0, 'cannot be decremented'));
  return errs;
}
