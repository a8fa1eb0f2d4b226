// Request bodies in every accepted format, damaged: JSON and YAML manifests with one or two
// hostile nodes (create and update), whole hostile YAML documents, and protobuf messages with
// broken bytes or lying structure.
import { CaseDraft } from '../hostile-case';
import { CollectionName, collections, fixtureName, manifests } from '../fixtures';
import { fromPlain, keyPath, Node, Obj, paths, Raw, replaceAt, toJson, toYaml } from '../json-tree';
import { mutateBytes, mutateTree, pollutionValue } from '../mutators';
import { Prng } from '../prng';
import { bytesField, serviceAccount, envelope, mapEntries, protobufMagic, tag, varint, varintField } from '../protobuf-wire';

const kinds = Object.keys(collections) as CollectionName[];
const json: [string, string] = ['content-type', 'application/json'];
const yaml: [string, string] = ['content-type', 'application/yaml'];
const protobuf: [string, string] = ['content-type', 'application/vnd.kubernetes.protobuf'];

// damaged is a manifest with one or two hostile nodes.
export function damaged(prng: Prng, manifest: Record<string, unknown>): { tree: Node; tag: string; what: string } {
  let tree = fromPlain(manifest);
  const whats: string[] = [];
  const tags: string[] = [];
  const count = prng.chance(0.3) ? 2 : 1;
  for (let i = 0; i < count; i++) {
    const m = mutateTree(prng, tree);
    tree = m.value;
    tags.push(m.tag);
    whats.push(m.what);
  }
  return { tree, tag: tags.join('+'), what: whats.join('; ') };
}

// jsonBodies creates (POST) and updates (PUT of a fixture) with a damaged JSON manifest.
export function jsonBodies(prng: Prng, count: number): CaseDraft[] {
  return Array.from({ length: count }, (_, i) => {
    const kind = prng.pick(kinds);
    const update = prng.chance(0.25);
    const name = update ? fixtureName(kind) : `json-${i}`;
    const { tree, tag: damage, what } = damaged(prng, manifests[kind](name));
    return {
      family: update ? 'json-update' : 'json-create',
      tag: damage,
      what: `${kind}: ${what}`,
      method: update ? 'PUT' : 'POST',
      path: update ? `${collections[kind]}/${name}` : collections[kind],
      headers: [json],
      body: Buffer.from(toJson(tree)),
      credential: { kind: 'admin' },
      snapshots: [collections[kind]],
    };
  });
}

// yamlScalars are YAML spellings sigs.k8s.io/yaml reads differently from JSON, or refuses.
const yamlScalars: [string, string][] = [
  ['inf', '.inf'],
  ['minus-inf', '-.inf'],
  ['nan', '.nan'],
  ['huge-float', '1e400'],
  ['yes', 'yes'],
  ['on', 'on'],
  ['off', 'off'],
  ['tilde', '~'],
  ['hex', '0x1F'],
  ['octal', '0o17'],
  ['old-octal', '017'],
  ['sexagesimal', '1:20'],
  ['binary-tag', '!!binary aGVsbG8='],
  ['python-tag', '!!python/object/apply:os.system ["true"]'],
  ['unknown-tag', '!foo bar'],
  ['undefined-alias', '*nowhere'],
  ['timestamp', '2001-12-14t21:59:43.10-05:00'],
  ['set', '!!set {a, b}'],
  ['flow-duplicate-keys', '{a: 1, a: 2}'],
  ['bad-escape', '"\\xZZ"'],
  ['tab-indent', '\n\t- a'],
  ['null-byte', '"a\\0b"'],
];

const aliasBomb = [
  'a: &a ["x","x","x","x","x","x","x","x","x"]',
  ...Array.from({ length: 8 }, (_, i) => {
    const name = String.fromCharCode(98 + i);
    const previous = String.fromCharCode(97 + i);
    return `${name}: &${name} [${Array(9).fill('*' + previous).join(',')}]`;
  }),
  'kind: ServiceAccount',
  'apiVersion: v1',
  'metadata: {name: bomb}',
].join('\n');

// yamlDocuments are whole bodies no manifest mutation reaches.
const yamlDocuments: [string, string][] = [
  ['empty', ''],
  ['only-separator', '---\n'],
  ['null-document', 'null\n'],
  ['scalar-document', 'hello\n'],
  ['list-document', '- a\n- b\n'],
  ['multi-document', 'apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: multi-a}\n---\napiVersion: v1\nkind: ServiceAccount\nmetadata: {name: multi-b}\n'],
  ['alias-bomb', aliasBomb],
  ['recursive-alias', 'a: &a [*a]\n'],
  ['merge-key', 'base: &b {name: merged}\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  <<: *b\n'],
  ['deep-flow', '['.repeat(5000) + ']'.repeat(5000)],
  ['deep-block', Array.from({ length: 2000 }, (_, i) => ' '.repeat(i) + 'a:').join('\n') + ' 1\n'],
  ['unclosed-quote', 'apiVersion: "v1\nkind: ServiceAccount\n'],
  ['binary-garbage', '\u0000\u0001\u0002\u00ff'],
  ['bom', '\ufeffapiVersion: v1\nkind: ServiceAccount\nmetadata: {name: bom}\n'],
  ['lone-surrogate-escape', 'apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: "\\ud800"}\n'],
  ['json-with-comment', '{"apiVersion": "v1", # comment\n "kind": "ServiceAccount", "metadata": {"name": "comment"}}'],
  ['duplicate-top-level', 'apiVersion: v1\nkind: ServiceAccount\nkind: Secret\nmetadata: {name: dup}\n'],
  ['complex-key', '? [a, b]\n: c\napiVersion: v1\nkind: ServiceAccount\nmetadata: {name: complex}\n'],
  ['proto-key', 'apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: proto-yaml}\n__proto__: {plinthPolluted: yes}\nmetadata2:\n  __proto__: {plinthPolluted: yes}\n'],
];

// yamlBodies creates objects from YAML: damaged manifests, YAML-only scalars in place of a
// node, and whole hostile documents.
export function yamlBodies(prng: Prng, count: number): CaseDraft[] {
  return Array.from({ length: count }, (_, i): CaseDraft => {
    const kind = prng.pick(kinds);
    const path = collections[kind];
    const base = { method: 'POST', path, headers: [yaml], credential: { kind: 'admin' as const }, snapshots: [path], family: 'yaml-create' };
    const choice = prng.int(3);
    if (choice === 0) {
      const [name, text] = prng.pick(yamlDocuments);
      return { ...base, tag: `document:${name}`, what: `a ${name} document`, body: Buffer.from(text) };
    }
    if (choice === 1) {
      const tree = fromPlain(manifests[kind](`yaml-${i}`));
      const at = prng.pick(paths(tree).filter((p) => p.length > 0));
      const [name, text] = prng.pick(yamlScalars);
      const changed = replaceAt(tree, at, () => new Raw(JSON.stringify(text), text)) ?? null;
      return { ...base, tag: `scalar:${name}`, what: `${kind}: ${keyPath(tree, at)} = ${text}`, body: Buffer.from(toYaml(changed)) };
    }
    const { tree, tag: damage, what } = damaged(prng, manifests[kind](`yaml-${i}`));
    return { ...base, tag: damage, what: `${kind}: ${what}`, body: Buffer.from(toYaml(tree)) };
  });
}

// nestedUnknown is an unknown field holding an unknown field ... `depth` deep.
function nestedUnknown(depth: number): Buffer {
  let inner = varintField(1, 1);
  for (let i = 0; i < depth; i++) inner = bytesField(15, inner);
  return inner;
}

const manyEntries = (n: number) => Array.from({ length: n }, (_, j): [string, string] => [`k${j}`, 'v']);

// structuralProtobuf are ServiceAccount bodies whose structure lies: lengths past the end, wrong
// wire types, envelopes that do not match, overlong varints, big maps. The flag says Kubernetes
// refuses the body (gogo-protobuf's Unmarshal, the envelope's checks, or validation).
const structuralProtobuf: [string, boolean, (name: string) => Buffer][] = [
  ['no-magic', true, (name) => serviceAccount({ name })],
  ['only-magic', true, () => protobufMagic],
  ['empty', true, () => Buffer.alloc(0)],
  ['kind-mismatch', true, (name) => envelope('v1', 'Pod', serviceAccount({ name }))],
  ['unknown-kind', true, (name) => envelope('v1', 'NoSuchKind', serviceAccount({ name }))],
  ['bad-api-version', true, (name) => envelope('no/such/v1', 'ServiceAccount', serviceAccount({ name }))],
  ['empty-type-meta', true, (name) => envelope('', '', serviceAccount({ name }))],
  ['content-encoding', true, (name) => Buffer.concat([envelope('v1', 'ServiceAccount', serviceAccount({ name })), bytesField(3, 'gzip')])],
  ['content-type-json', false, (name) => Buffer.concat([envelope('v1', 'ServiceAccount', serviceAccount({ name })), bytesField(4, 'application/json')])],
  ['length-past-end', true, (name) => Buffer.concat([protobufMagic, tag(2, 2), varint(1 << 20), serviceAccount({ name })])],
  ['huge-length', true, (name) => Buffer.concat([protobufMagic, tag(2, 2), varint(2n ** 63n), serviceAccount({ name })])],
  ['negative-length', true, (name) => envelope('v1', 'ServiceAccount', Buffer.concat([tag(1, 2), varint(-1), serviceAccount({ name })]))],
  ['name-as-varint', true, () => envelope('v1', 'ServiceAccount', Buffer.concat([bytesField(1, varintField(1, 7)), mapEntries(12, [['k', 'v']])]))],
  ['group-wire-type', false, (name) => envelope('v1', 'ServiceAccount', Buffer.concat([tag(1, 3), serviceAccount({ name }), tag(1, 4)]))],
  ['unterminated-group', true, (name) => envelope('v1', 'ServiceAccount', Buffer.concat([serviceAccount({ name }), tag(9, 3)]))],
  ['wire-type-7', true, (name) => envelope('v1', 'ServiceAccount', Buffer.concat([serviceAccount({ name }), tag(9, 7)]))],
  ['field-zero', true, (name) => envelope('v1', 'ServiceAccount', Buffer.concat([serviceAccount({ name }), tag(0, 0), varint(1)]))],
  ['overlong-varint', true, (name) => envelope('v1', 'ServiceAccount', Buffer.concat([serviceAccount({ name }), tag(4, 0), Buffer.alloc(11, 0xff)]))],
  ['map-entry-without-key', true, (name) => envelope('v1', 'ServiceAccount', serviceAccount({ name, extraMeta: bytesField(12, bytesField(2, 'v')) }))],
  ['map-entry-wrong-types', true, (name) => envelope('v1', 'ServiceAccount', serviceAccount({ name, extraMeta: bytesField(12, Buffer.concat([varintField(1, 5), varintField(2, 6)])) }))],
  ['invalid-utf8-name', true, () => envelope('v1', 'ServiceAccount', serviceAccount({ name: '', extraMeta: bytesField(1, Buffer.from([0xc3, 0x28])) }))],
  ['nul-in-label', true, (name) => envelope('v1', 'ServiceAccount', serviceAccount({ name, labels: [['a\u0000b', 'v']] }))],
  ['duplicate-map-keys', false, (name) => envelope('v1', 'ServiceAccount', serviceAccount({ name, annotations: [['k', 'a'], ['k', 'b']] }))],
  ['proto-map-key', true, (name) => envelope('v1', 'ServiceAccount', serviceAccount({ name, annotations: [['__proto__', 'x'], ['constructor', 'y']] }))],
  ['big-map', false, (name) => envelope('v1', 'ServiceAccount', serviceAccount({ name, annotations: manyEntries(2000) }))],
  ['big-label-map', false, (name) => envelope('v1', 'ServiceAccount', serviceAccount({ name, labels: manyEntries(2000) }))],
  ['deep-unknown-nesting', false, (name) => envelope('v1', 'ServiceAccount', Buffer.concat([serviceAccount({ name }), nestedUnknown(2000)]))],
  ['negative-generation', false, (name) => envelope('v1', 'ServiceAccount', serviceAccount({ name, extraMeta: varintField(7, -1) }))],
  ['bad-timestamp', false, (name) => envelope('v1', 'ServiceAccount', serviceAccount({ name, extraMeta: bytesField(8, Buffer.concat([varintField(1, 2n ** 62n), varintField(2, 2 ** 31 - 1)])) }))],
];

// protobufBodies creates ServiceAccounts from protobuf bodies, structurally hostile or with damaged
// bytes.
export function protobufBodies(prng: Prng, count: number): CaseDraft[] {
  const path = collections.serviceaccounts;
  return Array.from({ length: count }, (_, i): CaseDraft => {
    const name = `proto-${i}`;
    const accept: [string, string] = ['accept', prng.pick(['application/json', 'application/vnd.kubernetes.protobuf'])];
    const base = { family: 'protobuf-create', method: 'POST', path, headers: [protobuf, accept], credential: { kind: 'admin' as const }, snapshots: [path] };
    if (prng.chance(0.4)) {
      const [damage, refused, body] = prng.pick(structuralProtobuf);
      return { ...base, tag: `protobuf:${damage}`, what: damage, body: body(name), ...(refused ? { expect: 'refused' as const } : {}) };
    }
    const good = envelope('v1', 'ServiceAccount', serviceAccount({ name, labels: [['app', 'hostile']], annotations: [['k', 'v']] }));
    const m = mutateBytes(prng, good);
    return { ...base, tag: m.tag, what: m.what, body: m.value };
  });
}

// pollutingBodies create objects whose JSON or YAML carries prototype keys at any depth.
export function pollutingBodies(prng: Prng, count: number): CaseDraft[] {
  return Array.from({ length: count }, (_, i): CaseDraft => {
    const kind = prng.pick(kinds);
    const tree = fromPlain(manifests[kind](`polluting-${i}`));
    const objects = paths(tree).filter((p) => {
      let at: Node = tree;
      for (const j of p) at = at instanceof Obj ? at.entries[j][1] : (at as Node[])[j];
      return at instanceof Obj;
    });
    const at = prng.pick(objects);
    const key = prng.pick(['__proto__', 'constructor', 'prototype']);
    const changed = replaceAt(tree, at, (n) => (n instanceof Obj ? new Obj([...n.entries, [key, pollutionValue()]]) : n)) ?? null;
    const asYaml = prng.chance(0.3);
    return {
      family: 'pollution-create',
      tag: `pollution:${key}`,
      what: `${kind}: ${key} in ${keyPath(tree, at)}${asYaml ? ' (YAML)' : ''}`,
      method: 'POST',
      path: collections[kind],
      headers: [asYaml ? yaml : json],
      body: Buffer.from(asYaml ? toYaml(changed) : toJson(changed)),
      credential: { kind: 'admin' },
      snapshots: [collections[kind]],
    };
  });
}
