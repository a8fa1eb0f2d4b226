// Field selectors (`metadata.name=x,status.phase!=Running`) with the syntax, escaping and error
// messages of k8s.io/apimachinery/pkg/fields (v1.28), matched against a flat field set.
import { compareStrings, goQuote } from '../go/strings';
import { SelectorError } from './selector-error';

export type Fields = Readonly<Record<string, string>>;

export interface FieldRequirement {
  field: string;
  operator: '=' | '!=';
  value: string;
}

// FieldTransform maps a field label and value to the stored ones (Kubernetes' field label
// conversion); it throws to reject a label. An empty label and value drop the term.
export type FieldTransform = (field: string, value: string) => [field: string, value: string];

export interface FieldSelector {
  matches(fields: Fields): boolean;
  empty(): boolean;
  // requiresExactMatch gives the value the selector demands for a field with `=`, if any.
  requiresExactMatch(field: string): string | undefined;
  transform(fn: FieldTransform): FieldSelector;
  requirements(): FieldRequirement[];
  toString(): string;
}

function get(fields: Fields, field: string): string {
  return Object.prototype.hasOwnProperty.call(fields, field) ? fields[field] : '';
}

class HasTerm implements FieldSelector {
  constructor(
    private readonly field: string,
    private readonly value: string,
  ) {}
  matches(fields: Fields): boolean {
    return get(fields, this.field) === this.value;
  }
  empty(): boolean {
    return false;
  }
  requiresExactMatch(field: string): string | undefined {
    return field === this.field ? this.value : undefined;
  }
  transform(fn: FieldTransform): FieldSelector {
    const [field, value] = fn(this.field, this.value);
    return field === '' && value === '' ? fieldsEverything() : new HasTerm(field, value);
  }
  requirements(): FieldRequirement[] {
    return [{ field: this.field, operator: '=', value: this.value }];
  }
  toString(): string {
    return `${this.field}=${escapeFieldValue(this.value)}`;
  }
}

class NotHasTerm implements FieldSelector {
  constructor(
    private readonly field: string,
    private readonly value: string,
  ) {}
  matches(fields: Fields): boolean {
    return get(fields, this.field) !== this.value;
  }
  empty(): boolean {
    return false;
  }
  requiresExactMatch(): undefined {
    return undefined;
  }
  transform(fn: FieldTransform): FieldSelector {
    const [field, value] = fn(this.field, this.value);
    return field === '' && value === '' ? fieldsEverything() : new NotHasTerm(field, value);
  }
  requirements(): FieldRequirement[] {
    return [{ field: this.field, operator: '!=', value: this.value }];
  }
  toString(): string {
    return `${this.field}!=${escapeFieldValue(this.value)}`;
  }
}

class AndTerm implements FieldSelector {
  constructor(private readonly terms: readonly FieldSelector[]) {}
  matches(fields: Fields): boolean {
    return this.terms.every((t) => t.matches(fields));
  }
  empty(): boolean {
    return this.terms.every((t) => t.empty());
  }
  requiresExactMatch(field: string): string | undefined {
    for (const t of this.terms) {
      const value = t.requiresExactMatch(field);
      if (value !== undefined) return value;
    }
    return undefined;
  }
  transform(fn: FieldTransform): FieldSelector {
    return new AndTerm(this.terms.map((t) => t.transform(fn)).filter((t) => !t.empty()));
  }
  requirements(): FieldRequirement[] {
    return this.terms.flatMap((t) => t.requirements());
  }
  toString(): string {
    return this.terms.map((t) => t.toString()).join(',');
  }
}

class NothingSelector implements FieldSelector {
  matches(): boolean {
    return false;
  }
  empty(): boolean {
    return false;
  }
  requiresExactMatch(): undefined {
    return undefined;
  }
  transform(): FieldSelector {
    return this;
  }
  requirements(): FieldRequirement[] {
    return [];
  }
  toString(): string {
    return '';
  }
}

export function fieldsEverything(): FieldSelector {
  return new AndTerm([]);
}

export function fieldsNothing(): FieldSelector {
  return new NothingSelector();
}

export function oneTermEqualSelector(field: string, value: string): FieldSelector {
  return new HasTerm(field, value);
}

export function oneTermNotEqualSelector(field: string, value: string): FieldSelector {
  return new NotHasTerm(field, value);
}

export function andFieldSelectors(...selectors: FieldSelector[]): FieldSelector {
  return new AndTerm(selectors);
}

// fieldSelectorFromSet is fields.SelectorFromSet: field=value for every entry.
export function fieldSelectorFromSet(set: Fields | undefined): FieldSelector {
  if (set === undefined) return fieldsEverything();
  const terms = Object.entries(set).map(([f, v]) => new HasTerm(f, v));
  return terms.length === 1 ? terms[0] : new AndTerm(terms);
}

// escapeFieldValue is fields.EscapeValue: `\`, `,` and `=` get a backslash.
export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

// unescapeFieldValue is fields.UnescapeValue, with its error messages.
export function unescapeFieldValue(value: string): string {
  if (!/[\\,=]/.test(value)) return value;
  let out = '';
  let inSlash = false;
  for (const c of value) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') {
        throw new SelectorError(`invalid field selector: invalid escape sequence: \\${c}`);
      }
      out += c;
      inSlash = false;
    } else if (c === '\\') {
      inSlash = true;
    } else if (c === ',' || c === '=') {
      // Go prints the rune with %v, that is as its number.
      throw new SelectorError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else {
      out += c;
    }
  }
  if (inSlash) throw new SelectorError('invalid field selector: invalid escape sequence: \\');
  return out;
}

// splitTerms splits on commas that are not escaped; the backslashes stay in the terms.
function splitTerms(selector: string): string[] {
  if (selector.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

// termOperators are tried in this order at each position, so `==` never leaves a `=` in the value.
const termOperators = ['!=', '==', '='] as const;

function splitTerm(term: string): [string, string, string] | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of termOperators) {
      if (term.startsWith(op, i)) return [term.slice(0, i), op, term.slice(i + op.length)];
    }
  }
  return undefined;
}

// parseAndTransformFieldSelector is fields.ParseAndTransformSelector: terms sorted, values
// unescaped, then each term passed through the transform.
export function parseAndTransformFieldSelector(selector: string, fn: FieldTransform): FieldSelector {
  const items: FieldSelector[] = [];
  for (const part of splitTerms(selector).sort(compareStrings)) {
    if (part === '') continue;
    const split = splitTerm(part);
    if (!split) throw new SelectorError(`invalid selector: '${selector}'; can't understand '${part}'`);
    const [lhs, op, rhs] = split;
    const value = unescapeFieldValue(rhs);
    items.push(op === '!=' ? new NotHasTerm(lhs, value) : new HasTerm(lhs, value));
  }
  return items.length === 1 ? items[0].transform(fn) : new AndTerm(items).transform(fn);
}

// parseFieldSelector is fields.ParseSelector; the empty string selects everything.
export function parseFieldSelector(selector: string): FieldSelector {
  return parseAndTransformFieldSelector(selector, (field, value) => [field, value]);
}

// fieldSelectorFields lists the field labels a selector uses, each once, in selector order.
export function fieldSelectorFields(selector: FieldSelector): string[] {
  return [...new Set(selector.requirements().map((r) => r.field))];
}

// fieldLabelNotSupported is the message of the core field label conversions for an unknown label.
export function fieldLabelNotSupported(label: string): string {
  return `field label not supported: ${label}`;
}

// unknownMetaFieldSelector is the message of DefaultMetaV1FieldSelectorConversion, the field
// label conversion of the types that register none of their own.
export function unknownMetaFieldSelector(label: string): string {
  return `${goQuote(label)} is not a known field selector: only "metadata.name", "metadata.namespace"`;
}

// checkFieldSelectorFields throws a SelectorError naming the first label outside `supported`,
// in the words of the type's field label conversion (`refusal`).
export function checkFieldSelectorFields(selector: FieldSelector, supported: Iterable<string>, refusal: (label: string) => string = fieldLabelNotSupported): void {
  const allowed = new Set(supported);
  const unsupported = fieldSelectorFields(selector).find((f) => !allowed.has(f));
  if (unsupported !== undefined) throw new SelectorError(refusal(unsupported));
}
