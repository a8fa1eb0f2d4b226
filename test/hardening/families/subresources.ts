// Requests every user may make, and subresources with bodies of their own: access and subject
// reviews by a user without grants (the first crash of issue 11 needed no more), TokenReviews,
// TokenRequests, evictions and bindings of the fixtures, each with a damaged body.
import { CaseDraft, Credential } from '../hostile-case';
import { collections, fixtureName } from '../fixtures';
import { fromPlain, toJson } from '../json-tree';
import { mutateTree } from '../mutators';
import { Prng } from '../prng';

interface Target {
  name: string;
  path: string;
  body: Record<string, unknown>;
  credential: Credential;
  snapshot: string;
}

const unprivileged: Credential = { kind: 'unprivileged' };
const admin: Credential = { kind: 'admin' };
const pod = `${collections.pods}/${fixtureName('pods')}`;

const targets: Target[] = [
  {
    name: 'selfsubjectaccessreview',
    path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { namespace: 'hostile', verb: 'get', group: '', resource: 'pods', name: 'x' } } },
    credential: unprivileged,
    snapshot: collections.pods,
  },
  {
    name: 'selfsubjectaccessreview-nonresource',
    path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } } },
    credential: unprivileged,
    snapshot: collections.pods,
  },
  {
    name: 'selfsubjectrulesreview',
    path: '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
    body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'hostile' } },
    credential: unprivileged,
    snapshot: collections.pods,
  },
  {
    name: 'selfsubjectreview',
    path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    credential: unprivileged,
    snapshot: collections.pods,
  },
  {
    name: 'subjectaccessreview',
    path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
    body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: 'alice', groups: ['g'], extra: { scopes: ['a'] }, resourceAttributes: { verb: 'list', resource: 'pods' } } },
    credential: admin,
    snapshot: collections.pods,
  },
  {
    name: 'tokenreview',
    path: '/apis/authentication.k8s.io/v1/tokenreviews',
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'not-a-token', audiences: ['a'] } },
    credential: admin,
    snapshot: collections.serviceaccounts,
  },
  {
    name: 'tokenrequest',
    path: `${collections.serviceaccounts}/${fixtureName('serviceaccounts')}/token`,
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['a'], expirationSeconds: 3600, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: fixtureName('pods') } } },
    credential: admin,
    snapshot: collections.serviceaccounts,
  },
  {
    name: 'eviction',
    path: `${pod}/eviction`,
    body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: fixtureName('pods'), namespace: 'hostile' }, deleteOptions: { gracePeriodSeconds: 0, preconditions: { uid: 'x' } } },
    credential: admin,
    snapshot: collections.pods,
  },
  {
    name: 'binding',
    path: `${pod}/binding`,
    body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: fixtureName('pods') }, target: { apiVersion: 'v1', kind: 'Node', name: 'no-such-node' } },
    credential: admin,
    snapshot: collections.pods,
  },
  {
    name: 'pod-status',
    path: `${pod}/status`,
    body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: fixtureName('pods') }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], podIP: '10.0.0.1' } },
    credential: admin,
    snapshot: collections.pods,
  },
];

// subresources damages the body of a review, TokenRequest, eviction, binding or status update.
export function subresources(prng: Prng, count: number): CaseDraft[] {
  return Array.from({ length: count }, (): CaseDraft => {
    const target = prng.pick(targets);
    const m = mutateTree(prng, fromPlain(target.body));
    const method = target.name === 'pod-status' ? prng.pick(['PUT', 'PATCH']) : 'POST';
    return {
      family: 'subresource',
      tag: `${target.name}:${m.tag}`,
      what: m.what,
      method,
      path: target.path,
      headers: [['content-type', method === 'PATCH' ? 'application/merge-patch+json' : 'application/json']],
      body: Buffer.from(toJson(m.value)),
      credential: target.credential,
      snapshots: [target.snapshot],
    };
  });
}
