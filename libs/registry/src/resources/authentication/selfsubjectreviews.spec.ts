import { StrategyContext } from '../../resource';
import { selfSubjectReviewDefinitions } from './index';

describe('SelfSubjectReview', () => {
  it('is served as v1, v1beta1 (beta) and v1alpha1 (alpha) of authentication.platform.io', () => {
    expect(selfSubjectReviewDefinitions.map((d) => [d.group, d.version, d.stability])).toEqual([
      ['authentication.platform.io', 'v1', 'stable'],
      ['authentication.platform.io', 'v1beta1', 'beta'],
      ['authentication.platform.io', 'v1alpha1', 'alpha'],
    ]);
    for (const def of selfSubjectReviewDefinitions) {
      expect(def).toMatchObject({ resource: 'selfsubjectreviews', kind: 'SelfSubjectReview', namespaced: false, verbs: ['create'], virtual: true });
      expect(def.schema.properties?.spec).toBeUndefined();
      expect(Object.keys(def.schema.properties?.status?.properties?.userInfo?.properties ?? {})).toEqual(['username', 'uid', 'groups', 'extra']);
      expect(def.schema.ref).toBe(`io.k8s.api.authentication.${def.version}.SelfSubjectReview`);
    }
  });

  it('accepts any request body', () => {
    const ctx: StrategyContext = { featureGates: new Map(), now: 0 };
    const [v1] = selfSubjectReviewDefinitions;
    expect(v1.strategy.validate({ apiVersion: 'authentication.platform.io/v1', kind: 'SelfSubjectReview', metadata: {} }, ctx)).toEqual([]);
  });
});
