// Bound service account tokens, after pkg/serviceaccount (jwt.go, claims.go) and the TokenRequest
// REST handler (pkg/registry/core/serviceaccount/storage/token.go) of Kubernetes 1.28: issuing a
// signed JWT for a TokenRequest, and authenticating one as the service account's user.
import { KeyObject } from 'node:crypto';
import { PodNameKey, PodUIDKey } from '@plinth/api';
import { badRequest, errors, field, goQuote, rfc3339 } from '@plinth/machinery';
import { AuthenticationError } from './errors';
import { decodeSegment, keyID, parseJws, parsePublicKeys, signingAlgorithm, signJws, toPrivateKey, verifyJws } from './jws';
import { makeServiceAccountGroupNames, makeServiceAccountUsername } from './service-account';
import { newUserInfo, UserInfo } from './user';

export const DefaultTokenExpirationSeconds = 3600; // SetDefaults_TokenRequestSpec
export const MinTokenAgeSeconds = 10 * 60;
export const MaxTokenAgeSeconds = 2 ** 32;
// A pod-bound token requested for exactly 3607 seconds (what the kubelet asks for) is valid for a
// year but flagged stale after 3607 seconds, unless --service-account-extend-token-expiration=false.
export const WarnOnlyBoundTokenExpirationSeconds = 60 * 60 + 7;
export const ExpirationExtensionSeconds = 24 * 365 * 60 * 60;
// The leeway go-jose allows on exp, nbf and iat, and the grace for deleted bound objects.
const leewayMs = 60_000;

const tokenRequestKind = { group: 'authentication.platform.io', kind: 'TokenRequest' };

// BoundObjectRef is TokenRequestSpec.boundObjectRef once the caller has looked the object up: the
// uid is the object's current uid. Kubernetes 1.28 binds to Pods and Secrets.
export interface BoundObjectRef {
  kind: string;
  apiVersion?: string;
  name: string;
  uid: string;
}

export interface IssueServiceAccountTokenOptions {
  namespace: string;
  name: string;
  uid: string;
  audiences?: readonly string[]; // spec.audiences; empty means the API audiences
  expirationSeconds?: number; // spec.expirationSeconds
  boundObject?: BoundObjectRef;
  issuer: string; // the first --service-account-issuer
  privateKey: string | KeyObject; // --service-account-signing-key-file contents
  now: number; // milliseconds since the epoch
  apiAudiences?: readonly string[]; // --api-audiences; the issuer when unset
  maxExpirationSeconds?: number; // --service-account-max-token-expiration; 0 or unset means none
  extendExpiration?: boolean; // --service-account-extend-token-expiration (default true)
}

export interface IssuedServiceAccountToken {
  token: string;
  expirationTimestamp: string; // status.expirationTimestamp, RFC 3339
  audiences: string[]; // spec.audiences after defaulting
  expirationSeconds: number; // spec.expirationSeconds after defaulting and capping
  warnings: string[];
}

// groupVersionKindString is schema.GroupVersionKind.String(): `/v1, Kind=Node` in the core group.
function groupVersionKindString(apiVersion: string, kind: string): string {
  const slash = apiVersion.indexOf('/');
  const [group, version] = slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
  return `${group}/${version}, Kind=${kind}`;
}

function boundGroup(apiVersion: string | undefined): string {
  const v = apiVersion ?? 'v1';
  return v.includes('/') ? v.slice(0, v.indexOf('/')) : '';
}

// checkTokenRequest is TokenREST.Create's checks before it looks the bound object up: the
// expiration's bounds (422) and the kinds a token binds to (400, Pods and Secrets of the core group).
export function checkTokenRequest(requestedExpirationSeconds: number | undefined, bound: { kind: string; apiVersion?: string } | undefined): void {
  const expirationSeconds = requestedExpirationSeconds ?? DefaultTokenExpirationSeconds;
  const errs = [];
  if (expirationSeconds < MinTokenAgeSeconds) {
    errs.push(field.invalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration less than 10 minutes'));
  }
  if (expirationSeconds > MaxTokenAgeSeconds) {
    errs.push(field.invalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration larger than 2^32 seconds'));
  }
  if (errs.length > 0) throw errors.invalid(tokenRequestKind, '', errs);
  if (bound && !(boundGroup(bound.apiVersion) === '' && (bound.kind === 'Pod' || bound.kind === 'Secret'))) {
    throw badRequest(`cannot bind token to object of type ${groupVersionKindString(bound.apiVersion ?? 'v1', bound.kind)}`);
  }
}

// issueServiceAccountToken is TokenREST.Create after the lookups: defaults, validation, the cap on
// expiration, the pod-bound extension, the claims and the signature. Errors are Status errors.
export function issueServiceAccountToken(opts: IssueServiceAccountTokenOptions): IssuedServiceAccountToken {
  const apiAudiences = opts.apiAudiences && opts.apiAudiences.length > 0 ? [...opts.apiAudiences] : [opts.issuer];
  const audiences = opts.audiences && opts.audiences.length > 0 ? [...opts.audiences] : apiAudiences;
  let expirationSeconds = opts.expirationSeconds ?? DefaultTokenExpirationSeconds;
  const warnings: string[] = [];
  checkTokenRequest(opts.expirationSeconds, opts.boundObject);
  const bound = opts.boundObject;

  const max = opts.maxExpirationSeconds ?? 0;
  if (max > 0 && expirationSeconds > max) {
    warnings.push(`requested expiration of ${expirationSeconds} seconds shortened to ${max} seconds`);
    expirationSeconds = max;
  }

  let warnAfter = 0;
  let exp = expirationSeconds;
  const kubeAudiences = audiences.every((a) => apiAudiences.includes(a));
  if ((opts.extendExpiration ?? true) && bound?.kind === 'Pod' && expirationSeconds === WarnOnlyBoundTokenExpirationSeconds && kubeAudiences) {
    warnAfter = exp;
    exp = ExpirationExtensionSeconds;
  }

  const nowSeconds = Math.floor(opts.now / 1000);
  const kubernetes: Record<string, unknown> = {
    namespace: opts.namespace,
    serviceaccount: omitEmpty({ name: opts.name, uid: opts.uid }),
  };
  if (bound?.kind === 'Pod') kubernetes.pod = omitEmpty({ name: bound.name, uid: bound.uid });
  if (bound?.kind === 'Secret') kubernetes.secret = omitEmpty({ name: bound.name, uid: bound.uid });
  if (warnAfter !== 0) kubernetes.warnafter = nowSeconds + warnAfter;

  const claims = {
    iss: opts.issuer,
    sub: makeServiceAccountUsername(opts.namespace, opts.name),
    aud: audiences,
    iat: nowSeconds,
    nbf: nowSeconds,
    exp: nowSeconds + exp,
    'kubernetes.io': kubernetes,
  };
  const key = toPrivateKey(opts.privateKey);
  const token = signJws(claims, key, { alg: signingAlgorithm(key), kid: keyID(key) });
  return { token, expirationTimestamp: rfc3339((nowSeconds + expirationSeconds) * 1000), audiences, expirationSeconds, warnings };
}

function omitEmpty(ref: { name: string; uid: string }): Record<string, string> {
  return Object.fromEntries(Object.entries(ref).filter(([, v]) => v !== ''));
}

// ObjectState is what a lookup reports of a live object: its uid and deletion timestamp.
export interface ObjectState {
  uid: string;
  deletionTimestamp?: string | null;
}

// ServiceAccountTokenLookup fetches the current state of the objects a token names, so that a
// token dies with its service account (or bound pod or secret); null means not found.
export type ServiceAccountTokenLookup = (
  resource: 'serviceaccounts' | 'pods' | 'secrets',
  namespace: string,
  name: string,
) => Promise<ObjectState | null> | ObjectState | null;

export interface VerifyServiceAccountTokenOptions {
  publicKeys: string | readonly (string | KeyObject)[]; // --service-account-key-file contents
  issuers: readonly string[]; // every --service-account-issuer
  audiences: readonly string[]; // --api-audiences: the implicit audiences
  requestedAudiences?: readonly string[]; // the audiences the request is for; the API audiences by default
  now: number;
  lookup?: ServiceAccountTokenLookup;
}

interface Ref {
  name: string;
  uid: string;
}

interface TokenClaims {
  iss: string;
  aud: string[];
  exp?: number;
  nbf?: number;
  iat?: number;
  sub: string;
  namespace: string;
  serviceAccount: Ref;
  pod?: Ref;
  secret?: Ref;
}

function publicKeyObjects(keys: VerifyServiceAccountTokenOptions['publicKeys']): KeyObject[] {
  const list = typeof keys === 'string' ? [keys] : keys;
  return list.flatMap((k) => (typeof k === 'string' ? parsePublicKeys(k) : [k]));
}

// unverifiedIssuer is hasCorrectIssuer's read of `iss` before any signature check.
function unverifiedIssuer(token: string): string | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const payload = decodeSegment(parts[1]);
  if (!payload) return undefined;
  try {
    const claims: unknown = JSON.parse(payload.toString('utf8'));
    const iss = (claims as { iss?: unknown } | null)?.iss;
    return typeof iss === 'string' ? iss : undefined;
  } catch {
    return undefined;
  }
}

const malformed = () => new AuthenticationError('service account token claims could not be parsed');

function str(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw malformed();
  return v;
}

function numericDate(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw malformed();
  return Math.trunc(v);
}

function ref(v: unknown): Ref | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw malformed();
  const r = v as Record<string, unknown>;
  return { name: str(r.name), uid: str(r.uid) };
}

function parseClaims(payload: Buffer): TokenClaims {
  let raw: unknown;
  try {
    raw = JSON.parse(payload.toString('utf8'));
  } catch {
    throw malformed();
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw malformed();
  const c = raw as Record<string, unknown>;
  let aud: string[] = [];
  if (typeof c.aud === 'string') aud = [c.aud];
  else if (Array.isArray(c.aud)) aud = c.aud.map(str);
  else if (c.aud !== undefined && c.aud !== null) throw malformed();
  const k8s = (c['kubernetes.io'] ?? {}) as Record<string, unknown>;
  if (typeof k8s !== 'object' || Array.isArray(k8s)) throw malformed();
  return {
    iss: str(c.iss),
    aud,
    exp: numericDate(c.exp),
    nbf: numericDate(c.nbf),
    iat: numericDate(c.iat),
    sub: str(c.sub),
    namespace: str(k8s.namespace),
    serviceAccount: ref(k8s.serviceaccount) ?? { name: '', uid: '' },
    pod: ref(k8s.pod),
    secret: ref(k8s.secret),
  };
}

// quoteList is Go's %q of a []string: `["a" "b"]`.
function quoteList(list: readonly string[]): string {
  return `[${list.map(goQuote).join(' ')}]`;
}

// verifyServiceAccountToken is jwtTokenAuthenticator.AuthenticateToken with the bound-token
// validator. It returns null for a token that is not a JWT from one of the issuers (another
// authenticator may own it), the service account's user when it verifies, and throws an
// AuthenticationError otherwise.
export async function verifyServiceAccountToken(token: string, opts: VerifyServiceAccountTokenOptions): Promise<UserInfo | null> {
  return (await authenticateServiceAccountToken(token, opts))?.user ?? null;
}

// ServiceAccountAuthentication is who a service-account token authenticated, and for which of
// the requested audiences.
export interface ServiceAccountAuthentication {
  user: UserInfo;
  audiences: string[];
}

// authenticateServiceAccountToken is verifyServiceAccountToken with the audiences the token is
// good for among those requested (authenticator.Response's Audiences).
export async function authenticateServiceAccountToken(token: string, opts: VerifyServiceAccountTokenOptions): Promise<ServiceAccountAuthentication | null> {
  const iss = unverifiedIssuer(token);
  if (iss === undefined || !opts.issuers.includes(iss)) return null;
  const jws = parseJws(token);
  if (!jws) return null;

  const keys = publicKeyObjects(opts.publicKeys);
  const kid = jws.header.kid;
  const ordered = [...keys.filter((k) => keyID(k) === kid), ...keys.filter((k) => keyID(k) !== kid)];
  if (ordered.length === 0) return null;
  if (!ordered.some((k) => verifyJws(jws, k))) throw new AuthenticationError('square/go-jose: error in cryptographic primitive');

  const claims = parseClaims(jws.payload);
  if (!opts.issuers.includes(claims.iss)) throw new AuthenticationError(`token issuer ${goQuote(claims.iss)} is invalid`);

  const implicit = opts.audiences;
  const tokenAudiences = claims.aud.length > 0 ? claims.aud : [...implicit];
  const requested = opts.requestedAudiences ?? implicit;
  const intersection = tokenAudiences.filter((a) => requested.includes(a));
  if (intersection.length === 0 && implicit.length > 0) {
    throw new AuthenticationError(`token audiences ${quoteList(tokenAudiences)} is invalid for the target audiences ${quoteList(requested)}`);
  }

  const now = opts.now;
  if (claims.nbf !== undefined && now + leewayMs < claims.nbf * 1000) throw new AuthenticationError('service account token is not valid yet');
  if (claims.exp === undefined || now - leewayMs > claims.exp * 1000) throw new AuthenticationError('service account token has expired');
  if (claims.iat !== undefined && now + leewayMs < claims.iat * 1000) throw new AuthenticationError('service account token is issued in the future');

  const { namespace, serviceAccount: sa, pod } = claims;
  if (!namespace || !sa.name) throw new AuthenticationError('service account token claims could not be validated due to unexpected private claim');
  if (opts.lookup) await checkBoundObjects(opts.lookup, claims, now);

  const extra: Record<string, string[]> = {};
  if (pod && pod.name && pod.uid) {
    extra[PodNameKey] = [pod.name];
    extra[PodUIDKey] = [pod.uid];
  }
  return { user: newUserInfo(makeServiceAccountUsername(namespace, sa.name), { uid: sa.uid, groups: makeServiceAccountGroupNames(namespace), extra }), audiences: intersection };
}

function deletedBefore(state: ObjectState, cutoff: number): boolean {
  if (!state.deletionTimestamp) return false;
  const t = Date.parse(state.deletionTimestamp);
  return Number.isFinite(t) && t < cutoff;
}

// checkBoundObjects is the validator's liveness check: the service account (and the bound pod or
// secret) must exist with the uid in the token and not have been deleted more than a leeway ago.
async function checkBoundObjects(lookup: ServiceAccountTokenLookup, claims: TokenClaims, now: number): Promise<void> {
  const cutoff = now - leewayMs;
  const { namespace, serviceAccount: sa, pod, secret } = claims;
  let account: ObjectState | null;
  try {
    account = await lookup('serviceaccounts', namespace, sa.name);
  } catch (e) {
    throw new AuthenticationError((e as Error).message);
  }
  if (!account) throw new AuthenticationError(errors.notFound({ group: '', resource: 'serviceaccounts' }, sa.name).message);
  if (deletedBefore(account, cutoff)) throw new AuthenticationError(`service account ${namespace}/${sa.name} has been deleted`);
  if (account.uid !== sa.uid) throw new AuthenticationError(`service account UID (${account.uid}) does not match claim (${sa.uid})`);

  const invalidated = () => new AuthenticationError('service account token has been invalidated');
  const fetch = async (resource: 'pods' | 'secrets', name: string) => {
    try {
      return await lookup(resource, namespace, name);
    } catch {
      return null;
    }
  };
  if (secret) {
    const state = await fetch('secrets', secret.name);
    if (!state || deletedBefore(state, cutoff)) throw invalidated();
    if (state.uid !== secret.uid) throw new AuthenticationError(`secret UID (${state.uid}) does not match service account secret ref claim (${secret.uid})`);
  }
  if (pod) {
    const state = await fetch('pods', pod.name);
    if (!state || deletedBefore(state, cutoff)) throw invalidated();
    if (state.uid !== pod.uid) throw new AuthenticationError(`pod UID (${state.uid}) does not match service account pod ref claim (${pod.uid})`);
  }
}
