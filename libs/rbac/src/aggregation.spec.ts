// After pkg/controller/clusterroleaggregation/clusterroleaggregation_controller_test.go.
import { aggregateClusterRole, pendingAggregations } from './aggregation';
import { bootstrapClusterRoles } from './bootstrap-policy';
import { rule } from './spec-fixtures';
import { ClusterRole, PolicyRule } from './types';

function role(name: string, labels: Record<string, string>, rules: PolicyRule[] | null, selectors?: ClusterRole['aggregationRule']): ClusterRole {
  const r: ClusterRole = { kind: 'ClusterRole', metadata: { name, labels }, rules };
  if (selectors !== undefined) r.aggregationRule = selectors;
  return r;
}

const sel = (...labels: string[]) => ({ clusterRoleSelectors: labels.map((l) => ({ matchLabels: { [l]: 'true' } })) });

describe('aggregateClusterRole', () => {
  const a = rule('get', '""', 'pods');
  const b = rule('list', '""', 'pods');
  const c = rule('create', 'batch', 'jobs');

  it.each<[string, ClusterRole, ClusterRole[], PolicyRule[] | null]>([
    ['no aggregation rule', role('plain', {}, [a]), [role('x', { agg: 'true' }, [b])], null],
    ['no match and no rules', role('agg', {}, null, sel('agg')), [role('x', {}, [b])], null],
    ['one match', role('agg', {}, null, sel('agg')), [role('x', { agg: 'true' }, [b])], [b]],
    ['matches in name order', role('agg', {}, null, sel('agg')), [role('z', { agg: 'true' }, [c]), role('m', { agg: 'true' }, [a, b])], [a, b, c]],
    ['rules once', role('agg', {}, null, sel('agg')), [role('x', { agg: 'true' }, [a, b]), role('y', { agg: 'true' }, [b, a, c])], [a, b, c]],
    ['already aggregated', role('agg', {}, [a, b], sel('agg')), [role('x', { agg: 'true' }, [a, b])], null],
    ['same rules in another order', role('agg', {}, [b, a], sel('agg')), [role('x', { agg: 'true' }, [a, b])], [a, b]],
    ['the role itself is left out', role('agg', { agg: 'true' }, [c], sel('agg')), [role('agg', { agg: 'true' }, [c]), role('x', { agg: 'true' }, [a])], [a]],
    [
      'selectors in order',
      role('agg', {}, null, sel('second', 'first')),
      [role('a', { first: 'true' }, [a]), role('b', { second: 'true' }, [b]), role('c', { first: 'true', second: 'true' }, [c])],
      [b, c, a],
    ],
    ['an empty selector list clears the rules', role('agg', {}, [a], { clusterRoleSelectors: [] }), [role('x', { agg: 'true' }, [b])], []],
    [
      'matchExpressions',
      role('agg', {}, null, { clusterRoleSelectors: [{ matchExpressions: [{ key: 'tier', operator: 'In', values: ['gold', 'silver'] }] }] }),
      [role('x', { tier: 'gold' }, [a]), role('y', { tier: 'bronze' }, [b]), role('z', { tier: 'silver' }, [c])],
      [a, c],
    ],
    ['an empty selector selects every role', role('agg', {}, null, { clusterRoleSelectors: [{}] }), [role('x', {}, [a]), role('y', { any: 'thing' }, [b])], [a, b]],
  ])('%s', (_name, target, others, want) => {
    expect(aggregateClusterRole(target, [target, ...others])).toEqual(want);
  });

  it('fails on a selector that cannot be used', () => {
    const target = role('agg', {}, null, { clusterRoleSelectors: [{ matchExpressions: [{ key: 'k', operator: 'Near' }] }] });
    expect(() => aggregateClusterRole(target, [target])).toThrow('"Near" is not a valid label selector operator');
    expect(pendingAggregations([target])).toEqual([{ name: 'agg', error: '"Near" is not a valid label selector operator' }]);
  });
});

describe('bootstrap aggregation', () => {
  // converge runs the controller until nothing changes, as its requeues do.
  function converge(roles: ClusterRole[]): Map<string, ClusterRole> {
    const byName = new Map(roles.map((r) => [r.metadata.name ?? '', r]));
    for (let i = 0; i < 10; i++) {
      const pending = pendingAggregations([...byName.values()]);
      if (pending.length === 0) return byName;
      for (const p of pending) if ('rules' in p) byName.set(p.name, { ...byName.get(p.name)!, rules: p.rules });
    }
    throw new Error('aggregation did not converge');
  }

  it('builds view, edit and admin from the system:aggregate-to-* roles', () => {
    const roles = converge(bootstrapClusterRoles());
    const rulesOf = (name: string) => roles.get(name)?.rules ?? [];
    expect(rulesOf('view')).toEqual(rulesOf('system:aggregate-to-view'));
    // edit's selector matches system:aggregate-to-edit and view, in name order
    expect(rulesOf('edit')).toEqual([...rulesOf('system:aggregate-to-edit'), ...rulesOf('view')]);
    expect(rulesOf('admin')).toEqual([...rulesOf('edit'), ...rulesOf('system:aggregate-to-admin')]);
    expect(pendingAggregations([...roles.values()])).toEqual([]);
  });

  it('adds a custom role labelled aggregate-to-view to view, edit and admin', () => {
    const crd = role('widgets-view', { 'rbac.authorization.platform.io/aggregate-to-view': 'true' }, [rule('get,list,watch', 'example.com', 'widgets')]);
    const roles = converge([...bootstrapClusterRoles(), crd]);
    for (const name of ['view', 'edit', 'admin']) expect(roles.get(name)?.rules).toContainEqual(crd.rules![0]);
    expect(roles.get('system:aggregate-to-edit')?.rules).not.toContainEqual(crd.rules![0]);
  });
});
