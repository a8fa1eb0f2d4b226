// Kubernetes 1.28's validation expressions (TestValidationExpressions) as data: every rule a
// case lists as valid holds over its object, every rule it lists with a message fails with it.
import { expressionCases, outcome } from './testdata/expression-cases';

const valid = expressionCases.flatMap((c) => c.valid.map((rule) => ({ name: c.name, rule, c })));
const failing = expressionCases.flatMap((c) => Object.entries(c.errors).map(([rule, message]) => ({ name: c.name, rule, message, c })));

describe('Kubernetes validation expressions', () => {
  it('ports every case with a flat schema and object', () => {
    expect(expressionCases.length).toBe(25);
    expect(valid.length + failing.length).toBe(289);
  });

  it.each(valid)('$name: $rule holds', ({ c, rule }) => {
    expect(outcome(c, rule)).toBe('');
  });

  it.each(failing)('$name: $rule fails with $message', ({ c, rule, message }) => {
    expect(outcome(c, rule)).toContain(message);
  });
});
