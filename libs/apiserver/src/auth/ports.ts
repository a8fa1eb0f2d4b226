// The two questions the API server asks about every request, as ports: who is this
// (Authenticator, here) and may they (Authorizer, declared once in @plinth/rbac and shared
// with the NATS adapter). The all-in-one answers them in process; the gateway asks the authz
// app over NATS.
import { IncomingMessage } from 'node:http';
import { UserInfo } from '@plinth/rbac';

export interface AuthenticationOutcome {
  user: UserInfo | null;
  warnings: string[];
}

// TokenReviewOutcome is what the authenticators say of a token alone: the user (or null), the
// audiences it is good for among the target audiences (those asked, or the API audiences), and
// why it failed.
export interface TokenReviewOutcome {
  user: UserInfo | null;
  targetAudiences: string[];
  audiences?: string[];
  error?: string;
}

export interface Authenticator {
  authenticate(req: IncomingMessage): Promise<AuthenticationOutcome>;
  // reviewToken authenticates a request carrying nothing but the token, for the audiences given
  // (the API audiences when none), as a TokenReview asks.
  reviewToken(token: string, audiences: readonly string[]): Promise<TokenReviewOutcome>;
}
