// The two questions the API server asks about every request, as ports: who is this
// (Authenticator) and may they (Authorizer). The all-in-one answers them in process; the
// gateway asks the authz app over NATS.
import { IncomingMessage } from 'node:http';
import { KubeObject } from '@plinth/api';
import { StatusError } from '@plinth/machinery';
import { Attributes, AuthorizationResult, SubjectRulesReviewStatus, UserInfo } from '@plinth/rbac';

export interface Authorizer {
  authorize(attrs: Attributes): Promise<AuthorizationResult>;
  rulesReview(user: UserInfo, namespace: string): Promise<SubjectRulesReviewStatus>;
  // checkRbacWrite refuses RBAC writes that would escalate privileges (null: allowed). An
  // authorizer without the policy at hand (the NATS client) leaves it out.
  checkRbacWrite?(kind: string, user: UserInfo, object: KubeObject, old: KubeObject | null, namespace: string, requestName: string): Promise<StatusError | null>;
}

export interface AuthenticationOutcome {
  user: UserInfo | null;
  warnings: string[];
}

export interface Authenticator {
  authenticate(req: IncomingMessage): Promise<AuthenticationOutcome>;
}
