// Authorizer is the port through which the API server asks "may they?": the all-in-one answers
// in process (LocalAuthorizer of @plinth/authz), the gateway through the authz service over
// NATS (NatsAuthorizer of @plinth/authz-nats), which serves its own LocalAuthorizer. Declared
// here, beside the decisions it carries, so that the server and the adapter share one port.
import { KubeObject } from '@plinth/api';
import { StatusError } from '@plinth/machinery';
import { Attributes, AuthorizationResult, UserInfo } from './attributes';
import { SubjectRulesReviewStatus } from './authorizer';

export interface Authorizer {
  authorize(attrs: Attributes): Promise<AuthorizationResult>;
  rulesReview(user: UserInfo, namespace: string): Promise<SubjectRulesReviewStatus>;
  // checkRbacWrite is RBAC escalation prevention on a write of a role or binding: the refusal,
  // or null when allowed. Every authorizer answers it; the API server never skips it.
  checkRbacWrite(kind: string, user: UserInfo, object: KubeObject, old: KubeObject | null, namespace: string, requestName: string): Promise<StatusError | null>;
}
