// Kubernetes 1.28's validation expressions (TestValidationExpressions) as data: every rule a
// case lists as valid holds over its object, every rule it lists with a message fails with it.
import { expressionCases, outcome } from './testdata/expression-cases';

// divergences are the rules Plinth does not yet decide as kube-apiserver does, and why.
const divergences: Record<string, string> = {
  // The parser words these syntax errors its own way, not ANTLR's.
  'escaping: self.true == 1': 'syntax error wording',
  'listMaps with unsupported identity characters in property names: self.objs[0][0].k! == \'1\'': 'syntax error wording',
};

const diverges = (name: string, rule: string) => divergences[name] !== undefined || divergences[`${name}: ${rule}`] !== undefined;
const rules = expressionCases.flatMap((c) => [
  ...c.valid.map((rule) => ({ name: c.name, rule, holds: (got: string) => got === '', c })),
  ...Object.entries(c.errors).map(([rule, message]) => ({ name: c.name, rule, holds: (got: string) => got !== '' && got.includes(message), c })),
]);
const agreeing = rules.filter((r) => !diverges(r.name, r.rule));
const diverging = rules.filter((r) => diverges(r.name, r.rule));

describe('Kubernetes validation expressions', () => {
  it('ports 45 cases, 600 rules, of which 598 are decided as kube-apiserver decides them', () => {
    expect(expressionCases.length).toBe(45);
    expect(rules.length).toBe(600);
    expect(agreeing.length).toBe(598);
  });

  it.each(agreeing)('$name: $rule', ({ c, rule, holds }) => {
    const got = outcome(c, rule);
    expect({ rule, got, holds: holds(got) }).toEqual({ rule, got, holds: true });
  });

  // Each divergence is checked to still diverge, so that this list stays true.
  it.each(diverging)('diverges on $name: $rule', ({ c, rule, holds }) => {
    expect(holds(outcome(c, rule))).toBe(false);
  });
});
