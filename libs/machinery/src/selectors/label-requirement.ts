// Label requirements and selectors of k8s.io/apimachinery/pkg/labels: what a parsed label
// selector is, how it matches a label set and how it prints.
import { childPath, FieldPath } from '../errors/field-path';
import { FieldError, GoLiteral, invalid, notSupported, toAggregate } from '../errors/field';
import { compareStrings } from '../go/strings';
import { isQualifiedName, isValidLabelValue } from '../validation/names';
import { SelectorError } from './selector-error';

// SelectionOperator values are selection.Operator's.
export const SelectionOperator = {
  DoesNotExist: '!',
  Equals: '=',
  DoubleEquals: '==',
  In: 'in',
  NotEquals: '!=',
  NotIn: 'notin',
  Exists: 'exists',
  GreaterThan: 'gt',
  LessThan: 'lt',
} as const;
export type SelectionOperator = (typeof SelectionOperator)[keyof typeof SelectionOperator];

const Op = SelectionOperator;
export const binaryOperators: readonly string[] = [Op.In, Op.NotIn, Op.Equals, Op.DoubleEquals, Op.NotEquals, Op.GreaterThan, Op.LessThan];
const validRequirementOperators: readonly string[] = [...binaryOperators, Op.Exists, Op.DoesNotExist];

export type Labels = Readonly<Record<string, string>>;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

// parseInt64 is strconv.ParseInt(s, 10, 64); undefined where Go returns an error.
export function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n < INT64_MIN || n > INT64_MAX ? undefined : n;
}

function has(labels: Labels | undefined, key: string): boolean {
  return labels !== undefined && labels !== null && Object.prototype.hasOwnProperty.call(labels, key);
}

export function validateLabelKey(key: string, path: FieldPath | null): FieldError | undefined {
  const errs = isQualifiedName(key);
  return errs.length > 0 ? invalid(path, key, errs.join('; ')) : undefined;
}

function validateLabelValue(key: string, value: string, path: FieldPath): FieldError | undefined {
  const errs = isValidLabelValue(value);
  return errs.length > 0 ? invalid(path.key(key), value, errs.join('; ')) : undefined;
}

// stringSlice prints a values list as the []string Go would have printed.
function stringSlice(values: readonly string[] | undefined): unknown {
  return values === undefined ? new GoLiteral('[]string(nil)') : values;
}

export class LabelRequirement {
  constructor(
    readonly key: string,
    readonly operator: SelectionOperator,
    readonly values: readonly string[],
  ) {}

  matches(labels: Labels | undefined): boolean {
    switch (this.operator) {
      case Op.In:
      case Op.Equals:
      case Op.DoubleEquals:
        return has(labels, this.key) && this.values.includes((labels as Labels)[this.key]);
      case Op.NotIn:
      case Op.NotEquals:
        return !has(labels, this.key) || !this.values.includes((labels as Labels)[this.key]);
      case Op.Exists:
        return has(labels, this.key);
      case Op.DoesNotExist:
        return !has(labels, this.key);
      case Op.GreaterThan:
      case Op.LessThan: {
        if (!has(labels, this.key) || this.values.length !== 1) return false;
        const actual = parseInt64((labels as Labels)[this.key]);
        const bound = parseInt64(this.values[0]);
        if (actual === undefined || bound === undefined) return false;
        return this.operator === Op.GreaterThan ? actual > bound : actual < bound;
      }
      default:
        return false;
    }
  }

  toString(): string {
    let s = this.operator === Op.DoesNotExist ? `!${this.key}` : this.key;
    switch (this.operator) {
      case Op.Exists:
      case Op.DoesNotExist:
        return s;
      case Op.In:
        s += ' in ';
        break;
      case Op.NotIn:
        s += ' notin ';
        break;
      case Op.GreaterThan:
        s += '>';
        break;
      case Op.LessThan:
        s += '<';
        break;
      default:
        s += this.operator;
    }
    const values = this.values.length === 1 ? this.values[0] : [...this.values].sort(compareStrings).join(',');
    return this.operator === Op.In || this.operator === Op.NotIn ? `${s}(${values})` : s + values;
  }
}

// newLabelRequirement is labels.NewRequirement: it validates the key, the operator and the values
// and throws a SelectorError carrying the aggregated field errors. `values` undefined stands for
// a nil slice.
export function newLabelRequirement(
  key: string,
  operator: string,
  values: readonly string[] | undefined,
  path: FieldPath | null = null,
): LabelRequirement {
  const errs: FieldError[] = [];
  const keyErr = validateLabelKey(key, childPath(path, 'key'));
  if (keyErr) errs.push(keyErr);
  const vals = values ?? [];
  const valuePath = childPath(path, 'values');
  switch (operator) {
    case Op.In:
    case Op.NotIn:
      if (vals.length === 0) errs.push(invalid(valuePath, stringSlice(values), "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case Op.Equals:
    case Op.DoubleEquals:
    case Op.NotEquals:
      if (vals.length !== 1) errs.push(invalid(valuePath, stringSlice(values), 'exact-match compatibility requires one single value'));
      break;
    case Op.Exists:
    case Op.DoesNotExist:
      if (vals.length !== 0) errs.push(invalid(valuePath, stringSlice(values), 'values set must be empty for exists and does not exist'));
      break;
    case Op.GreaterThan:
    case Op.LessThan:
      if (vals.length !== 1) errs.push(invalid(valuePath, stringSlice(values), "for 'Gt', 'Lt' operators, exactly one value is required"));
      vals.forEach((v, i) => {
        if (parseInt64(v) === undefined) errs.push(invalid(valuePath.index(i), v, "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
    default:
      errs.push(notSupported(childPath(path, 'operator'), operator, validRequirementOperators));
  }
  vals.forEach((v, i) => {
    const err = validateLabelValue(key, v, valuePath.index(i));
    if (err) errs.push(err);
  });
  const message = toAggregate(errs);
  if (message !== undefined) throw new SelectorError(message, errs);
  return new LabelRequirement(key, operator as SelectionOperator, [...vals]);
}

// LabelsSelector is labels.Selector: a conjunction of requirements over a label set.
export interface LabelsSelector {
  matches(labels: Labels | undefined): boolean;
  // empty is true when the selector does not restrict the selection space.
  empty(): boolean;
  toString(): string;
  add(...requirements: LabelRequirement[]): LabelsSelector;
  // requirements is undefined for a selector that selects nothing.
  requirements(): readonly LabelRequirement[] | undefined;
  // requiresExactMatch gives the single value the selector demands for a label, if any.
  requiresExactMatch(label: string): string | undefined;
}

function sortByKey(requirements: readonly LabelRequirement[]): LabelRequirement[] {
  return [...requirements].sort((a, b) => compareStrings(a.key, b.key));
}

class RequirementsSelector implements LabelsSelector {
  constructor(private readonly reqs: readonly LabelRequirement[]) {}

  matches(labels: Labels | undefined): boolean {
    return this.reqs.every((r) => r.matches(labels));
  }
  empty(): boolean {
    return this.reqs.length === 0;
  }
  toString(): string {
    return this.reqs.map((r) => r.toString()).join(',');
  }
  add(...requirements: LabelRequirement[]): LabelsSelector {
    return new RequirementsSelector(sortByKey([...this.reqs, ...requirements]));
  }
  requirements(): readonly LabelRequirement[] {
    return this.reqs;
  }
  requiresExactMatch(label: string): string | undefined {
    const r = this.reqs.find((req) => req.key === label);
    if (!r) return undefined;
    const exact = r.operator === Op.Equals || r.operator === Op.DoubleEquals || r.operator === Op.In;
    return exact && r.values.length === 1 ? r.values[0] : undefined;
  }
}

class NothingSelector implements LabelsSelector {
  matches(): boolean {
    return false;
  }
  empty(): boolean {
    return false;
  }
  toString(): string {
    return '';
  }
  add(): LabelsSelector {
    return this;
  }
  requirements(): undefined {
    return undefined;
  }
  requiresExactMatch(): undefined {
    return undefined;
  }
}

const everything: LabelsSelector = new RequirementsSelector([]);
const nothing: LabelsSelector = new NothingSelector();

// labelsEverything is labels.Everything(): matches every label set.
export function labelsEverything(): LabelsSelector {
  return everything;
}

// labelsNothing is labels.Nothing(): matches no label set.
export function labelsNothing(): LabelsSelector {
  return nothing;
}

// selectorFromRequirements builds a selector from requirements, sorted by key as Kubernetes does.
export function selectorFromRequirements(requirements: readonly LabelRequirement[]): LabelsSelector {
  return new RequirementsSelector(sortByKey(requirements));
}

// labelSelectorFromSet is labels.SelectorFromSet: key=value for every entry, without validation.
export function labelSelectorFromSet(set: Labels | undefined): LabelsSelector {
  const entries = Object.entries(set ?? {});
  return selectorFromRequirements(entries.map(([k, v]) => new LabelRequirement(k, Op.Equals, [v])));
}
