// AuthnAuthenticator adapts @plinth/authn's chain to HTTP requests: the headers, and the
// client certificate chain the TLS socket received.
import { IncomingMessage } from 'node:http';
import { TLSSocket } from 'node:tls';
import { AuthenticationConfig, authenticateRequest, HeaderMap } from '@plinth/authn';
import { AuthenticationOutcome, Authenticator } from './ports';

export class AuthnAuthenticator implements Authenticator {
  // certificateUsers remembers, per TLS connection, who its client certificate authenticated:
  // the certificate cannot change within a connection, and verifying the chain on every
  // request would dominate the cost of small requests. Only requests without a bearer token,
  // on a server without request-header authentication, use it.
  private readonly certificateUsers = new WeakMap<object, AuthenticationOutcome>();

  constructor(private readonly config: AuthenticationConfig) {}

  async authenticate(req: IncomingMessage): Promise<AuthenticationOutcome> {
    const socket = req.socket as TLSSocket;
    const certificateOnly = !req.headers.authorization && !this.config.requestHeader;
    const connection = connectionOf(req);
    if (certificateOnly) {
      const known = this.certificateUsers.get(connection);
      if (known) return known;
    }
    const outcome = await this.authenticateUncached(req, socket);
    if (certificateOnly && outcome.user) this.certificateUsers.set(connection, outcome);
    return outcome;
  }

  private async authenticateUncached(req: IncomingMessage, socket: TLSSocket): Promise<AuthenticationOutcome> {
    const peer = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate(true) : undefined;
    const result = await authenticateRequest(
      { headers: req.headersDistinct as HeaderMap, peerCertificate: peer && Object.keys(peer).length > 0 ? peer : undefined },
      this.config,
    );
    return { user: result.user, warnings: result.warnings };
  }
}

// connectionOf is the object that stands for the request's connection: its socket, or over
// HTTP/2 its session (each stream of which presents a socket object of its own).
function connectionOf(req: IncomingMessage): object {
  const stream = (req as { stream?: { session?: object } }).stream;
  return stream?.session ?? req.socket;
}
