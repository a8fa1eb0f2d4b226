// The authentication, impersonation and authorization stages of the request pipeline, in
// kube-apiserver's order: an unauthenticated request is 401; impersonation needs the
// `impersonate` verb on every target; a request the authorizer does not allow is 403.
import { IncomingMessage } from 'node:http';
import { HeaderMap, hasImpersonationHeaders, impersonatedUser, impersonationChecks, impersonationForbidden, parseImpersonation, unauthorizedError } from '@plinth/authn';
import { internalError, isStatusError } from '@plinth/machinery';
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
    const decision = await askAuthorizer(auth.authorizer, attrs);
    if (decision.decision !== 'Allow') throw impersonationForbidden(check, outcome.user.name, decision.reason);
  }
  return impersonatedUser(requested);
}

export async function authorizeRequest(info: RequestInfo, user: UserInfo, servedGroup: string, auth: AuthContext): Promise<void> {
  const attrs = attributesFor(info, user, servedGroup);
  const decision = await askAuthorizer(auth.authorizer, attrs);
  if (decision.decision !== 'Allow') throw forbiddenError(attrs, decision.reason);
}

// askAuthorizer answers an authorizer that fails (the authz service out of reach) with
// 500 InternalError, as kube-apiserver's WithAuthorization does: an expected failure, not a
// fault of the server.
async function askAuthorizer(authorizer: Authorizer, attrs: Attributes): Promise<AuthorizationResult> {
  try {
    return await authorizer.authorize(attrs);
  } catch (err) {
    throw isStatusError(err) ? err : internalError(err instanceof Error ? err.message : String(err));
  }
}
