// The request authentication chain of kube-apiserver (pkg/kubeapiserver/authenticator/config.go):
// request-header, then x509 client certificates, then bearer tokens (the static token file, then
// service account JWTs), as a union that stops at the first user; system:authenticated is added
// to that user; anonymous, when enabled, only when no authenticator failed (union.NewFailOnError).
import { aggregateMessage, Clock, realClock } from '@plinth/machinery';
import { bearerToken, invalidBearerTokenMessage } from './bearer-token';
import { AuthenticationError } from './errors';
import { HeaderMap } from './headers';
import { authenticateRequestHeader, RequestHeaderConfig } from './request-header';
import { authenticateServiceAccountToken, VerifyServiceAccountTokenOptions } from './service-account-token';
import { StaticTokens } from './token-file';
import { anonymousUser, UserInfo, withAuthenticatedGroup } from './user';
import { authenticateClientCertificate, CertPool, PeerCertificateChain } from './x509';

export interface AuthenticationRequest {
  // headers as Node's req.headersDistinct gives them (see headers.ts).
  headers: HeaderMap;
  // the client's certificate chain, leaf first, e.g. tlsSocket.getPeerCertificate(true).
  peerCertificate?: PeerCertificateChain;
  // audiences are those the request is for (a TokenReview's); the API audiences by default.
  audiences?: readonly string[];
}

export interface AuthenticationConfig {
  requestHeader?: RequestHeaderConfig;
  // clientCA is --client-ca-file: the contents, or the pool parsed once from them.
  clientCA?: CertPool | string | readonly string[];
  tokenFile?: StaticTokens;
  serviceAccountTokens?: Omit<VerifyServiceAccountTokenOptions, 'now'>;
  // apiAudiences (--api-audiences) are the audiences of the tokens that name none: the token
  // file's are good only for a request for one of them.
  apiAudiences?: readonly string[];
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
  // audiences are those among the request's the token authenticated for (none for a user that
  // no token authenticated).
  audiences?: string[];
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
  const done = (user: UserInfo, authenticator: AuthenticatorName, audiences?: string[]): AuthenticationResult => ({
    user: withAuthenticatedGroup(user),
    authenticator,
    errors,
    warnings,
    ...(audiences ? { audiences } : {}),
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
      const found = await authenticateToken(token, config, now, request.audiences);
      if (found.user) return done(found.user, found.authenticator, found.audiences);
      errors.push(found.error);
    }
  }
  if (config.anonymous && errors.length === 0) {
    // The anonymous user is good for whatever audiences the request is for.
    return { user: anonymousUser(), authenticator: 'anonymous', errors, warnings, ...(request.audiences ? { audiences: [...request.audiences] } : {}) };
  }
  return { user: null, errors, warnings };
}

// authenticateToken is the union of token authenticators behind the bearer token authenticator:
// a token no authenticator recognised and none rejected is an `invalid bearer token`. The token
// file knows no audiences: it is audience-agnostic (WrapAudienceAgnosticToken), good for the
// API audiences among those requested.
async function authenticateToken(
  token: string,
  config: AuthenticationConfig,
  now: number,
  requested: readonly string[] | undefined,
): Promise<{ user: UserInfo; authenticator: AuthenticatorName; audiences?: string[] } | { user?: undefined; error: Error }> {
  const failures: Error[] = [];
  const implicit = config.apiAudiences ?? [];
  const fileAudiences = implicit.length > 0 ? implicit.filter((a) => (requested ?? implicit).includes(a)) : undefined;
  const fromFile = fileAudiences?.length === 0 ? null : config.tokenFile?.authenticateToken(token);
  if (fromFile) return { user: fromFile, authenticator: 'tokenfile', audiences: fileAudiences };
  if (config.serviceAccountTokens) {
    try {
      const found = await authenticateServiceAccountToken(token, { ...config.serviceAccountTokens, now, ...(requested ? { requestedAudiences: requested } : {}) });
      if (found) return { user: found.user, authenticator: 'serviceaccount', audiences: found.audiences };
    } catch (e) {
      failures.push(e as Error);
    }
  }
  const message = aggregateMessage(failures.map((e) => e.message));
  return { error: new AuthenticationError(message ?? invalidBearerTokenMessage) };
}
