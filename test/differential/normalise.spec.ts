// The normaliser's ways of comparing the parts of a document both servers serve: select,
// omitKeys, lines, extra headers and array elements in ignore; and the orders the controller
// areas compare in (sortItems, managedFields).
import { normaliseAnswer, partAt, RawAnswer, withManagedFieldsInOrder } from './normalise';
import { sortedItems } from './run';

const volatiles = { ns: 'diff-ns', u: 'uuuuuu' };

function raw(body: unknown, headers: Record<string, string[]> = { 'content-type': ['application/json'] }): RawAnswer {
  return { status: 200, headers, body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)) };
}

const resourceList = {
  kind: 'APIResourceList',
  resources: [
    { name: 'jobs', kind: 'Job' },
    { name: 'jobs/status', kind: 'Job' },
  ],
  items: [{ metadata: { name: 'batch' }, versions: [{ version: 'v1' }] }],
};

test('a select pointer picks array elements by a member, whole even when the value holds a slash', () => {
  expect(partAt(resourceList, '/resources/[name=jobs/status]')).toEqual({ name: 'jobs/status', kind: 'Job' });
  expect(partAt(resourceList, '/resources/[name=jobs~1status]')).toEqual({ name: 'jobs/status', kind: 'Job' });
  expect(partAt(resourceList, '/items/[metadata.name=batch]/versions/0/version')).toBe('v1');
  expect(partAt(resourceList, '/resources/[name=cronjobs]')).toBeUndefined();
  expect(partAt({ paths: { 'apis/batch/v1': 1 } }, '/paths/apis~1batch~1v1')).toBe(1);
});

test('a selected body keeps each part under its pointer, without the omitted keys at any depth', () => {
  const schema = { definitions: { Job: { description: 'x', 'x-platform-list-type': 'atomic', 'x-kubernetes-list-type': 'atomic', properties: { a: { description: 'y', type: 'string' } } } } };
  const answer = normaliseAnswer(raw(schema), { ...volatiles, selected: ['/definitions/Job', '/definitions/Nothing'], omitted: ['description', 'x-platform-*'] });
  expect(answer.json).toEqual({ '/definitions/Job': { 'x-kubernetes-list-type': 'atomic', properties: { a: { type: 'string' } } } });
});

test('lines keeps the matching lines of a text body, and headers adds the named ones', () => {
  const text = '[+]ping ok\n[+]poststarthook/x ok\n[+]shutdown ok\nreadyz check passed\n';
  const answer = normaliseAnswer(raw(text, { 'content-type': ['text/plain; charset=utf-8'], etag: ['"AB"'], vary: ['Accept'] }), {
    ...volatiles,
    lines: ['^\\[.\\](ping|shutdown) ', 'check passed$'],
    headers: ['ETag'],
  });
  expect(answer.text).toBe('[+]ping ok\n[+]shutdown ok\nreadyz check passed');
  expect(answer.headers).toEqual({ 'content-type': 'text/plain; charset=utf-8', etag: '"AB"' });
});

test('ignore removes array elements as well as members', () => {
  const gvks = { gvk: [{ group: 'a.platform.io' }, { group: 'a.k8s.io' }], other: 1 };
  expect(normaliseAnswer(raw(gvks), { ...volatiles, ignored: ['/gvk/1', '/other'] }).json).toEqual({ gvk: [{ group: 'a.platform.io' }] });
});

test('sortItems orders a list by a value of each item, and leaves other answers alone', () => {
  const list = { kind: 'PodList', items: [{ metadata: { name: 'd-x' }, spec: { node: 'n2' } }, { metadata: { name: 'd-y' }, spec: { node: 'n1' } }] };
  const sorted = JSON.parse(sortedItems(raw(list), 'spec.node').body.toString()) as typeof list;
  expect(sorted.items.map((i) => i.spec.node)).toEqual(['n1', 'n2']);
  expect(sortedItems(raw('plain text'), 'spec.node').body.toString()).toBe('plain text');
});

test('managedFields are put in the order of operation, manager and subresource', () => {
  const entries = [
    { manager: 'unknown', operation: 'Update', time: '<time>' },
    { manager: 'kube-controller-manager', operation: 'Update', time: '<time>', subresource: 'status' },
    { manager: 'kubectl', operation: 'Apply', time: '<time>' },
  ];
  const ordered = withManagedFieldsInOrder({ json: { items: [{ metadata: { managedFields: entries } }] } }) as { json: { items: { metadata: { managedFields: { manager: string }[] } }[] } };
  expect(ordered.json.items[0].metadata.managedFields.map((e) => e.manager)).toEqual(['kubectl', 'kube-controller-manager', 'unknown']);
});

test('revision hashes become <hash-N> in order of appearance, across the steps of a scenario', () => {
  const revisionHashes: string[] = [];
  const pods = { items: [{ metadata: { name: 'd1-x', labels: { 'controller-revision-hash': '6b8d9c7f5d' } } }, { metadata: { labels: { 'controller-revision-hash': '7c9z' } } }] };
  expect(normaliseAnswer(raw(pods), { ...volatiles, revisionHashes }).json).toEqual({
    items: [{ metadata: { name: 'd1-x', labels: { 'controller-revision-hash': '<hash-1>' } } }, { metadata: { labels: { 'controller-revision-hash': '<hash-2>' } } }],
  });
  const revision = { metadata: { name: 'd1-7c9z', labels: { 'controller-revision-hash': '7c9z' } }, data: 'a7c9zb 7c9z' };
  expect(normaliseAnswer(raw(revision), { ...volatiles, revisionHashes }).json).toEqual({ metadata: { name: 'd1-<hash-2>', labels: { 'controller-revision-hash': '<hash-2>' } }, data: 'a7c9zb <hash-2>' });
});
