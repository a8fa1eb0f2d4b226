import { goQuote } from './strings';

// GoLiteral is a value that prints as the given text, for the few places where Kubernetes prints a
// Go value that has no JSON counterpart (for example a nil slice, `[]string(nil)`).
export class GoLiteral {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

// formatGoFloat is Go's %v for a float64 (%g with the shortest precision).
export function formatGoFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa, expText] = n.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(n);
}

// formatGoValue prints a bad value the way field.Error.ErrorBody does in Kubernetes v1.28: strings
// quoted (%q), numbers and booleans plain (%v), nil as null, string slices as %#v.
export function formatGoValue(value: unknown): string {
  if (value instanceof GoLiteral) return value.text;
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string':
      return goQuote(value);
    case 'number':
      return Number.isInteger(value) ? String(value) : formatGoFloat(value);
    case 'boolean':
    case 'bigint':
      return String(value);
  }
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    return `[]string{${value.map((v: string) => goQuote(v)).join(', ')}}`;
  }
  return JSON.stringify(value) ?? String(value);
}
