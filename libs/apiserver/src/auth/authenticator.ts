// AuthnAuthenticator adapts @plinth/authn's chain to HTTP requests: the headers, and the
// client certificate chain the TLS socket received.
import { IncomingMessage } from 'node:http';
import { TLSSocket } from 'node:tls';
import { aggregateMessage } from '@plinth/machinery';
import { AuthenticationConfig, authenticateRequest, bearerToken, HeaderMap, invalidBearerTokenMessage } from '@plinth/authn';
import { AuthenticationOutcome, Authenticator, TokenReviewOutcome } from './ports';

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

  // reviewToken is a TokenReview's authentication: a request without a client certificate (so
  // neither request-header nor x509 authentication answers), the token as its bearer token,
  // anonymous when no authenticator failed, as kube-apiserver's union.NewFailOnError. Before
  // them all kube-apiserver asks its loopback token authenticator, which a review's token never
  // matches: its `invalid bearer token` leads the errors.
  async reviewToken(token: string, audiences: readonly string[]): Promise<TokenReviewOutcome> {
    const targetAudiences = [...(audiences.length > 0 ? audiences : (this.config.apiAudiences ?? []))];
    const headers = { authorization: [`Bearer ${token}`] };
    const result = await authenticateRequest(
      { headers, ...(targetAudiences.length > 0 ? { audiences: targetAudiences } : {}) },
      { ...this.config, requestHeader: undefined, clientCA: undefined },
    );
    const loopbackFailure = bearerToken(headers).token === undefined ? [] : [invalidBearerTokenMessage];
    const error = result.user ? undefined : aggregateMessage([...loopbackFailure, ...result.errors.map((e) => e.message)]);
    return { user: result.user, targetAudiences, ...(result.audiences ? { audiences: result.audiences } : {}), ...(error ? { error } : {}) };
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
