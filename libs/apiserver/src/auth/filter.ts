// The authentication, impersonation and authorization stages of the request pipeline, in
// kube-apiserver's order: an unauthenticated request is 401; impersonation needs the
// `impersonate` verb on every target; a request the authorizer does not allow is 403, one it
// cannot decide on a plain-text 500.
import { IncomingMessage } from 'node:http';
import { HeaderMap, hasImpersonationHeaders, impersonatedUser, impersonationChecks, impersonationForbidden, parseImpersonation, unauthorizedError } from '@plinth/authn';
import { isStatusError } from '@plinth/machinery';
import { Attributes, AuthorizationResult, Authorizer, forbiddenError, resourceAttributes, UserInfo } from '@plinth/rbac';
import { RequestInfo } from '../request-info';
import { attributesFor } from './attributes';
import { Authenticator } from './ports';

export interface AuthContext {
  authenticator: Authenticator;
  authorizer: Authorizer;
}

// authenticateAndImpersonate returns the user the request acts as.
export async function authenticateAndImpersonate(req: IncomingMessage, auth: AuthContext, warnings: string[]): Promise<UserInfo> {
  const outcome = await auth.authenticator.authenticate(req);
  warnings.push(...outcome.warnings);
  if (!outcome.user) throw unauthorizedError();
  const requested = hasImpersonationHeaders(req.headers) ? parseImpersonation(req.headersDistinct as HeaderMap) : null;
  if (!requested) return outcome.user;
  for (const check of impersonationChecks(requested)) {
    const attrs = resourceAttributes({ user: outcome.user, ...check });
    // The impersonation filter takes an authorizer that fails for a refusal (no reason).
    const decision = await askAuthorizer(auth.authorizer, attrs).catch((err: unknown) => {
      if (err instanceof AuthorizerError) return { decision: 'NoOpinion', reason: '', evaluationError: err.message, resolutionErrors: [] } satisfies AuthorizationResult;
      throw err;
    });
    if (decision.decision !== 'Allow') throw impersonationForbidden(check, outcome.user.name, decision.reason);
  }
  return impersonatedUser(requested);
}

export async function authorizeRequest(info: RequestInfo, user: UserInfo, servedGroup: string, auth: AuthContext): Promise<void> {
  const attrs = attributesFor(info, user, servedGroup);
  const decision = await askAuthorizer(auth.authorizer, attrs);
  if (decision.decision !== 'Allow') throw forbiddenError(attrs, decision.reason);
}

// AuthorizerError is an authorizer that could not decide (the authz service out of reach). It is
// no Status: kube-apiserver's WithAuthorization answers it with responsewriters.InternalError, a
// plain-text 500 naming the request URI and the error.
export class AuthorizerError extends Error {}

async function askAuthorizer(authorizer: Authorizer, attrs: Attributes): Promise<AuthorizationResult> {
  try {
    return await authorizer.authorize(attrs);
  } catch (err) {
    if (isStatusError(err)) throw err;
    throw new AuthorizerError(err instanceof Error ? err.message : String(err));
  }
}
