// AuthnAuthenticator adapts @plinth/authn's chain to HTTP requests: the headers, and the
// client certificate chain the TLS socket received.
import { IncomingMessage } from 'node:http';
import { TLSSocket } from 'node:tls';
import { AuthenticationConfig, authenticateRequest, HeaderMap } from '@plinth/authn';
import { AuthenticationOutcome, Authenticator } from './ports';

export class AuthnAuthenticator implements Authenticator {
  constructor(private readonly config: AuthenticationConfig) {}

  async authenticate(req: IncomingMessage): Promise<AuthenticationOutcome> {
    const socket = req.socket as TLSSocket;
    const peer = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate(true) : undefined;
    const result = await authenticateRequest(
      { headers: req.headersDistinct as HeaderMap, peerCertificate: peer && Object.keys(peer).length > 0 ? peer : undefined },
      this.config,
    );
    return { user: result.user, warnings: result.warnings };
  }
}
