// The request line and headers: hostile query parameters, DeleteOptions, paths, methods,
// content types and encodings, and requests that are not valid HTTP/1.1 at all.
import { CaseDraft } from '../hostile-case';
import { CollectionName, collections, collectionsIn, fixtureName, pathsNamespace } from '../fixtures';
import { fromPlain, toJson } from '../json-tree';
import { mutateTree } from '../mutators';
import { Prng } from '../prng';

const kinds = Object.keys(collections) as CollectionName[];

// queryParameters are hostile values of the parameters list, get, delete and writes read. No
// value of watch or follow starts a stream (the suite waits for every answer to end).
const queryParameters: [string, string[]][] = [
  ['limit', ['-1', '0', 'abc', '1e3', '9223372036854775808', '99999999999999999999999', '1.5', '', '%00']],
  ['continue', ['garbage', 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0IjoiIn0', 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6OTk5OTk5OTk5OTk5OTk5OTk5OTk5LCJzdGFydCI6Ii4uLy4uLyJ9', '%FF%FE', 'e30']],
  ['resourceVersion', ['abc', '-1', '9223372036854775808', '1.5', '%00', '0x10', ' 1']],
  ['resourceVersionMatch', ['Bogus', 'Exact', 'NotOlderThan', '']],
  ['timeoutSeconds', ['-1', 'abc', '9223372036854775808', '1e400', '1.5']],
  // timeout is a Go duration; none of these ends a request early (a write cut by its deadline may
  // still land, as in kube-apiserver).
  ['timeout', ['abc', '5', '-1s', '1e400h', '9223372036854775807ns', '99999999999h', '%00', '1.5.5s', '']],
  ['labelSelector', ['a in ()', 'a%00b=c', '!!', '=', 'a=b,', 'a==', 'a in (b', '(a)', 'a=' + 'x'.repeat(70), 'ф=1', 'a notin ()', 'a,,b', '%E2%80%AE=1', 'a>1', 'a<x']],
  ['fieldSelector', ['metadata.name', 'bogus=1', 'metadata.name==', 'status.phase!=', 'metadata.name=a,', 'spec.nodeName=%00', '=', 'a in (b)']],
  // kube reads every value but 0 and false (any case) as true, the empty one too: those start a watch.
  ['watch', ['False', 'FALSE', 'fAlSe', '0']],
  ['allowWatchBookmarks', ['maybe', '1']],
  ['sendInitialEvents', ['maybe', 'true']],
  ['dryRun', ['Bogus', 'all', '', 'All&dryRun=All']],
  ['fieldManager', ['%00', 'a%0Ab', 'x'.repeat(200), '%E2%80%AE', 'ф']],
  ['fieldValidation', ['Bogus', 'strict', '']],
  ['gracePeriodSeconds', ['-5', 'abc', '9223372036854775808', '1e3', '1.5']],
  ['propagationPolicy', ['Bogus', 'orphan', '']],
  ['orphanDependents', ['maybe', '2']],
  ['pretty', ['maybe', '2']],
  ['export', ['true']],
  ['exact', ['true']],
  ['includeUninitialized', ['true']],
  ['%00', ['1']],
  ['', ['x']],
];

function query(prng: Prng): { text: string; names: string[] } {
  const n = 1 + prng.int(3);
  const parts: string[] = [];
  const names: string[] = [];
  for (let i = 0; i < n; i++) {
    const [name, values] = prng.pick(queryParameters);
    names.push(name || '(empty)');
    // Spaces and non-ASCII are escaped: raw, they would make the request line invalid HTTP.
    parts.push(`${name}=${prng.pick(values).replace(/[^\x21-\x7e]/gu, (ch) => encodeURIComponent(ch))}`);
  }
  if (prng.chance(0.1)) parts.push(parts[0]);
  return { text: parts.join('&'), names };
}

// queries send hostile query parameters with list, get, delete, update and create.
export function queries(prng: Prng, count: number): CaseDraft[] {
  return Array.from({ length: count }, (): CaseDraft => {
    const kind = prng.pick(kinds);
    const collection = collections[kind];
    const q = query(prng);
    const shape = prng.pick(['list', 'list', 'get', 'delete', 'deletecollection', 'create'] as const);
    const named = shape === 'get' || shape === 'delete';
    const method = { list: 'GET', get: 'GET', delete: 'DELETE', deletecollection: 'DELETE', create: 'POST' }[shape];
    const body = shape === 'create' ? Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: `query-${prng.string(6)}` } })) : undefined;
    const path = shape === 'create' ? collections.serviceaccounts : named ? `${collection}/${fixtureName(kind)}` : prng.chance(0.2) ? `/api/v1/${kind === 'pods' || kind === 'serviceaccounts' ? kind : 'pods'}` : collection;
    return {
      family: 'query',
      tag: `query:${q.names[0]}`,
      what: `${shape} with ${q.text.slice(0, 200)}`,
      method,
      path: `${path}?${q.text}`,
      headers: body ? [['content-type', 'application/json']] : [],
      body,
      credential: { kind: 'admin' },
      snapshots: [shape === 'create' ? collections.serviceaccounts : collection],
    };
  });
}

// deleteOptions sends damaged DeleteOptions bodies with deletes of the fixtures. The wrong types
// are refused by Kubernetes (400) before anything is deleted.
export function deleteOptions(prng: Prng, count: number): CaseDraft[] {
  const wrongTypes: [string, string][] = [
    ['grace-string', '{"gracePeriodSeconds":"30"}'],
    ['grace-array', '{"gracePeriodSeconds":[]}'],
    ['grace-float', '{"gracePeriodSeconds":1.5}'],
    ['grace-overflow', '{"gracePeriodSeconds":9223372036854775808}'],
    ['options-array', '[]'],
    ['options-string', '"x"'],
    ['kind-pod', '{"kind":"Pod","apiVersion":"v1"}'],
    ['dry-run-string', '{"dryRun":"All"}'],
    ['preconditions-array', '{"preconditions":[]}'],
    ['propagation-number', '{"propagationPolicy":1}'],
    ['not-json', '{"gracePeriodSeconds":'],
  ];
  return Array.from({ length: count }, (): CaseDraft => {
    const kind = prng.pick(['serviceaccounts', 'roles', 'leases', 'jobs'] as const);
    const collection = collections[kind];
    const base = { family: 'delete-options', method: 'DELETE', path: `${collection}/${fixtureName(kind)}`, headers: [['content-type', 'application/json']] as [string, string][], credential: { kind: 'admin' as const }, snapshots: [collection] };
    if (prng.chance(0.5)) {
      const [name, body] = prng.pick(wrongTypes);
      return { ...base, tag: `delete-options:${name}`, what: body, body: Buffer.from(body), expect: 'refused' };
    }
    const refused = { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: '00000000-0000-0000-0000-000000000000' }, gracePeriodSeconds: 0, propagationPolicy: 'Background' };
    const m = mutateTree(prng, fromPlain(refused));
    return { ...base, tag: `delete-options:${m.tag}`, what: m.what, body: Buffer.from(toJson(m.value)) };
  });
}

const ns = pathsNamespace;
const pathCollections = collectionsIn(pathsNamespace);

// hostilePaths: dot segments (plain, encoded, backslashed), doubled slashes, encoded slashes and
// NULs, unknown groups and versions, subresources past their end, names where Kubernetes allows
// none. Every one is sent as written.
const hostilePaths: string[] = [
  '///',
  '//',
  '/api//v1/namespaces',
  '/api/v1//namespaces/default/pods',
  `/api/v1/namespaces/%2e%2e/pods`,
  `/api/v1/namespaces/../pods`,
  `/api/v1/namespaces/${ns}/pods/../../kube-system/pods`,
  `/api/v1/namespaces/${ns}/pods/%2e%2e/%2e%2e/kube-system/pods`,
  `/api/v1/namespaces/${ns}/pods/..%2f..%2fkube-system/pods`,
  `/api/v1/namespaces/${ns}/serviceaccounts/.`,
  `/api/v1/namespaces/${ns}/serviceaccounts/..`,
  `/api/v1/namespaces/${ns}/serviceaccounts/%2e`,
  `/api/v1/namespaces/${ns}/serviceaccounts\\..\\..\\kube-system\\configmaps`,
  `/api/v1/namespaces/${ns}/serviceaccounts/a%2Fb`,
  `/api/v1/namespaces/${ns}/serviceaccounts/a%00b`,
  `/api/v1/namespaces/${ns}/serviceaccounts/%`,
  `/api/v1/namespaces/${ns}/serviceaccounts/%zz`,
  `/api/v1/namespaces/${ns}/serviceaccounts/%C0%AE%C0%AE`,
  `/api/v1/namespaces/${ns}/serviceaccounts/${'a'.repeat(300)}`,
  `/api/v1/namespaces/${ns}/serviceaccounts/${fixtureName('serviceaccounts')}/status`,
  `/api/v1/namespaces/${ns}/serviceaccounts/${fixtureName('serviceaccounts')}/bogus/extra/parts`,
  `/api/v1/namespaces/${ns}/pods/${fixtureName('pods')}/status/extra`,
  `/api/v1/namespaces/${ns}/pods/${fixtureName('pods')}/log`,
  `/api/v1/namespaces/${ns}/pods/${fixtureName('pods')}/exec`,
  `/api/v1/namespaces/${ns}/pods/${fixtureName('pods')}/proxy/x`,
  `/api/v1/namespaces/${ns}/pods/${fixtureName('pods')}/eviction`,
  `/api/v1/namespaces/${ns}/pods/${fixtureName('pods')}/binding`,
  `/api/v1/namespaces/${ns}/bogus`,
  `/api/v1/namespaces/${ns}`,
  `/api/v1/namespaces/${ns}/finalize`,
  `/api/v1/namespaces//pods`,
  `/api/v1/namespaces/UPPER/pods`,
  `/api/v1/namespaces/${ns}/serviceaccounts?`,
  `/api/v1/namespaces/${ns}/serviceaccounts;x=y`,
  `/api/v1/namespaces/${ns}/serviceaccounts#frag`,
  '/api/v2/namespaces',
  '/api/v1/bogus',
  '/api/v1/watch',
  '/apis/no.such.group/v1/things',
  '/apis/apps',
  '/apis/apps/v9/daemonsets',
  '/apis/apps/v1/namespaces',
  `/apis/apps/v1/namespaces/${ns}/daemonsets/${fixtureName('daemonsets')}/status/x`,
  '/apis/%2e%2e/v1',
  '/apis//apps/v1',
  '/openapi/v2/../v3',
  '/openapi/v3/apis/no/such',
  '/openapi/v3/%2e%2e',
  '/version/..',
  '/healthz/%00',
  '/readyz/bogus-check',
  '/livez?verbose=maybe&exclude=x',
  '/metrics/../api',
  '/logs/../../etc/passwd',
  '/%2e%2e/%2e%2e/etc/passwd',
  '/api/v1/namespaces/default/serviceaccounts/default/token',
  `/api/v1/namespaces/${ns}/serviceaccounts/${'%2e'.repeat(100)}`,
  `/api/v1/namespaces/${ns}/serviceaccounts/${'x/'.repeat(500)}`,
  `/api/v1/namespaces/${ns}/serviceaccounts?${'a=b&'.repeat(1000)}`,
];

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];

// paths sends hostile paths with every method (writes with a valid ConfigMap body).
export function paths(prng: Prng, count: number): CaseDraft[] {
  return Array.from({ length: count }, (): CaseDraft => {
    const path = prng.pick(hostilePaths);
    const method = prng.pick(methods);
    const write = method === 'POST' || method === 'PUT' || method === 'PATCH';
    const body = write ? Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: `path-${prng.string(6)}` } })) : undefined;
    // Kubernetes refuses a POST to a named object (405) and the names . and .. whatever the
    // method (400, "Name parameter invalid"); it never resolves them as dot segments.
    const named = /\/namespaces\/[^/]+\/serviceaccounts\/[^/?#;]+/.test(path) && !path.endsWith('/token');
    const dotName = /\/serviceaccounts\/(\.|\.\.|%2e)$/i.test(path);
    const refused = (method === 'POST' && named) || (dotName && method !== 'OPTIONS');
    return {
      family: 'path',
      tag: refused ? (dotName ? 'path:dot-name' : 'path:post-to-named') : 'path',
      ...(refused ? { expect: 'refused' as const } : {}),
      what: `${method} as written`,
      method,
      path,
      headers: write ? [['content-type', method === 'PATCH' ? 'application/merge-patch+json' : 'application/json']] : [],
      body,
      credential: { kind: 'admin' },
      snapshots: [pathCollections.serviceaccounts, pathCollections.pods],
    };
  });
}

// headerVariants damage the content negotiation and encoding headers of ordinary requests.
const headerVariants: [string, [string, string][]][] = [
  ['content-type-utf16', [['content-type', 'application/json; charset=utf-16']]],
  ['content-type-garbage', [['content-type', ';;;=']]],
  ['content-type-text', [['content-type', 'text/plain']]],
  ['content-type-multipart', [['content-type', 'multipart/form-data; boundary=x']]],
  ['content-type-stream-watch', [['content-type', 'application/vnd.kubernetes.protobuf;stream=watch']]],
  ['content-type-params', [['content-type', 'application/json; a=b; a=c; charset=""']]],
  ['content-type-twice', [['content-type', 'application/json'], ['content-type', 'application/yaml']]],
  ['accept-garbage', [['accept', '*/*;q=abc']]],
  ['accept-nothing-served', [['accept', 'image/png']]],
  ['accept-table-bad-version', [['accept', 'application/json;as=Table;g=meta.k8s.io;v=v9']]],
  ['accept-table-bad-group', [['accept', 'application/json;as=Table;g=bogus;v=v1']]],
  ['accept-partial-metadata', [['accept', 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1']]],
  ['accept-partial-wrong', [['accept', 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1']]],
  ['accept-protobuf-table', [['accept', 'application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1']]],
  ['accept-yaml', [['accept', 'application/yaml']]],
  ['accept-long', [['accept', Array(300).fill('application/json;q=0.1').join(',')]]],
  ['content-encoding-gzip-garbage', [['content-encoding', 'gzip']]],
  ['content-encoding-unknown', [['content-encoding', 'br, zstd, bogus']]],
  ['accept-encoding-garbage', [['accept-encoding', 'gzip;q=x, *;q=-1']]],
  ['many-headers', Array.from({ length: 90 }, (_, i) => [`x-hostile-${i}`, 'v'] as [string, string])],
  ['big-header', [['x-hostile', 'v'.repeat(12000)]]],
  ['oversized-header', [['x-hostile', 'v'.repeat(40000)]]],
  ['expect-continue', [['expect', '100-continue']]],
  ['traceparent-garbage', [['traceparent', '00-zz-zz-zz']]],
  ['user-agent-latin1', [['user-agent', 'caf\u00e9']]],
  ['audit-id-long', [['audit-id', 'a'.repeat(5000)]]],
  ['x-forwarded-garbage', [['x-forwarded-for', 'not-an-ip, ::::'], ['x-forwarded-proto', 'gopher']]],
  ['connection-upgrade', [['connection', 'Upgrade'], ['upgrade', 'websocket']]],
];

// headers sends ordinary reads and writes with damaged headers.
export function headers(prng: Prng, count: number): CaseDraft[] {
  return Array.from({ length: count }, (): CaseDraft => {
    const [name, extra] = prng.pick(headerVariants);
    const write = prng.chance(0.5);
    const body = write ? Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: `header-${prng.string(6)}` }, data: { k: 'v' } })) : undefined;
    const ownContentType = extra.some(([k]) => k === 'content-type');
    return {
      family: 'header',
      tag: `header:${name}`,
      what: write ? 'create' : 'list',
      method: write ? 'POST' : 'GET',
      path: collections.serviceaccounts,
      headers: [...(write && !ownContentType ? ([['content-type', 'application/json']] as [string, string][]) : []), ...extra],
      body,
      credential: { kind: 'admin' },
      snapshots: [collections.serviceaccounts],
    };
  });
}

// framingRequests are written byte by byte: unknown or lower-case methods, CONNECT, bad
// Content-Length and chunking, missing Host, old versions, raw bytes in the request line.
const framingRequests: [string, (auth: string) => string][] = [
  ['unknown-method', (auth) => `FOO /api/v1/namespaces HTTP/1.1\r\nHost: x\r\n${auth}\r\n`],
  ['lower-case-method', (auth) => `get /api/v1/namespaces HTTP/1.1\r\nHost: x\r\n${auth}\r\n`],
  ['connect', (auth) => `CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n${auth}\r\n`],
  ['trace', (auth) => `TRACE /api/v1/namespaces HTTP/1.1\r\nHost: x\r\n${auth}\r\n`],
  ['propfind', (auth) => `PROPFIND /api/v1/namespaces HTTP/1.1\r\nHost: x\r\n${auth}\r\n`],
  ['bad-content-length', (auth) => `POST ${collections.serviceaccounts} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: abc\r\n\r\n{}`],
  ['negative-content-length', (auth) => `POST ${collections.serviceaccounts} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: -1\r\n\r\n{}`],
  ['two-content-lengths', (auth) => `POST ${collections.serviceaccounts} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`],
  ['length-and-chunked', (auth) => `POST ${collections.serviceaccounts} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`],
  ['bad-chunk-size', (auth) => `POST ${collections.serviceaccounts} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`],
  ['unknown-transfer-encoding', (auth) => `POST ${collections.serviceaccounts} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: bogus\r\n\r\n`],
  ['no-host', (auth) => `GET /api/v1/namespaces HTTP/1.1\r\n${auth}\r\n`],
  ['two-hosts', (auth) => `GET /api/v1/namespaces HTTP/1.1\r\nHost: a\r\nHost: b\r\n${auth}\r\n`],
  ['http-1.0', (auth) => `GET /api/v1/namespaces HTTP/1.0\r\n${auth}\r\n`],
  ['http-2.0-line', (auth) => `GET /api/v1/namespaces HTTP/2.0\r\nHost: x\r\n${auth}\r\n`],
  ['http-9.9', (auth) => `GET /api/v1/namespaces HTTP/9.9\r\nHost: x\r\n${auth}\r\n`],
  ['absolute-form', (auth) => `GET https://127.0.0.1/api/v1/namespaces HTTP/1.1\r\nHost: x\r\n${auth}\r\n`],
  ['asterisk-form', (auth) => `OPTIONS * HTTP/1.1\r\nHost: x\r\n${auth}\r\n`],
  ['space-in-path', (auth) => `GET /api/v1/name spaces HTTP/1.1\r\nHost: x\r\n${auth}\r\n`],
  ['utf8-path', (auth) => `GET /api/v1/namespaces/ф/pods HTTP/1.1\r\nHost: x\r\n${auth}\r\n`],
  ['nul-in-path', (auth) => `GET /api/v1/namespaces/a\u0000b/pods HTTP/1.1\r\nHost: x\r\n${auth}\r\n`],
  ['header-without-colon', (auth) => `GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nbroken header\r\n${auth}\r\n`],
  ['header-space-before-colon', (auth) => `GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nX-Bad : y\r\n${auth}\r\n`],
  ['header-obs-fold', (auth) => `GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nX-Fold: a\r\n b\r\n${auth}\r\n`],
  ['header-bare-lf', (auth) => `GET /api/v1/namespaces HTTP/1.1\nHost: x\n${auth.replace(/\r\n/g, '\n')}\n`],
  ['header-nul', (auth) => `GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0000b\r\n${auth}\r\n`],
  ['header-utf8', (auth) => `GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nX-Bad: ф\r\n${auth}\r\n`],
  ['expect-bogus', (auth) => `GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\n${auth}\r\n`],
  ['header-control-char', (auth) => `GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nUser-Agent: a\u0001b\r\n${auth}\r\n`],
  ['huge-url', (auth) => `GET /api/v1/namespaces?labelSelector=${'a'.repeat(40000)} HTTP/1.1\r\nHost: x\r\n${auth}\r\n`],
  ['garbage-line', () => 'this is not http\r\n\r\n'],
  ['tls-in-tls', () => '\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003'],
  ['h2-preface', () => 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
];

// framing sends requests that are not (or not Node's idea of) valid HTTP/1.1. `{auth}` stands
// for the administrator's Authorization header, which the target fills in.
export function framing(prng: Prng, count: number): CaseDraft[] {
  return Array.from({ length: count }, (): CaseDraft => {
    const [name, text] = prng.pick(framingRequests);
    return {
      family: 'framing',
      tag: `framing:${name}`,
      what: name,
      method: '(raw)',
      path: '',
      headers: [],
      body: Buffer.from(text('{auth}'), 'utf8'),
      credential: { kind: 'admin' },
      snapshots: [collections.serviceaccounts],
      framing: true,
    };
  });
}

// watchQueries open watches that end by themselves (timeoutSeconds=1) with hostile companions:
// a resourceVersion long compacted or never reached, the streaming list without its feature,
// a bookmark request on an impossible selector.
const watchQueries: [string, string][] = [
  ['too-old', 'resourceVersion=1'],
  ['future', 'resourceVersion=99999999999'],
  ['streaming-list', 'sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true'],
  ['bookmarks-selector', 'allowWatchBookmarks=true&labelSelector=a%20notin%20(a)&fieldSelector=metadata.name%3D%3D'],
];

export function watches(prng: Prng, count: number): CaseDraft[] {
  return Array.from({ length: count }, (_, i): CaseDraft => {
    const [name, query] = watchQueries[i % watchQueries.length];
    const kind = prng.pick(kinds);
    return {
      family: 'watch',
      tag: `watch:${name}`,
      what: query,
      method: 'GET',
      path: `${collections[kind]}?watch=1&timeoutSeconds=1&${query}`,
      headers: [],
      credential: { kind: 'admin' },
      snapshots: [],
    };
  });
}
