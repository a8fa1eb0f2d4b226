// Bearer token extraction, after apiserver/pkg/authentication/request/bearertoken.
import { HeaderMap, headerValue } from './headers';

export const invalidBearerTokenMessage = 'invalid bearer token';
export const invalidTokenWithSpaceWarning = 'the provided Authorization header contains extra space before the bearer token, and is ignored';

// bearerToken returns the token of an `Authorization: Bearer <token>` header (the scheme matched
// case-insensitively), or a warning when the header had a space before an empty token.
export function bearerToken(headers: HeaderMap): { token?: string; warning?: string } {
  const auth = headerValue(headers, 'Authorization').trim();
  if (auth === '') return {};
  const parts = splitN(auth, ' ', 3);
  if (parts.length < 2 || parts[0].toLowerCase() !== 'bearer') return {};
  const token = parts[1];
  if (token === '') return parts.length === 3 ? { warning: invalidTokenWithSpaceWarning } : {};
  return { token };
}

// splitN is Go's strings.SplitN.
function splitN(s: string, sep: string, n: number): string[] {
  const out: string[] = [];
  let rest = s;
  while (out.length < n - 1) {
    const i = rest.indexOf(sep);
    if (i < 0) break;
    out.push(rest.slice(0, i));
    rest = rest.slice(i + sep.length);
  }
  out.push(rest);
  return out;
}
