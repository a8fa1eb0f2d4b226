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

export interface Authenticator {
  authenticate(req: IncomingMessage): Promise<AuthenticationOutcome>;
}
