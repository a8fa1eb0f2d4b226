// Kubernetes 1.28's runtime costs (TestCelCostStability, every schema a custom resource's root)
// as data: the cost validation charges each rule over its object. Plinth charges what ran, as
// cel-go's cost tracker does, with the sizes of the value's nodes (each element of a list or map
// sized as its largest sibling), where the costs differ: cost-stability-divergences.json holds
// Plinth's cost for those rules, checked too, so that the list stays true; -1 would mark a rule
// Plinth does not compile.
import { CompileError } from './program';
import { ruleRuntimeCost } from './rules';
import { JSONSchemaProps } from './schema';
import data from './testdata/cost-stability.json';
import divergences from './testdata/cost-stability-divergences.json';

interface CostCase {
  name: string;
  schema: JSONSchemaProps;
  object: unknown;
  costs?: Record<string, number>;
}

const plinthCosts = divergences as Record<string, number>;
const rules = (data as unknown as CostCase[]).flatMap((c) => Object.entries(c.costs ?? {}).map(([rule, cost]) => ({ key: `${c.name}: ${rule}`, c, rule, cost })));
const agreeing = rules.filter((r) => plinthCosts[r.key] === undefined);
const diverging = rules.filter((r) => plinthCosts[r.key] !== undefined);

const cost = (c: CostCase, rule: string): number => {
  try {
    return ruleRuntimeCost(c.schema, c.object, rule, true);
  } catch (err) {
    if (err instanceof CompileError) return -1;
    throw err;
  }
};

describe('Kubernetes runtime rule costs', () => {
  it('ports 241 rule costs of 39 cases, of which 239 are charged as kube-apiserver charges them', () => {
    expect(rules.length).toBe(241);
    expect(agreeing.length).toBe(239);
  });

  it.each(agreeing)('$key costs $cost', ({ c, rule, cost: want }) => {
    expect(cost(c, rule)).toBe(want);
  });

  it.each(diverging)('$key costs Plinth otherwise', ({ key, c, rule, cost: want }) => {
    const got = cost(c, rule);
    expect(got).toBe(plinthCosts[key]);
    expect(got).not.toBe(want);
  });
});
