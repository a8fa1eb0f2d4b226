// Patches of every type against the fixtures: JSON patch operations with hostile paths and
// values, merge and strategic merge patches with damaged bodies and directives, apply bodies
// without what apply needs, each sometimes under the wrong content type.
import { CaseDraft } from '../hostile-case';
import { CollectionName, collections, fixtureName, manifests } from '../fixtures';
import { fromPlain, Node, Obj, Raw, toJson, toYaml, nested } from '../json-tree';
import { mutateTree, pollutionKey, pollutionValue } from '../mutators';
import { Prng } from '../prng';
import { damaged } from './bodies';

const kinds = Object.keys(collections) as CollectionName[];

const patchTypes = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

const jsonPatchPaths = [
  '/metadata/labels/app',
  '/metadata/labels/new',
  '/metadata/annotations',
  '/metadata',
  '/metadata/name',
  '/metadata/resourceVersion',
  '/metadata/uid',
  '/metadata/labels/a~1b',
  '/metadata/labels/~2',
  '/metadata/labels/~',
  '/metadata/finalizers/-',
  '/metadata/finalizers/0',
  '/metadata/finalizers/-1',
  '/metadata/finalizers/99999999999999999999',
  '/metadata/finalizers/01',
  '/metadata/ownerReferences/0/uid',
  '/spec/containers/0/image',
  '/spec/containers/0/ports/0/containerPort',
  '/secrets/0/name',
  '/automountServiceAccountToken',
  '/spec/parallelism',
  '/spec/template/spec/containers/0/image',
  '/rules/0/verbs/-',
  '/spec/leaseDurationSeconds',
  '/kind',
  '/apiVersion',
  '/status',
  '/',
  '',
  'metadata/labels',
  '/metadata//labels',
  '/\u0000',
  '/ф',
  '/__proto__/' + pollutionKey,
  '/constructor/prototype/' + pollutionKey,
  '/metadata/__proto__/' + pollutionKey,
  '/metadata/labels/__proto__',
  '/metadata/labels/constructor',
  '/rules/0/__proto__',
];

const jsonPatchValues: Node[] = [
  'x',
  null,
  1,
  new Raw('1e400'),
  new Raw('2147483648'),
  [],
  new Obj([]),
  new Obj([['a', 'b']]),
  pollutionValue(),
  nested(300, 'object'),
  'a\u0000b',
  'x'.repeat(300),
];

function jsonPatchOperation(prng: Prng): Node {
  const entries: [string, Node][] = [];
  const op = prng.pick(['add', 'remove', 'replace', 'move', 'copy', 'test', 'bogus', '', 'ADD']);
  if (prng.chance(0.95)) entries.push(['op', prng.chance(0.05) ? 1 : op]);
  if (prng.chance(0.9)) entries.push(['path', prng.chance(0.05) ? new Obj([]) : prng.pick(jsonPatchPaths)]);
  if ((op === 'move' || op === 'copy') && prng.chance(0.9)) entries.push(['from', prng.pick(jsonPatchPaths)]);
  if (op !== 'remove' && prng.chance(0.85)) entries.push(['value', prng.pick(jsonPatchValues)]);
  if (prng.chance(0.05)) entries.push(['op', 'remove']);
  return new Obj(entries);
}

function jsonPatchBody(prng: Prng): { body: string; tag: string } {
  const shape = prng.int(12);
  if (shape === 0) return { body: prng.pick(['{}', 'null', '"x"', '[1]', '[null]', '[[]]', '', '[', '{"op":"add"}']), tag: 'json-patch:not-a-list' };
  if (shape === 1) return { body: toJson(Array.from({ length: 5000 }, () => new Obj([['op', 'test'], ['path', '/metadata/name'], ['value', 'no']]))), tag: 'json-patch:many-operations' };
  const ops = Array.from({ length: 1 + prng.int(3) }, () => jsonPatchOperation(prng));
  return { body: toJson(ops), tag: 'json-patch:operations' };
}

// smallPatch is a merge or strategic patch body that touches labels and a field of the kind.
function smallPatch(kind: CollectionName): Record<string, unknown> {
  const extra: Record<CollectionName, Record<string, unknown>> = {
    serviceaccounts: { secrets: [{ name: 'patched' }], automountServiceAccountToken: false },
    pods: { spec: { containers: [{ name: 'c', image: 'busybox:1' }] } },
    roles: { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
    leases: { spec: { holderIdentity: 'patched', leaseDurationSeconds: 20 } },
    jobs: { spec: { parallelism: 2, template: { spec: { containers: [{ name: 'c', image: 'busybox:1' }] } } } },
    daemonsets: { spec: { minReadySeconds: 5, template: { spec: { containers: [{ name: 'c', image: 'busybox:1' }] } } } },
  };
  return { metadata: { labels: { patched: 'yes' } }, ...extra[kind] };
}

// strategicDirectives are strategic merge patch directives, in and out of place.
const strategicDirectives: [string, Record<string, unknown>][] = [
  ['top-level-delete', { $patch: 'delete' }],
  ['top-level-replace', { $patch: 'replace' }],
  ['bogus-patch', { metadata: { $patch: 'bogus' } }],
  ['patch-not-string', { metadata: { $patch: 1 } }],
  ['retain-keys-string', { metadata: { $retainKeys: 'labels' } }],
  ['retain-keys-numbers', { spec: { $retainKeys: [1, 2] } }],
  ['retain-keys-unknown', { spec: { $retainKeys: ['nothing'] } }],
  ['delete-from-primitive-list-map', { metadata: { '$deleteFromPrimitiveList/labels': ['app'] } }],
  ['delete-from-primitive-list-finalizers', { metadata: { '$deleteFromPrimitiveList/finalizers': 'x' } }],
  ['set-element-order-bogus', { spec: { '$setElementOrder/containers': [{ name: 'nope' }], containers: [] } }],
  ['set-element-order-not-list', { spec: { '$setElementOrder/containers': 'x' } }],
  ['list-delete-without-key', { spec: { containers: [{ $patch: 'delete' }] } }],
  ['list-replace', { spec: { containers: [{ $patch: 'replace' }] } }],
  ['list-entry-null', { spec: { containers: [null] } }],
  ['merge-key-missing', { spec: { containers: [{ image: 'x' }] } }],
  ['merge-key-wrong-type', { spec: { containers: [{ name: 7 }] } }],
  ['secrets-merge-key-missing', { secrets: [{ namespace: 'x' }] }],
  ['rules-delete', { rules: [{ $patch: 'delete' }] }],
  ['metadata-null', { metadata: null }],
  ['remove-name', { metadata: { name: null } }],
  ['change-name', { metadata: { name: 'renamed' } }],
  ['change-uid', { metadata: { uid: 'other' } }],
  ['change-kind', { kind: 'Role' }],
  ['change-api-version', { apiVersion: 'v2' }],
];

// patches aims patches of every type at the fixtures.
export function patches(prng: Prng, count: number): CaseDraft[] {
  return Array.from({ length: count }, (_, i): CaseDraft => {
    const kind = prng.pick(kinds);
    const collection = collections[kind];
    const name = fixtureName(kind);
    const type = prng.pick(['json', 'json', 'merge', 'strategic', 'strategic', 'apply', 'apply'] as const);
    const wrongType = prng.chance(0.05);
    const contentType = wrongType ? prng.pick(['application/json', 'text/plain', 'application/merge-patch+yaml', 'application/apply-patch+json', '']) : patchTypes[type];
    let query = '';
    let body: string;
    let damage: string;
    let what: string;
    if (type === 'json') {
      const made = jsonPatchBody(prng);
      body = made.body;
      damage = made.tag;
      what = body.length > 200 ? `${body.slice(0, 200)}…` : body;
    } else if (type === 'apply') {
      query = `?fieldManager=${prng.pick(['hostile', 'hostile', '', '%00', 'a%0Ab', 'x'.repeat(200), '%E2%80%AE'])}${prng.chance(0.3) ? `&force=${prng.pick(['true', 'maybe', ''])}` : ''}`;
      const made = damaged(prng, manifests[kind](prng.chance(0.9) ? name : `apply-${i}`));
      const asYaml = prng.chance(0.5);
      body = asYaml ? toYaml(made.tree) : toJson(made.tree);
      damage = `apply:${made.tag}`;
      what = made.what;
    } else if (type === 'strategic' && prng.chance(0.5)) {
      const [directive, patch] = prng.pick(strategicDirectives);
      body = JSON.stringify(patch);
      damage = `strategic:${directive}`;
      what = body;
    } else {
      const m = mutateTree(prng, fromPlain(prng.chance(0.1) ? manifests[kind](name) : smallPatch(kind)));
      body = toJson(m.value);
      damage = `${type}:${m.tag}`;
      what = m.what;
    }
    if (type !== 'apply' && prng.chance(0.15)) query = `?${prng.pick(['fieldValidation=Strict', 'fieldValidation=Bogus', 'dryRun=All', 'dryRun=Bogus', 'fieldManager=%01', 'force=true'])}`;
    return {
      family: `patch-${type}`,
      tag: wrongType ? `content-type:${contentType || 'none'}` : damage,
      what,
      method: 'PATCH',
      path: `${collection}/${name}${query}`,
      headers: contentType ? [['content-type', contentType]] : [],
      body: Buffer.from(body),
      credential: { kind: 'admin' },
      snapshots: [collection],
    };
  });
}

// pollutingPatches try prototype keys through every patch type.
export function pollutingPatches(prng: Prng, count: number): CaseDraft[] {
  const bodies: [string, keyof typeof patchTypes, string][] = [
    ['merge-proto', 'merge', `{"__proto__":{"${pollutionKey}":"yes"}}`],
    ['merge-labels-proto', 'merge', `{"metadata":{"labels":{"__proto__":{"${pollutionKey}":"yes"}}}}`],
    ['merge-constructor', 'merge', `{"constructor":{"prototype":{"${pollutionKey}":"yes"}}}`],
    ['merge-metadata-constructor', 'merge', `{"metadata":{"constructor":{"prototype":{"${pollutionKey}":"yes"}}}}`],
    ['strategic-proto', 'strategic', `{"__proto__":{"${pollutionKey}":"yes"}}`],
    ['strategic-constructor', 'strategic', `{"metadata":{"constructor":{"prototype":{"${pollutionKey}":"yes"}}}}`],
    ['strategic-retain-proto', 'strategic', `{"metadata":{"$retainKeys":["__proto__"],"__proto__":{"${pollutionKey}":"yes"}}}`],
    ['strategic-list-proto', 'strategic', `{"spec":{"containers":[{"name":"__proto__","${pollutionKey}":"yes"}]}}`],
    ['json-add-proto', 'json', `[{"op":"add","path":"/__proto__/${pollutionKey}","value":"yes"}]`],
    ['json-add-constructor', 'json', `[{"op":"add","path":"/constructor/prototype/${pollutionKey}","value":"yes"}]`],
    ['json-add-metadata-proto', 'json', `[{"op":"add","path":"/metadata/__proto__/${pollutionKey}","value":"yes"}]`],
    ['json-replace-proto', 'json', `[{"op":"replace","path":"/metadata/__proto__","value":{"${pollutionKey}":"yes"}}]`],
    ['json-copy-to-proto', 'json', `[{"op":"copy","from":"/metadata/labels","path":"/metadata/__proto__"}]`],
    ['json-move-to-proto', 'json', `[{"op":"move","from":"/metadata/labels","path":"/__proto__/labels"}]`],
    ['apply-proto', 'apply', `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"fixture-serviceaccounts","__proto__":{"${pollutionKey}":"yes"}},"__proto__":{"${pollutionKey}":"yes"}}`],
    ['apply-yaml-proto', 'apply', `apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: fixture-serviceaccounts\n  __proto__:\n    ${pollutionKey}: yes\n  annotations:\n  constructor:\n    prototype:\n      ${pollutionKey}: yes\n`],
  ];
  return Array.from({ length: count }, (): CaseDraft => {
    const [name, type, body] = prng.pick(bodies);
    const kind: CollectionName = name.startsWith('apply') ? 'serviceaccounts' : prng.pick(['serviceaccounts', 'pods', 'daemonsets'] as const);
    return {
      family: 'pollution-patch',
      tag: `pollution:${name}`,
      what: body,
      method: 'PATCH',
      path: `${collections[kind]}/${fixtureName(kind)}${type === 'apply' ? '?fieldManager=hostile' : ''}`,
      headers: [['content-type', patchTypes[type]]],
      body: Buffer.from(body),
      credential: { kind: 'admin' },
      snapshots: [collections[kind]],
    };
  });
}
