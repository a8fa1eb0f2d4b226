// Bodies at and past the size limit (kube-apiserver's 3 MiB: 413 above it), and bodies under it
// that are large where validation, decoding or patching works per entry: many labels, many
// annotations, a long name, many JSON patch operations, a protobuf map of 100,000 entries.
import { CaseDraft } from '../hostile-case';
import { collectionsIn, fixtureName, sizesNamespace } from '../fixtures';
import { Prng } from '../prng';
import { envelope, serviceAccount } from '../protobuf-wire';

const limit = 3 * 1024 * 1024;
const path = collectionsIn(sizesNamespace).serviceaccounts;
const named = `${path}/${fixtureName('serviceaccounts')}`;

const entries = (n: number, prefix: string) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, 'v']));
const account = (metadata: Record<string, unknown>) => JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata });
// padded is a ServiceAccount whose annotation makes the body exactly `size` bytes.
const padded = (size: number) => {
  const shell = account({ name: 'padded', annotations: { pad: '' } });
  return shell.replace('"pad":""', `"pad":"${'x'.repeat(size - shell.length)}"`);
};

const bodies: [string, string, string, string, boolean][] = [
  // [tag, method, content type, body, refused]
  ['over-limit-json', 'POST', 'application/json', padded(limit + 1), true],
  ['over-limit-yaml', 'POST', 'application/yaml', `pad: ${'x'.repeat(limit)}\n`, true],
  ['over-limit-merge-patch', 'PATCH', 'application/merge-patch+json', `{"metadata":{"annotations":{"pad":"${'x'.repeat(limit)}"}}}`, true],
  ['over-limit-apply', 'PATCH', 'application/apply-patch+yaml', `apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: ${fixtureName('serviceaccounts')}\n  annotations:\n    pad: ${'x'.repeat(limit)}\n`, true],
  ['at-limit-annotation', 'POST', 'application/json', padded(limit), true],
  ['many-labels', 'POST', 'application/json', account({ name: 'many-labels', labels: entries(100_000, 'l') }), false],
  ['many-annotations', 'POST', 'application/json', account({ name: 'many-annotations', annotations: entries(100_000, 'a') }), true],
  ['long-name', 'POST', 'application/json', account({ name: 'n'.repeat(1_000_000) }), true],
  ['many-json-patch-operations', 'PATCH', 'application/json-patch+json', JSON.stringify(Array.from({ length: 50_000 }, (_, i) => ({ op: 'add', path: `/metadata/labels/k${i}`, value: 'v' }))), false],
  ['many-finalizers', 'POST', 'application/json', account({ name: 'many-finalizers', finalizers: Array.from({ length: 50_000 }, (_, i) => `example.com/f${i}`) }), false],
];

// sizes sends each large body in turn, then the protobuf map of 100,000 entries.
export function sizes(prng: Prng, count: number): CaseDraft[] {
  return Array.from({ length: count }, (_, i): CaseDraft => {
    if (i === bodies.length) {
      const body = envelope('v1', 'ServiceAccount', serviceAccount({ name: `proto-map-${prng.string(5)}`, annotations: Array.from({ length: 100_000 }, (_, j): [string, string] => [`k${j}`, 'v']) }));
      return { family: 'size', tag: 'size:protobuf-map', what: '100,000 annotations in protobuf', method: 'POST', path, headers: [['content-type', 'application/vnd.kubernetes.protobuf']], body, credential: { kind: 'admin' }, snapshots: [path] };
    }
    const [tag, method, contentType, text, refused] = bodies[i % bodies.length];
    return {
      family: 'size',
      tag: `size:${tag}`,
      what: `${Buffer.byteLength(text)} bytes`,
      method,
      path: method === 'PATCH' ? `${named}${contentType.startsWith('application/apply') ? '?fieldManager=hostile' : ''}` : path,
      headers: [['content-type', contentType]],
      body: Buffer.from(text),
      credential: { kind: 'admin' },
      snapshots: [path],
      ...(refused ? { expect: 'refused' as const } : {}),
    };
  });
}
