// SelfSubjectReview of authentication.platform.io (v1, v1beta1 and v1alpha1 in 1.28): a
// virtual type whose status.userInfo the server fills with the requester's identity. It has no
// spec and no validation (pkg/registry/authentication/selfsubjectreview).
import { kindSchema, s, Schema } from '@plinth/api';
import { FieldError } from '@plinth/machinery';
import { ResourceDefinition, ResourceStrategy } from '../../resource';

export const userInfoSchema: Schema = s.object(
  {
    username: s.string('The name that uniquely identifies this user among all active users.'),
    uid: s.string('A unique value that identifies this user across time.'),
    groups: s.list(s.string(), 'The names of groups this user is a part of.'),
    extra: s.map(s.list(s.string()), { description: 'Any additional information provided by the authenticator.' }),
  },
  { ref: 'io.k8s.api.authentication.v1.UserInfo' },
);

function selfSubjectReviewSchema(version: string): Schema {
  return kindSchema(
    {
      status: {
        ...s.object(
          { userInfo: { ...userInfoSchema, description: 'User attributes of the user making this request.' } },
          { ref: `io.k8s.api.authentication.${version}.SelfSubjectReviewStatus` },
        ),
        description: 'Status is filled in by the server with the user attributes.',
      },
    },
    'SelfSubjectReview contains the user information that the kube-apiserver has about the user making this request. When using impersonation, users will receive the user info of the user being impersonated.  If impersonation or request header authentication is used, any extra keys will have their case ignored and returned as lowercase.',
    { ref: `io.k8s.api.authentication.${version}.SelfSubjectReview` },
  );
}

const selfSubjectReviewStrategy: ResourceStrategy = {
  validate: (): FieldError[] => [],
};

function selfSubjectReview(version: string, stability: 'alpha' | 'beta' | 'stable'): ResourceDefinition {
  return {
    group: 'authentication.platform.io',
    version,
    resource: 'selfsubjectreviews',
    singular: 'selfsubjectreview',
    kind: 'SelfSubjectReview',
    listKind: 'SelfSubjectReviewList',
    namespaced: false,
    verbs: ['create'],
    virtual: true,
    hasStatus: true,
    stability,
    schema: selfSubjectReviewSchema(version),
    strategy: selfSubjectReviewStrategy,
  };
}

export const selfSubjectReviewV1Definition = selfSubjectReview('v1', 'stable');
// selfSubjectReviewV1beta1Definition is a beta added after 1.24: kube-apiserver 1.28 serves it
// only when --runtime-config asks (authentication.k8s.io/v1beta1=true, or api/beta=true).
export const selfSubjectReviewV1beta1Definition: ResourceDefinition = selfSubjectReview('v1beta1', 'beta');
export const selfSubjectReviewV1alpha1Definition = selfSubjectReview('v1alpha1', 'alpha');

// selfSubjectReviewDefinitions lists the served versions, preferred first.
export const selfSubjectReviewDefinitions: ResourceDefinition[] = [selfSubjectReviewV1Definition, selfSubjectReviewV1beta1Definition, selfSubjectReviewV1alpha1Definition];
