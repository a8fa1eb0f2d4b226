// metav1.LabelSelector ({matchLabels, matchExpressions}): conversion to a selector
// (LabelSelectorAsSelector) and API validation (metav1 validation.ValidateLabelSelector), v1.28.
import { childPath, FieldPath } from '../errors/field-path';
import { FieldError, forbidden, invalid, required } from '../errors/field';
import { compareStrings, goQuote } from '../go/strings';
import { validateLabelName, validateLabels } from '../validation/labels';
import { isValidLabelValue } from '../validation/names';
import {
  LabelRequirement,
  Labels,
  labelsEverything,
  labelsNothing,
  LabelsSelector,
  newLabelRequirement,
  SelectionOperator,
  selectorFromRequirements,
} from './label-requirement';
import { SelectorError } from './selector-error';

export const LabelSelectorOperator = {
  In: 'In',
  NotIn: 'NotIn',
  Exists: 'Exists',
  DoesNotExist: 'DoesNotExist',
} as const;
export type LabelSelectorOperator = (typeof LabelSelectorOperator)[keyof typeof LabelSelectorOperator];

export interface LabelSelectorRequirement {
  key: string;
  operator: LabelSelectorOperator | string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

const operatorFor: Record<string, SelectionOperator> = {
  In: SelectionOperator.In,
  NotIn: SelectionOperator.NotIn,
  Exists: SelectionOperator.Exists,
  DoesNotExist: SelectionOperator.DoesNotExist,
};

// labelSelectorAsSelector is metav1.LabelSelectorAsSelector: a null selector selects nothing, an
// empty one everything. Invalid keys, values or operators throw a SelectorError.
export function labelSelectorAsSelector(ps: LabelSelector | null | undefined): LabelsSelector {
  if (ps === null || ps === undefined) return labelsNothing();
  const matchLabels = Object.entries(ps.matchLabels ?? {}).sort(([a], [b]) => compareStrings(a, b));
  const expressions = ps.matchExpressions ?? [];
  if (matchLabels.length + expressions.length === 0) return labelsEverything();
  const requirements: LabelRequirement[] = matchLabels.map(([k, v]) => newLabelRequirement(k, SelectionOperator.Equals, [v]));
  for (const expr of expressions) {
    const op = Object.prototype.hasOwnProperty.call(operatorFor, expr.operator) ? operatorFor[expr.operator] : undefined;
    if (op === undefined) throw new SelectorError(`${goQuote(expr.operator)} is not a valid label selector operator`);
    const values = expr.values && expr.values.length > 0 ? expr.values : undefined;
    requirements.push(newLabelRequirement(expr.key, op, values));
  }
  return selectorFromRequirements(requirements);
}

// labelSelectorMatches converts the selector and matches it against a label set.
export function labelSelectorMatches(ps: LabelSelector | null | undefined, labels: Labels | undefined): boolean {
  return labelSelectorAsSelector(ps).matches(labels);
}

export interface LabelSelectorValidationOptions {
  // allowInvalidLabelValueInSelector keeps old objects with invalid values valid on update.
  allowInvalidLabelValueInSelector?: boolean;
}

export function validateLabelSelectorRequirement(
  sr: LabelSelectorRequirement,
  opts: LabelSelectorValidationOptions,
  path: FieldPath | null,
): FieldError[] {
  const errs: FieldError[] = [];
  const values = sr.values ?? [];
  switch (sr.operator) {
    case LabelSelectorOperator.In:
    case LabelSelectorOperator.NotIn:
      if (values.length === 0) errs.push(required(childPath(path, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case LabelSelectorOperator.Exists:
    case LabelSelectorOperator.DoesNotExist:
      if (values.length > 0) {
        errs.push(forbidden(childPath(path, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      }
      break;
    default:
      errs.push(invalid(childPath(path, 'operator'), sr.operator, 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(sr.key, childPath(path, 'key')));
  if (!opts.allowInvalidLabelValueInSelector) {
    values.forEach((v, i) => {
      errs.push(...isValidLabelValue(v).map((msg) => invalid(childPath(path, 'values').index(i), v, msg)));
    });
  }
  return errs;
}

// validateLabelSelector is metav1 validation.ValidateLabelSelector; a null selector is valid.
export function validateLabelSelector(
  ps: LabelSelector | null | undefined,
  opts: LabelSelectorValidationOptions,
  path: FieldPath | null,
): FieldError[] {
  if (ps === null || ps === undefined) return [];
  const errs = validateLabels(ps.matchLabels, childPath(path, 'matchLabels'));
  (ps.matchExpressions ?? []).forEach((expr, i) => {
    errs.push(...validateLabelSelectorRequirement(expr, opts, childPath(path, 'matchExpressions').index(i)));
  });
  return errs;
}
