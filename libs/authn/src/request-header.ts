// Request-header authentication, after apiserver/pkg/authentication/request/headerrequest: an
// authenticating proxy presents a client certificate signed by the request-header CA (and, when
// allowed names are configured, with one of those CNs) and asserts the user in headers. The header
// names are kube-apiserver's --requestheader-* flags; the defaults are the ones kubeadm sets.
import { realClock } from '@plinth/machinery';
import { AuthenticationError } from './errors';
import { HeaderMap, headersWithPrefix, headerValue, headerValues, unescapeExtraKey } from './headers';
import { newUserInfo, UserInfo } from './user';
import { CertPool, PeerCertificateChain, verifyPeerChain } from './x509';

export interface RequestHeaderConfig {
  // clientCA is the contents of --requestheader-client-ca-file (or the pool parsed from it).
  clientCA: CertPool | string | readonly string[];
  // allowedNames is --requestheader-allowed-names: the proxy certificate CNs accepted; empty means any.
  allowedNames?: readonly string[];
  usernameHeaders?: readonly string[];
  groupHeaders?: readonly string[];
  extraHeaderPrefixes?: readonly string[];
}

export const defaultRequestHeaderNames = {
  usernameHeaders: ['X-Remote-User'],
  groupHeaders: ['X-Remote-Group'],
  extraHeaderPrefixes: ['X-Remote-Extra-'],
} as const;

// trimHeaders is the flag clean-up of headerrequest.New: names are trimmed and may not be empty.
function trimHeaders(names: readonly string[]): string[] {
  return names.map((name) => {
    const trimmed = name.trim();
    if (trimmed === '') throw new Error(`empty header ${JSON.stringify(name)}`);
    return trimmed;
  });
}

// requestHeaderUser reads the asserted user from the headers: the first non-empty username header,
// every non-empty value of the group headers, and extras keyed by the lower-cased, %-unescaped rest
// of each header name after an extra prefix. It returns null when no username is asserted.
export function requestHeaderUser(headers: HeaderMap, config: Omit<RequestHeaderConfig, 'clientCA' | 'allowedNames'> = {}): UserInfo | null {
  const usernameHeaders = trimHeaders(config.usernameHeaders ?? defaultRequestHeaderNames.usernameHeaders);
  const groupHeaders = trimHeaders(config.groupHeaders ?? defaultRequestHeaderNames.groupHeaders);
  const extraPrefixes = trimHeaders(config.extraHeaderPrefixes ?? defaultRequestHeaderNames.extraHeaderPrefixes);

  const name = usernameHeaders.map((h) => headerValue(headers, h)).find((v) => v !== '') ?? '';
  if (name === '') return null;
  const groups = groupHeaders.flatMap((h) => headerValues(headers, h).filter((v) => v !== ''));
  const extra: Record<string, string[]> = {};
  for (const prefix of extraPrefixes) {
    for (const [rest, values] of headersWithPrefix(headers, prefix)) {
      const key = unescapeExtraKey(rest);
      (extra[key] ??= []).push(...values);
    }
  }
  return newUserInfo(name, { groups, extra });
}

export interface RequestHeaderRequest {
  headers: HeaderMap;
  peerCertificate?: PeerCertificateChain;
}

// authenticateRequestHeader is the request-header authenticator behind its x509 verifier. It
// returns null when no client certificate was presented or no user is asserted, and throws an
// AuthenticationError when the certificate does not verify against the request-header CA or its
// CN is not an allowed name.
export function authenticateRequestHeader(request: RequestHeaderRequest, config: RequestHeaderConfig, opts: { now?: number } = {}): UserInfo | null {
  let verified: ReturnType<typeof verifyPeerChain>;
  try {
    verified = verifyPeerChain(request.peerCertificate, config.clientCA, opts.now ?? realClock.now());
  } catch (e) {
    throw new AuthenticationError((e as Error).message);
  }
  if (!verified) return null;
  const allowed = config.allowedNames ?? [];
  const cn = verified.leaf.fields.subject.commonName;
  if (allowed.length > 0 && !allowed.includes(cn)) {
    throw new AuthenticationError(`x509: subject with cn=${cn} is not in the allowed list`);
  }
  return requestHeaderUser(request.headers, config);
}
