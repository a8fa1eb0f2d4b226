import { unauthorized, StatusError } from '@plinth/machinery';

// AuthenticationError is an authenticator's reason for rejecting a credential it recognised (a
// certificate that fails verification, a token with a bad signature). Kubernetes logs these and
// answers 401 with the plain message `Unauthorized`; the reason never reaches the client.
export class AuthenticationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthenticationError';
  }
}

// unauthorizedError is the 401 of filters/authentication.go: the Status message is `Unauthorized`.
export function unauthorizedError(): StatusError {
  return unauthorized('Unauthorized');
}
