// The access reviews of authorization.platform.io/v1 as virtual types: created, answered by the
// authorizer (which fills status) and never stored. Validation follows the review REST
// handlers of pkg/registry/authorization (v1.28).
import { KubeObject } from '@plinth/api';
import { FieldError } from '@plinth/machinery';
import { ResourceDefinition, ResourceStrategy } from '../../resource';
import {
  localSubjectAccessReviewSchema,
  selfSubjectAccessReviewSchema,
  selfSubjectRulesReviewSchema,
  subjectAccessReviewSchema,
} from './review-schema';
import {
  SubjectAccessReviewSpec,
  validateLocalSubjectAccessReview,
  validateSelfSubjectAccessReview,
  validateSubjectAccessReview,
} from './review-validation';

const group = 'authorization.platform.io';

function reviewStrategy(validate: (spec: SubjectAccessReviewSpec | undefined, object: KubeObject) => FieldError[]): ResourceStrategy {
  return {
    validate(object: KubeObject): FieldError[] {
      return validate(object.spec as SubjectAccessReviewSpec | undefined, object);
    },
  };
}

function review(resource: string, kind: string, namespaced: boolean): Omit<ResourceDefinition, 'schema' | 'strategy'> {
  return {
    group,
    version: 'v1',
    resource,
    singular: resource.replace(/s$/, ''),
    kind,
    listKind: `${kind}List`,
    namespaced,
    verbs: ['create'],
    virtual: true,
    hasStatus: true,
  };
}

export const subjectAccessReviewDefinition: ResourceDefinition = {
  ...review('subjectaccessreviews', 'SubjectAccessReview', false),
  schema: subjectAccessReviewSchema,
  strategy: reviewStrategy((spec, object) => validateSubjectAccessReview(spec, object.metadata)),
};

export const selfSubjectAccessReviewDefinition: ResourceDefinition = {
  ...review('selfsubjectaccessreviews', 'SelfSubjectAccessReview', false),
  schema: selfSubjectAccessReviewSchema,
  strategy: reviewStrategy((spec, object) => validateSelfSubjectAccessReview(spec, object.metadata)),
};

export const localSubjectAccessReviewDefinition: ResourceDefinition = {
  ...review('localsubjectaccessreviews', 'LocalSubjectAccessReview', true),
  schema: localSubjectAccessReviewSchema,
  strategy: reviewStrategy((spec, object) => validateLocalSubjectAccessReview(spec, object.metadata)),
};

export const selfSubjectRulesReviewDefinition: ResourceDefinition = {
  ...review('selfsubjectrulesreviews', 'SelfSubjectRulesReview', false),
  schema: selfSubjectRulesReviewSchema,
  // The handler answers 400 "no namespace on request" for an empty spec.namespace
  // (selfSubjectRulesReviewBadRequest); there is no field validation.
  strategy: { validate: (): FieldError[] => [] },
};

// selfSubjectRulesReviewBadRequest is the message of the 400 the SelfSubjectRulesReview handler
// answers before evaluating rules, or undefined when the request is acceptable.
export function selfSubjectRulesReviewBadRequest(object: KubeObject): string | undefined {
  const namespace = (object.spec as { namespace?: string } | undefined)?.namespace;
  return namespace ? undefined : 'no namespace on request';
}

// localSubjectAccessReviewBadRequest is the 400 of the LocalSubjectAccessReview handler when the
// review's namespace is not the one in the request path (checked after validation).
export function localSubjectAccessReviewBadRequest(object: KubeObject, pathNamespace: string): string | undefined {
  if (!pathNamespace) return `namespace is required on this type: ${pathNamespace}`;
  if (pathNamespace !== object.metadata.namespace) return `spec.resourceAttributes.namespace must match namespace: ${pathNamespace}`;
  return undefined;
}
