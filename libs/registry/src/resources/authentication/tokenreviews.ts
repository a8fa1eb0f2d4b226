// TokenReview of authentication.platform.io/v1: a virtual type whose status says whom the
// server's own authenticators take spec.token for (pkg/registry/authentication/tokenreview).
// Only a missing token is refused (400, tokenReviewBadRequest); there is no field validation.
import { KubeObject, kindSchema, s } from '@plinth/api';
import { FieldError } from '@plinth/machinery';
import { ResourceDefinition } from '../../resource';
import { userInfoSchema } from './selfsubjectreviews';

const tokenReviewSchema = kindSchema(
  {
    spec: {
      ...s.object(
        {
          token: s.string('Token is the opaque bearer token.'),
          audiences: s.array(s.string(), {
            description:
              'Audiences is a list of the identifiers that the resource server presented with the token identifies as. Audience-aware token authenticators will verify that the token was intended for at least one of the audiences in this list. If no audiences are provided, the audience will default to the audience of the Kubernetes apiserver.',
          }),
        },
        { ref: 'io.k8s.api.authentication.v1.TokenReviewSpec' },
      ),
      description: 'Spec holds information about the request being evaluated',
    },
    status: {
      ...s.object(
        {
          audiences: s.array(s.string(), {
            description:
              'Audiences are audience identifiers chosen by the authenticator that are compatible with both the TokenReview and token. An identifier is any identifier in the intersection of the TokenReviewSpec audiences and the token\'s audiences. A client of the TokenReview API that sets the spec.audiences field should validate that a compatible audience identifier is returned in the status.audiences field to ensure that the TokenReview server is audience aware. If a TokenReview returns an empty status.audience field where status.authenticated is "true", the token is valid against the audience of the Kubernetes API server.',
          }),
          authenticated: s.bool('Authenticated indicates that the token was associated with a known user.'),
          error: s.string("Error indicates that the token couldn't be checked"),
          user: { ...userInfoSchema, description: 'User is the UserInfo associated with the provided token.' },
        },
        { ref: 'io.k8s.api.authentication.v1.TokenReviewStatus' },
      ),
      description: 'Status is filled in by the server and indicates whether the request can be authenticated.',
    },
  },
  'TokenReview attempts to authenticate a token to a known user. Note: TokenReview requests may be cached by the webhook token authenticator plugin in the kube-apiserver.',
  { ref: 'io.k8s.api.authentication.v1.TokenReview', required: ['spec'] },
);

// tokenReviewBadRequest is the message of the 400 a TokenReview without a token gets, or null.
export function tokenReviewBadRequest(review: KubeObject): string | null {
  const token = (review.spec as { token?: unknown } | undefined)?.token;
  return typeof token === 'string' && token !== '' ? null : 'token is required for TokenReview in authentication';
}

export const tokenReviewDefinition: ResourceDefinition = {
  group: 'authentication.platform.io',
  version: 'v1',
  resource: 'tokenreviews',
  singular: 'tokenreview',
  kind: 'TokenReview',
  listKind: 'TokenReviewList',
  namespaced: false,
  verbs: ['create'],
  virtual: true,
  hasStatus: true,
  schema: tokenReviewSchema,
  strategy: { validate: (): FieldError[] => [] },
};
