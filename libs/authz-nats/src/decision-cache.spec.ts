import { AuthorizationResult, nonResourceAttributes, resourceAttributes } from '@plinth/rbac';
import { FakeClock } from '@plinth/testing';
import { DecisionCache, decisionKey } from './decision-cache';

const allow = (): AuthorizationResult => ({ decision: 'Allow', reason: 'RBAC: allowed by test', evaluationError: '', resolutionErrors: [] });
const noOpinion = (): AuthorizationResult => ({ decision: 'NoOpinion', reason: '', evaluationError: '', resolutionErrors: [] });

describe('DecisionCache', () => {
  let clock: FakeClock;
  let cache: DecisionCache;

  beforeEach(() => {
    clock = new FakeClock();
    cache = new DecisionCache({ allowedTtlMs: 10_000, deniedTtlMs: 1_000, maxEntries: 3, clock });
  });

  it('keeps allowed decisions longer than the others', () => {
    cache.set('a', allow(), cache.generation);
    cache.set('n', noOpinion(), cache.generation);
    clock.advance(999);
    expect(cache.get('n')?.decision).toBe('NoOpinion');
    clock.advance(1);
    expect(cache.get('n')).toBeUndefined();
    clock.advance(8_999);
    expect(cache.get('a')?.decision).toBe('Allow');
    clock.advance(1);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps nothing with a lifetime of 0', () => {
    const none = new DecisionCache({ allowedTtlMs: 0, deniedTtlMs: 0, maxEntries: 3, clock });
    none.set('a', allow(), none.generation);
    expect(none.get('a')).toBeUndefined();
  });

  it('refuses a decision asked before the last clear', () => {
    const askedAt = cache.generation;
    cache.clear();
    cache.set('a', allow(), askedAt);
    expect(cache.get('a')).toBeUndefined();
    cache.set('a', allow(), cache.generation);
    expect(cache.get('a')).toBeDefined();
  });

  it('keeps its decisions but refuses answers asked before the connection was lost', () => {
    cache.set('a', allow(), cache.generation);
    const askedAt = cache.generation;
    cache.forgetQuestionsInFlight();
    cache.set('b', allow(), askedAt);
    expect(cache.get('a')?.decision).toBe('Allow');
    expect(cache.get('b')).toBeUndefined();
  });

  it('drops the oldest decision beyond its bound', () => {
    for (const key of ['a', 'b', 'c', 'd']) cache.set(key, allow(), cache.generation);
    expect(cache.size).toBe(3);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('d')).toBeDefined();
  });

  it('shares frozen decisions', () => {
    cache.set('a', allow(), cache.generation);
    const result = cache.get('a') as AuthorizationResult;
    expect(Object.isFrozen(result)).toBe(true);
    expect(Object.isFrozen(result.resolutionErrors)).toBe(true);
  });
});

describe('decisionKey', () => {
  const user = { name: 'alice', uid: '1', groups: ['g1', 'g2'], extra: { a: ['1'], b: ['2'] } };
  const attrs = resourceAttributes({ user, verb: 'get', resource: 'pods', namespace: 'default' });

  it('tells apart questions that differ in any attribute', () => {
    const keys = [
      attrs,
      { ...attrs, user: { ...user, name: 'bob' } },
      { ...attrs, user: { ...user, uid: '2' } },
      { ...attrs, user: { ...user, groups: ['g1'] } },
      { ...attrs, user: { ...user, extra: { a: ['1'], b: ['3'] } } },
      { ...attrs, verb: 'list' },
      { ...attrs, namespace: '' },
      { ...attrs, apiGroup: 'apps' },
      { ...attrs, apiVersion: 'v1' },
      { ...attrs, resource: 'secrets' },
      { ...attrs, subresource: 'log' },
      { ...attrs, name: 'web' },
      nonResourceAttributes({ user, verb: 'get', path: '/healthz' }),
      nonResourceAttributes({ user, verb: 'get', path: '/livez' }),
    ].map(decisionKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('ignores the order of extra keys', () => {
    expect(decisionKey({ ...attrs, user: { ...user, extra: { b: ['2'], a: ['1'] } } })).toBe(decisionKey(attrs));
  });
});
