import { KubeObject } from '@plinth/api';
import { StrategyContext } from '../../resource';
import {
  localSubjectAccessReviewBadRequest,
  localSubjectAccessReviewDefinition,
  selfSubjectAccessReviewDefinition,
  selfSubjectRulesReviewBadRequest,
  selfSubjectRulesReviewDefinition,
  subjectAccessReviewDefinition,
} from './index';

const ctx: StrategyContext = { featureGates: new Map(), now: 0 };

function review(kind: string, spec: Record<string, unknown>, metadata: KubeObject['metadata'] = {}): KubeObject {
  return { apiVersion: 'authorization.platform.io/v1', kind, metadata, spec };
}

function validate(def: typeof subjectAccessReviewDefinition, object: KubeObject): string[] {
  return def.strategy.validate(object, ctx).map((e) => e.toString());
}

describe('access review definitions', () => {
  it('are virtual create-only types of authorization.platform.io/v1', () => {
    for (const [def, resource, kind, namespaced] of [
      [subjectAccessReviewDefinition, 'subjectaccessreviews', 'SubjectAccessReview', false],
      [selfSubjectAccessReviewDefinition, 'selfsubjectaccessreviews', 'SelfSubjectAccessReview', false],
      [localSubjectAccessReviewDefinition, 'localsubjectaccessreviews', 'LocalSubjectAccessReview', true],
      [selfSubjectRulesReviewDefinition, 'selfsubjectrulesreviews', 'SelfSubjectRulesReview', false],
    ] as const) {
      expect(def).toMatchObject({ group: 'authorization.platform.io', version: 'v1', resource, kind, namespaced, verbs: ['create'], virtual: true });
      expect(def.schema.required).toEqual(['spec']);
      expect(def.schema.properties?.status).toBeDefined();
    }
    expect(subjectAccessReviewDefinition.singular).toBe('subjectaccessreview');
    expect(subjectAccessReviewDefinition.schema.properties?.status?.required).toEqual(['allowed']);
    expect(selfSubjectRulesReviewDefinition.schema.properties?.status?.required).toEqual(['resourceRules', 'nonResourceRules', 'incomplete']);
    expect(Object.keys(subjectAccessReviewDefinition.schema.properties?.spec?.properties ?? {})).toEqual([
      'resourceAttributes',
      'nonResourceAttributes',
      'user',
      'groups',
      'extra',
      'uid',
    ]);
  });
});

describe('SubjectAccessReview validation', () => {
  it('needs exactly one of resourceAttributes and nonResourceAttributes', () => {
    expect(validate(subjectAccessReviewDefinition, review('SubjectAccessReview', { user: 'jane' }))).toEqual([
      'spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
    ]);
    expect(
      validate(
        subjectAccessReviewDefinition,
        review('SubjectAccessReview', { user: 'jane', resourceAttributes: { verb: 'get', resource: 'pods' }, nonResourceAttributes: { path: '/healthz', verb: 'get' } }),
      ),
    ).toEqual(['spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/healthz", Verb:"get"}: cannot be specified in combination with resourceAttributes']);
  });

  it('needs a user or a group', () => {
    expect(validate(subjectAccessReviewDefinition, review('SubjectAccessReview', { resourceAttributes: { verb: 'get', resource: 'pods' } }))).toEqual([
      'spec.user: Invalid value: "": at least one of user or group must be specified',
    ]);
    expect(validate(subjectAccessReviewDefinition, review('SubjectAccessReview', { groups: ['devs'], resourceAttributes: { verb: 'get' } }))).toEqual([]);
  });

  it('needs empty metadata (managed fields aside)', () => {
    const spec = { user: 'jane', nonResourceAttributes: { path: '/healthz', verb: 'get' } };
    expect(validate(subjectAccessReviewDefinition, review('SubjectAccessReview', spec, { managedFields: [{ manager: 'kubectl' }] }))).toEqual([]);
    expect(validate(subjectAccessReviewDefinition, review('SubjectAccessReview', spec, { name: 'x' }))).toEqual([
      'metadata: Invalid value: v1.ObjectMeta{Name:"x", GenerateName:"", Namespace:"", SelfLink:"", UID:"", ResourceVersion:"", Generation:0, CreationTimestamp:time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC), DeletionTimestamp:<nil>, DeletionGracePeriodSeconds:(*int64)(nil), Labels:map[string]string(nil), Annotations:map[string]string(nil), OwnerReferences:[]v1.OwnerReference(nil), Finalizers:[]string(nil), ManagedFields:[]v1.ManagedFieldsEntry(nil)}: must be empty',
    ]);
  });
});

describe('SelfSubjectAccessReview validation', () => {
  it('needs exactly one kind of attributes and no user', () => {
    expect(validate(selfSubjectAccessReviewDefinition, review('SelfSubjectAccessReview', { resourceAttributes: { verb: 'list', resource: 'pods' } }))).toEqual([]);
    expect(validate(selfSubjectAccessReviewDefinition, review('SelfSubjectAccessReview', {}))).toEqual([
      'spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
    ]);
  });
});

describe('LocalSubjectAccessReview validation', () => {
  it('checks resources in the review namespace only', () => {
    const ok = review('LocalSubjectAccessReview', { user: 'jane', resourceAttributes: { namespace: 'team', verb: 'get', resource: 'pods' } }, { namespace: 'team' });
    expect(validate(localSubjectAccessReviewDefinition, ok)).toEqual([]);
    const other = review('LocalSubjectAccessReview', { user: 'jane', resourceAttributes: { namespace: 'other', verb: 'get' } }, { namespace: 'team' });
    expect(validate(localSubjectAccessReviewDefinition, other)).toEqual(['spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace']);
    const nonResource = review('LocalSubjectAccessReview', { user: 'jane', nonResourceAttributes: { path: '/x', verb: 'get' } }, { namespace: 'team' });
    expect(validate(localSubjectAccessReviewDefinition, nonResource)).toEqual([
      'spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: disallowed on this kind of request',
    ]);
    const named = review('LocalSubjectAccessReview', { user: 'jane', resourceAttributes: { namespace: 'team' } }, { namespace: 'team', name: 'n' });
    expect(validate(localSubjectAccessReviewDefinition, named)[0]).toMatch(/^metadata: Invalid value: v1\.ObjectMeta\{Name:"n", GenerateName:"", Namespace:"team", .*\}: must be empty except for namespace$/);
  });

  it('answers 400 when the path namespace differs', () => {
    const object = review('LocalSubjectAccessReview', {}, { namespace: 'team' });
    expect(localSubjectAccessReviewBadRequest(object, 'team')).toBeUndefined();
    expect(localSubjectAccessReviewBadRequest(object, 'other')).toBe('spec.resourceAttributes.namespace must match namespace: other');
  });
});

describe('SelfSubjectRulesReview', () => {
  it('has no field validation but needs a namespace', () => {
    const object = review('SelfSubjectRulesReview', {});
    expect(validate(selfSubjectRulesReviewDefinition, object)).toEqual([]);
    expect(selfSubjectRulesReviewBadRequest(object)).toBe('no namespace on request');
    expect(selfSubjectRulesReviewBadRequest(review('SelfSubjectRulesReview', { namespace: 'team' }))).toBeUndefined();
  });
});
