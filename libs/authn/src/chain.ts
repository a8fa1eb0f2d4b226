// The request authentication chain of kube-apiserver (pkg/kubeapiserver/authenticator/config.go):
// request-header, then x509 client certificates, then bearer tokens (the static token file, then
// service account JWTs), as a union that stops at the first user; system:authenticated is added
// to that user; anonymous, when enabled, only when no authenticator failed (union.NewFailOnError).
import { aggregateMessage, Clock, realClock } from '@plinth/machinery';
import { bearerToken, invalidBearerTokenMessage } from './bearer-token';
import { AuthenticationError } from './errors';
import { HeaderMap } from './headers';
import { authenticateRequestHeader, RequestHeaderConfig } from './request-header';
import { verifyServiceAccountToken, VerifyServiceAccountTokenOptions } from './service-account-token';
import { StaticTokens } from './token-file';
import { anonymousUser, UserInfo, withAuthenticatedGroup } from './user';
import { authenticateClientCertificate, CertPool, PeerCertificateChain } from './x509';

export interface AuthenticationRequest {
  // headers as Node's req.headersDistinct gives them (see headers.ts).
  headers: HeaderMap;
  // the client's certificate chain, leaf first, e.g. tlsSocket.getPeerCertificate(true).
  peerCertificate?: PeerCertificateChain;
}

export interface AuthenticationConfig {
  requestHeader?: RequestHeaderConfig;
  // clientCA is --client-ca-file: the contents, or the pool parsed once from them.
  clientCA?: CertPool | string | readonly string[];
  tokenFile?: StaticTokens;
  serviceAccountTokens?: Omit<VerifyServiceAccountTokenOptions, 'now'>;
  anonymous?: boolean;
  clock?: Clock;
}

export type AuthenticatorName = 'requestheader' | 'x509' | 'tokenfile' | 'serviceaccount' | 'anonymous';

export interface AuthenticationResult {
  user: UserInfo | null;
  authenticator?: AuthenticatorName;
  // errors are the failures of the authenticators tried (logged, never shown to the client).
  errors: Error[];
  // warnings go to the response's Warning headers.
  warnings: string[];
}

// authenticate returns the authenticated user, or null for a 401 `Unauthorized`.
export async function authenticate(request: AuthenticationRequest, config: AuthenticationConfig): Promise<UserInfo | null> {
  return (await authenticateRequest(request, config)).user;
}

// authenticateRequest runs the chain and reports which authenticator answered and why others failed.
export async function authenticateRequest(request: AuthenticationRequest, config: AuthenticationConfig): Promise<AuthenticationResult> {
  const now = (config.clock ?? realClock).now();
  const errors: Error[] = [];
  const warnings: string[] = [];
  const done = (user: UserInfo, authenticator: AuthenticatorName): AuthenticationResult => ({
    user: withAuthenticatedGroup(user),
    authenticator,
    errors,
    warnings,
  });

  const attempt = async (fn: () => UserInfo | null | Promise<UserInfo | null>): Promise<UserInfo | null> => {
    try {
      return await fn();
    } catch (e) {
      errors.push(e instanceof Error ? e : new Error(String(e)));
      return null;
    }
  };

  if (config.requestHeader) {
    const rh = config.requestHeader;
    const user = await attempt(() => authenticateRequestHeader(request, rh, { now }));
    if (user) return done(user, 'requestheader');
  }
  if (config.clientCA) {
    const ca = config.clientCA;
    const user = await attempt(() => authenticateClientCertificate(request.peerCertificate, ca, { now }));
    if (user) return done(user, 'x509');
  }
  if (config.tokenFile || config.serviceAccountTokens) {
    const { token, warning } = bearerToken(request.headers);
    if (warning) warnings.push(warning);
    if (token !== undefined) {
      const found = await authenticateToken(token, config, now);
      if (found.user) return done(found.user, found.authenticator);
      errors.push(found.error);
    }
  }
  if (config.anonymous && errors.length === 0) {
    return { user: anonymousUser(), authenticator: 'anonymous', errors, warnings };
  }
  return { user: null, errors, warnings };
}

// authenticateToken is the union of token authenticators behind the bearer token authenticator:
// a token no authenticator recognised and none rejected is an `invalid bearer token`.
async function authenticateToken(
  token: string,
  config: AuthenticationConfig,
  now: number,
): Promise<{ user: UserInfo; authenticator: AuthenticatorName } | { user?: undefined; error: Error }> {
  const failures: Error[] = [];
  const fromFile = config.tokenFile?.authenticateToken(token);
  if (fromFile) return { user: fromFile, authenticator: 'tokenfile' };
  if (config.serviceAccountTokens) {
    try {
      const user = await verifyServiceAccountToken(token, { ...config.serviceAccountTokens, now });
      if (user) return { user, authenticator: 'serviceaccount' };
    } catch (e) {
      failures.push(e as Error);
    }
  }
  const message = aggregateMessage(failures.map((e) => e.message));
  return { error: new AuthenticationError(message ?? invalidBearerTokenMessage) };
}
