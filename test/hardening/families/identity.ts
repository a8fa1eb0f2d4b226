// Who is asking: credentials that must not authenticate (401, and nothing changes), and
// impersonation by a user without the right to impersonate (403, and nothing changes). An
// Authorization header that is not a bearer token (another scheme, no token) is no credential
// at all: the request is system:anonymous (kube-apiserver's default --anonymous-auth=true),
// refused with 403.
import { CaseDraft, Credential, ForgedCredential } from '../hostile-case';
import { collections, fixtureName, hostileNamespace } from '../fixtures';
import { Prng } from '../prng';

interface Action {
  name: string;
  method: string;
  path: string;
  body?: Buffer;
  contentType?: string;
  snapshot: string;
}

// actions are ordinary requests an administrator could make: reads, creates, updates, deletes.
function action(prng: Prng, destructive = true): Action {
  const sa = `${collections.serviceaccounts}/${fixtureName('serviceaccounts')}`;
  const options: Action[] = [
    { name: 'list serviceaccounts', method: 'GET', path: collections.serviceaccounts, snapshot: collections.serviceaccounts },
    { name: 'list pods everywhere', method: 'GET', path: '/api/v1/pods', snapshot: collections.pods },
    { name: 'create serviceaccount', method: 'POST', path: collections.serviceaccounts, body: Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: `who-${prng.string(6)}` } })), contentType: 'application/json', snapshot: collections.serviceaccounts },
    { name: 'patch serviceaccount', method: 'PATCH', path: sa, body: Buffer.from('{"metadata":{"labels":{"owned":"yes"}}}'), contentType: 'application/merge-patch+json', snapshot: collections.serviceaccounts },
    { name: 'delete serviceaccount', method: 'DELETE', path: sa, snapshot: collections.serviceaccounts },
    { name: 'delete roles', method: 'DELETE', path: collections.roles, snapshot: collections.roles },
    { name: 'create clusterrolebinding', method: 'POST', path: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', body: Buffer.from(JSON.stringify({ metadata: { name: `pwn-${prng.string(6)}` }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' }, subjects: [{ kind: 'User', name: 'mallory', apiGroup: 'rbac.authorization.k8s.io' }] })), contentType: 'application/json', snapshot: collections.serviceaccounts },
  ];
  // deleting the namespace would end the run: only requests that must be refused try it.
  if (destructive) options.push({ name: 'delete namespace', method: 'DELETE', path: `/api/v1/namespaces/${hostileNamespace}`, snapshot: collections.serviceaccounts });
  return prng.pick(options);
}

const forged: ForgedCredential[] = ['alg-none-jwt', 'foreign-key-jwt', 'expired-service-account-token', 'hs256-public-key-jwt', 'stranger-client-cert', 'wrong-issuer-jwt'];

const b64 = (text: string) => Buffer.from(text).toString('base64url');

// anonymousAuthorizations are the garbage Authorization headers the bearer token authenticator
// does not read as a token (apiserver's bearertoken: a scheme other than Bearer, or no token).
const anonymousAuthorizations = new Set(['empty-bearer', 'bearer-only', 'basic', 'unknown-scheme', 'two-spaces']);

// garbageAuthorizations are Authorization header values no authenticator accepts.
function garbageAuthorization(prng: Prng): [string, string] {
  const header = b64(JSON.stringify({ alg: 'RS256', kid: 'x' }));
  const choices: [string, string][] = [
    ['random-token', `Bearer ${prng.string(32)}`],
    ['random-bytes-token', `Bearer ${prng.bytes(24).toString('base64')}`],
    ['empty-bearer', 'Bearer '],
    ['bearer-only', 'Bearer'],
    ['lower-case-scheme', `bearer ${prng.string(16)}`],
    ['basic', `Basic ${Buffer.from('admin:admin').toString('base64')}`],
    ['unknown-scheme', `Negotiate ${prng.string(20)}`],
    ['two-spaces', `Bearer  ${prng.string(16)}`],
    ['long-token', `Bearer ${prng.string(8000)}`],
    ['three-dots', 'Bearer ...'],
    ['jwt-shaped', `Bearer ${prng.string(10)}.${prng.string(10)}.${prng.string(10)}`],
    ['jwt-garbage-signature', `Bearer ${header}.${b64(JSON.stringify({ iss: 'https://kubernetes.default.svc.cluster.local', sub: 'system:serviceaccount:kube-system:default' }))}.${prng.string(40)}`],
    ['jwt-bad-json', `Bearer ${b64('{')}.${b64('{')}.`],
    ['jwt-header-array', `Bearer ${b64('[]')}.${b64('{}')}.x`],
    ['jwt-nested-header', `Bearer ${b64('{"alg":{"alg":"none"}}')}.${b64('{}')}.x`],
    ['token-file-prefix', 'Bearer admin-toke'],
    ['token-file-suffix', 'Bearer admin-token-'],
    ['token-with-comma', 'Bearer admin-token,admin'],
  ];
  return prng.pick(choices);
}

// credentials pair an ordinary action with a credential that must be refused.
export function credentials(prng: Prng, count: number): CaseDraft[] {
  return Array.from({ length: count }, (): CaseDraft => {
    const act = action(prng);
    let credential: Credential;
    let tag: string;
    let anonymous = false;
    if (prng.chance(0.5)) {
      const which = prng.pick(forged);
      credential = { kind: 'forged', forged: which };
      tag = `credential:${which}`;
    } else {
      const [name, value] = garbageAuthorization(prng);
      credential = { kind: 'header', value };
      tag = `credential:${name}`;
      anonymous = anonymousAuthorizations.has(name);
    }
    return {
      family: 'credential',
      tag,
      what: act.name,
      method: act.method,
      path: act.path,
      headers: act.contentType ? [['content-type', act.contentType]] : [],
      body: act.body,
      credential,
      snapshots: [act.snapshot],
      expect: anonymous ? 'forbidden' : 'unauthorized',
    };
  });
}

const impersonationTargets: [string, [string, string][]][] = [
  ['admin', [['impersonate-user', 'admin']]],
  ['system-admin', [['impersonate-user', 'system:admin']]],
  ['masters-group', [['impersonate-user', 'alice'], ['impersonate-group', 'system:masters']]],
  ['service-account', [['impersonate-user', 'system:serviceaccount:kube-system:namespace-controller']]],
  ['node', [['impersonate-user', 'system:node:n1'], ['impersonate-group', 'system:nodes']]],
  ['uid', [['impersonate-user', 'admin'], ['impersonate-uid', 'admin-uid']]],
  ['extra', [['impersonate-user', 'admin'], ['impersonate-extra-scopes', 'all']]],
  ['anonymous', [['impersonate-user', 'system:anonymous']]],
  ['self-with-masters', [['impersonate-user', 'alice'], ['impersonate-group', 'system:masters'], ['impersonate-group', 'system:authenticated']]],
];

// impersonations are ordinary actions by a user without rights, impersonating someone with them.
export function impersonations(prng: Prng, count: number): CaseDraft[] {
  return Array.from({ length: count }, (): CaseDraft => {
    const act = action(prng);
    const [name, headers] = prng.pick(impersonationTargets);
    return {
      family: 'impersonation',
      tag: `impersonation:${name}`,
      what: act.name,
      method: act.method,
      path: act.path,
      headers: [...(act.contentType ? ([['content-type', act.contentType]] as [string, string][]) : []), ...headers],
      body: act.body,
      credential: { kind: 'unprivileged' },
      snapshots: [act.snapshot],
      expect: 'forbidden',
    };
  });
}

// malformedImpersonations are an administrator's impersonation headers that are malformed:
// groups or a uid without a user (kube-apiserver answers 500 to those), empty values, bad
// extra keys.
export function malformedImpersonations(prng: Prng, count: number): CaseDraft[] {
  const variants: [string, [string, string][]][] = [
    ['group-without-user', [['impersonate-group', 'system:masters']]],
    ['uid-without-user', [['impersonate-uid', 'x']]],
    ['extra-without-user', [['impersonate-extra-a', 'b']]],
    ['empty-user', [['impersonate-user', '']]],
    ['extra-bad-key', [['impersonate-user', 'bob'], ['impersonate-extra-%zz', 'b']]],
    ['extra-encoded-key', [['impersonate-user', 'bob'], ['impersonate-extra-a%2Fb', 'b']]],
    ['two-users', [['impersonate-user', 'bob'], ['impersonate-user', 'carol']]],
    ['two-uids', [['impersonate-user', 'bob'], ['impersonate-uid', 'a'], ['impersonate-uid', 'b']]],
    ['nonexistent-service-account', [['impersonate-user', 'system:serviceaccount:']]],
    ['service-account-colons', [['impersonate-user', 'system:serviceaccount:a:b:c']]],
  ];
  return Array.from({ length: count }, (): CaseDraft => {
    const act = action(prng, false);
    const [name, headers] = prng.pick(variants);
    return {
      family: 'impersonation-malformed',
      tag: `impersonation:${name}`,
      what: act.name,
      method: act.method,
      path: act.path,
      headers: [...(act.contentType ? ([['content-type', act.contentType]] as [string, string][]) : []), ...headers],
      body: act.body,
      credential: { kind: 'admin' },
      snapshots: [act.snapshot],
    };
  });
}
