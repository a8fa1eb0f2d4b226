// generateCases makes the whole hostile set from one seed: the same seed gives the same cases,
// in the same order, byte for byte.
import { CaseDraft, HostileCase } from './hostile-case';
import { jsonBodies, pollutingBodies, protobufBodies, yamlBodies } from './families/bodies';
import { customResources } from './families/custom-resources';
import { sizes } from './families/sizes';
import { subresources } from './families/subresources';
import { credentials, impersonations, malformedImpersonations } from './families/identity';
import { patches, pollutingPatches } from './families/patches';
import { deleteOptions, framing, headers, paths, queries, watches } from './families/requests';
import { Prng } from './prng';

type Family = (prng: Prng, count: number) => CaseDraft[];

// familyCounts is how many cases each family contributes (about 1,460 in all).
export const familyCounts: [Family, number][] = [
  [jsonBodies, 220],
  [yamlBodies, 110],
  [protobufBodies, 110],
  [pollutingBodies, 40],
  [patches, 300],
  [pollutingPatches, 40],
  [customResources, 80],
  [subresources, 60],
  [sizes, 11],
  [watches, 4],
  [queries, 140],
  [deleteOptions, 40],
  [paths, 110],
  [headers, 70],
  [framing, 40],
  [credentials, 80],
  [impersonations, 50],
  [malformedImpersonations, 20],
];

// generateCases draws each family from its own stream (seed and family index), so that changing
// one family's count leaves the others' cases as they were.
export function generateCases(seed: number): HostileCase[] {
  const drafts = familyCounts.flatMap(([family, count], i) => family(new Prng((seed ^ Math.imul(i + 1, 0x9e3779b1)) >>> 0), count));
  return drafts.map((draft, id) => ({ id, ...draft }));
}

// hasTag tells whether one of a case's damages (tags joined by "+") ends with the tag.
export const hasTag = (c: HostileCase, tag: string) => c.tag.split('+').some((t) => t === tag || t.endsWith(`:${tag}`));

// PendingFix leaves cases out of the run until the fix they wait for lands, with the reason.
export interface PendingFix {
  reason: string;
  matches(c: HostileCase): boolean;
}

// PENDING_FIXES are the cases left out of the run, each until the named fix lands in main.
export const PENDING_FIXES: PendingFix[] = [
  {
    reason:
      'issue 11 part A (framing): Content-Length together with Transfer-Encoding: chunked answers 501 "Unsupported transfer encoding"; Go\'s server lets chunked override the length (RFC 7230 3.3.3) and serves the request, so kube-apiserver answers its handler\'s 400',
    matches: (c) => c.tag === 'framing:length-and-chunked',
  },
];

// runnableCases are the generated cases minus those PENDING_FIXES holds back.
export function runnableCases(seed: number): { cases: HostileCase[]; pending: { reason: string; count: number }[] } {
  const all = generateCases(seed);
  const pending = PENDING_FIXES.map((fix) => ({ reason: fix.reason, count: all.filter((c) => fix.matches(c)).length }));
  return { cases: all.filter((c) => !PENDING_FIXES.some((fix) => fix.matches(c))), pending };
}

// KubernetesServerError is a 5xx kube-apiserver answers too, so the suite allows it.
export interface KubernetesServerError {
  status: number;
  reason: string;
  matches(c: HostileCase, body: string): boolean;
}

// strategicPlainErrors are strategicpatch's plain Go errors, which
// interpretStrategicMergePatchError passes through and the apiserver answers with 500 and no
// reason (libs/patch/src/strategic-merge-patch.ts lists them).
const strategicPlainErrors = /"message":"(unknown patch type: |expected a .*, but received a |map: .* does not contain declared merge key: |merging lists cannot yet be specified in the patch|list element types are not identical: |no elements in any of the given slices|The order in patch list:|expected slice or array type, but got: |cannot merge lists without merge key for |unexpected patch strategy: )/;

// malformedResourceVersion is ParseResourceVersion's error for a value strconv.ParseUint refuses
// (indented when the request asks for pretty output).
const malformedResourceVersion = /"message": ?"resourceVersion: Invalid value: \\"[^"]*\\": strconv\.ParseUint: parsing \\"[^"]*\\": invalid syntax"/;

export const KUBERNETES_SERVER_ERRORS: KubernetesServerError[] = [
  {
    status: 501,
    reason: 'a transfer coding other than chunked: Go\'s server answers 501 Not Implemented ("Unsupported transfer encoding") before any handler',
    matches: (c, body) => c.tag === 'framing:unknown-transfer-encoding' && body === 'Unsupported transfer encoding',
  },
  {
    status: 500,
    reason: 'impersonation headers with groups, a uid or extras but no user: the impersonation filter answers InternalError ("requested [...] without impersonating a user")',
    matches: (c) => ['impersonation:group-without-user', 'impersonation:uid-without-user', 'impersonation:extra-without-user'].includes(c.tag),
  },
  {
    status: 500,
    reason: 'strategic merge patch errors that are plain Go errors in k8s.io/apimachinery/pkg/util/strategicpatch (unknown $patch, $setElementOrder not a list, a list item without its merge key, ...): 500 with reason Unknown',
    matches: (c, body) => /strategic-merge-patch/.test(c.headers.map(([, v]) => v).join(' ')) && strategicPlainErrors.test(body) && !body.includes('"reason"'),
  },
  {
    status: 500,
    reason: 'a resourceVersion that is no unsigned integer on a get, an unpaged list, a watch or a deletecollection: storage refuses it (strconv.ParseUint) and the apiserver answers 500 with reason Unknown, as a real kube-apiserver 1.28 does (test/differential, leases and watch)',
    matches: (_c, body) => /"message":\s*"(resourceVersion: Invalid value: .*?: )?strconv\.ParseUint: parsing /.test(body) && !body.includes('"reason"'),
  },
  {
    status: 500,
    reason: 'an object whose stored form passes etcd\'s --max-request-bytes (1.5 MiB) even once written again without its managedFields: etcd refuses the write and the apiserver answers 500 with etcd\'s text and reason Unknown',
    matches: (c, body) => c.family === 'size' && body.includes('"message":"etcdserver: request is too large"') && !body.includes('"reason"'),
  },
  {
    status: 500,
    reason:
      'a get, list or watch (not a paged list) whose resourceVersion is not a decimal number (abc, -1, 1.5, 0x10, " 1"): the storage layer\'s ParseResourceVersion fails and kube-apiserver 1.28.7 answers 500 with no reason (test/differential/scenarios/leases.yaml "get with a resourceVersion that is not a number")',
    matches: (c, body) => c.method === 'GET' && /[?&]resourceVersion=/.test(c.path) && malformedResourceVersion.test(body) && !body.includes('"reason"'),
  },
  {
    status: 504,
    reason:
      'a get or list at a resourceVersion far ahead of the store: the watch cache waits 3 s for it, then kube-apiserver 1.28.7 answers 504 Timeout "Too large resource version" with a ResourceVersionTooLarge cause (test/differential/scenarios/paging.yaml "a list at a resourceVersion far ahead")',
    matches: (c, body) => c.method === 'GET' && /[?&]resourceVersion=/.test(c.path) && /"reason": ?"ResourceVersionTooLarge"/.test(body),
  },
  {
    status: 500,
    reason:
      'a server-side apply (to a built-in type or a custom resource) naming a field its schema does not declare (constructor, __proto__, $patch, ...) or giving a field a value of another type (a map for a string, a string for a number): the field manager cannot make a typed patch object and kube-apiserver 1.28.7 answers 500 "failed to create typed patch object" with no reason, whatever fieldValidation says (test/differential/scenarios/patch-apply.yaml "server-side apply with unknown fields is refused"; test/kubectl/stock/sessions.yaml, an apply of a string leaseDurationSeconds)',
    matches: (c, body) =>
      c.method === 'PATCH' &&
      c.headers.some(([name, value]) => name.toLowerCase() === 'content-type' && value.startsWith('application/apply-patch+yaml')) &&
      body.includes('"message":"failed to create typed patch object (') &&
      /field not declared in schema|: expected (string|boolean|numeric \(int or float\)), got /.test(body) &&
      !body.includes('"reason"'),
  },
];
