import { objectMetaSchema, podSpecSchema, s, Schema } from '@plinth/api';
import { PatchError } from './errors';
import { applyStrategicMergePatch } from './strategic-merge-patch';

function failure(fn: () => unknown): PatchError {
  try {
    fn();
  } catch (err) {
    if (err instanceof PatchError) return err;
    throw err;
  }
  throw new Error('expected a PatchError');
}

// mergeItem is the MergeItem test type of k8s.io/apimachinery/pkg/util/strategicpatch.
const mergeItem: Schema = s.object({});
const retainKeysMergeItem: Schema = s.object({});
Object.assign(mergeItem.properties ?? {}, {
  name: s.string(),
  value: s.string(),
  other: s.string(),
  mergingList: s.array(mergeItem, { patchStrategy: 'merge', patchMergeKey: 'name' }),
  nonMergingList: s.array(mergeItem),
  mergingIntList: s.array(s.int64(), { patchStrategy: 'merge' }),
  nonMergingIntList: s.array(s.int64()),
  simpleMap: s.stringMap(),
  replacingItem: { ...s.any(), patchStrategy: 'replace' },
  retainKeysMap: { ...retainKeysMergeItem, patchStrategy: 'retainKeys' },
  retainKeysMergingList: s.array(mergeItem, { patchStrategy: 'merge,retainKeys', patchMergeKey: 'name' }),
});
Object.assign(retainKeysMergeItem.properties ?? {}, {
  name: s.string(),
  value: s.string(),
  other: s.string(),
  simpleMap: s.stringMap(),
  mergingIntList: s.array(s.int64(), { patchStrategy: 'merge' }),
  mergingList: s.array(mergeItem, { patchStrategy: 'merge', patchMergeKey: 'name' }),
  nonMergingList: s.array(mergeItem),
});

// A Pod-like schema with the struct tags of k8s.io/api/core/v1.
const mergeList = (items: Schema, key: string, strategy = 'merge'): Schema => s.array(items, { patchMergeKey: key, patchStrategy: strategy });
const container = s.object({
  name: s.string(),
  image: s.string(),
  command: s.atomicList(s.string()),
  env: mergeList(s.object({ name: s.string(), value: s.string(), valueFrom: s.object({ fieldRef: s.object({ fieldPath: s.string() }) }) }), 'name'),
  ports: s.mapList(s.object({ containerPort: s.int32(), protocol: s.string(), name: s.string() }), ['containerPort', 'protocol']),
  resources: s.object({ limits: s.map(s.quantity()), requests: s.map(s.quantity()) }),
  volumeMounts: mergeList(s.object({ name: s.string(), mountPath: s.string() }), 'mountPath'),
});
const volume = s.object({
  name: s.string(),
  emptyDir: s.object({ medium: s.string(), sizeLimit: s.quantity() }),
  hostPath: s.object({ path: s.string(), type: s.string() }),
  configMap: s.object({ name: s.string(), defaultMode: s.int32() }),
});
const podSchema = s.object({
  apiVersion: s.string(),
  kind: s.string(),
  metadata: s.object({
    name: s.string(),
    labels: s.stringMap(),
    annotations: s.stringMap(),
    finalizers: { ...s.setOf(s.string()), patchStrategy: 'merge' },
    ownerReferences: s.mapList(s.object({ uid: s.string(), name: s.string(), kind: s.string() }), ['uid']),
  }),
  spec: s.object({
    containers: mergeList(container, 'name'),
    initContainers: mergeList(container, 'name'),
    volumes: mergeList(volume, 'name', 'merge,retainKeys'),
    tolerations: s.atomicList(s.object({ key: s.string(), operator: s.string(), value: s.string(), effect: s.string() })),
    nodeSelector: s.stringMap(),
    strategy: s.object({ type: s.string(), rollingUpdate: s.object({ maxSurge: s.intOrString(), maxUnavailable: s.intOrString() }) }, { patchStrategy: 'retainKeys' }),
  }),
  data: s.any(),
});

describe('applyStrategicMergePatch: Kubernetes strategicpatch test cases (MergeItem)', () => {
  // customStrategicMergePatchTestCaseData and createStrategicMergePatchTestCaseData of
  // patch_test.go, as v1.28 applies them: [description, original, patch, result].
  const cases: [string, object, unknown, object][] = [
    ['unique scalars when merging lists', { mergingIntList: [1, 2] }, { mergingIntList: [2, 3] }, { mergingIntList: [1, 2, 3] }],
    ['delete map from nested map', { simpleMap: { key1: '1', key2: '1' } }, { simpleMap: { $patch: 'delete' } }, { simpleMap: {} }],
    ['delete all items from merging list', { mergingList: [{ name: 1 }, { name: 2 }] }, { mergingList: [{ $patch: 'replace' }] }, { mergingList: [] }],
    ['merge empty merging lists', { mergingList: [] }, { mergingList: [] }, { mergingList: [] }],
    ['delete all keys from map', { name: 1, value: 1 }, { $patch: 'replace' }, {}],
    ['add key and delete all keys from map', { name: 1, value: 1 }, { other: 'a', $patch: 'replace' }, { other: 'a' }],
    [
      'delete all duplicate entries in a merging list',
      { mergingList: [{ name: 1 }, { name: 1 }, { name: 2, value: 'a' }, { name: 3 }, { name: 3 }] },
      { mergingList: [{ name: 1, $patch: 'delete' }, { name: 3, $patch: 'delete' }] },
      { mergingList: [{ name: 2, value: 'a' }] },
    ],
    ['retainKeys map can add a field when no retainKeys directive present', { retainKeysMap: { name: 'foo' } }, { retainKeysMap: { value: 'bar' } }, { retainKeysMap: { name: 'foo', value: 'bar' } }],
    ['retainKeys map can change a field when no retainKeys directive present', { retainKeysMap: { name: 'foo', value: 'a' } }, { retainKeysMap: { value: 'b' } }, { retainKeysMap: { name: 'foo', value: 'b' } }],
    ['retainKeys map can delete a field when no retainKeys directive present', { retainKeysMap: { name: 'foo', value: 'a' } }, { retainKeysMap: { value: null } }, { retainKeysMap: { name: 'foo' } }],
    ['retainKeys map merge an empty map', { retainKeysMap: { name: 'foo', value: 'a' } }, { retainKeysMap: {} }, { retainKeysMap: { name: 'foo', value: 'a' } }],
    [
      'retainKeys list can add a field when no retainKeys directive present',
      { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo' }] },
      { retainKeysMergingList: [{ name: 'foo', value: 'a' }] },
      { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo', value: 'a' }] },
    ],
    [
      'retainKeys list can delete a field when no retainKeys directive present',
      { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo', value: 'a' }] },
      { retainKeysMergingList: [{ name: 'foo', value: null }] },
      { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo' }] },
    ],
    [
      'preserve the order from the patch in a merging list',
      { mergingList: [{ name: 1 }, { name: 2, value: 'b' }, { name: 3 }] },
      { mergingList: [{ name: 3, value: 'c' }, { name: 1, value: 'a' }, { name: 2, other: 'x' }] },
      { mergingList: [{ name: 3, value: 'c' }, { name: 1, value: 'a' }, { name: 2, value: 'b', other: 'x' }] },
    ],
    [
      'preserve the order from the patch in a merging list 2',
      { mergingList: [{ name: 1 }, { name: 2, value: 'b' }, { name: 3 }] },
      { mergingList: [{ name: 3, value: 'c' }, { name: 1, value: 'a' }] },
      { mergingList: [{ name: 2, value: 'b' }, { name: 3, value: 'c' }, { name: 1, value: 'a' }] },
    ],
    ['preserve the order from the patch in a merging int list', { mergingIntList: [1, 2, 3] }, { mergingIntList: [3, 1, 2] }, { mergingIntList: [3, 1, 2] }],
    ['preserve the order from the patch in a merging int list 2', { mergingIntList: [1, 2, 3] }, { mergingIntList: [3, 1] }, { mergingIntList: [2, 3, 1] }],
    [
      '$setElementOrder contains item that is not present in the list to be merged',
      { mergingList: [{ name: 1 }, { name: 3 }] },
      { '$setElementOrder/mergingList': [{ name: 3 }, { name: 2 }, { name: 1 }], mergingList: [{ name: 3, value: 3 }, { name: 1, value: 1 }] },
      { mergingList: [{ name: 3, value: 3 }, { name: 1, value: 1 }] },
    ],
    [
      '$setElementOrder contains item that is not present in the int list to be merged',
      { mergingIntList: [1, 3] },
      { '$setElementOrder/mergingIntList': [3, 2, 1] },
      { mergingIntList: [3, 1] },
    ],
    ['nil patch', { name: 1 }, {}, { name: 1 }],
    ['add field to map', { name: 1 }, { value: 1 }, { name: 1, value: 1 }],
    ['delete field from map', { name: 1, value: 1 }, { value: null }, { name: 1 }],
    ['delete a field that is not there', { name: 1 }, { value: null }, { name: 1 }],
    ['replace the nonmerging list', { nonMergingList: [{ name: 1 }, { name: 2 }] }, { nonMergingList: [{ name: 3 }] }, { nonMergingList: [{ name: 3 }] }],
    ['replace the nonmerging int list', { nonMergingIntList: [1, 2] }, { nonMergingIntList: [3] }, { nonMergingIntList: [3] }],
    [
      'merge nested merging lists',
      { mergingList: [{ name: 1, mergingList: [{ name: 'a', value: 1 }] }] },
      { mergingList: [{ name: 1, mergingList: [{ name: 'a', value: 2 }, { name: 'b' }] }] },
      { mergingList: [{ name: 1, mergingList: [{ name: 'a', value: 2 }, { name: 'b' }] }] },
    ],
    [
      'delete an item from a merging list',
      { mergingList: [{ name: 1 }, { name: 2 }] },
      { mergingList: [{ name: 1, $patch: 'delete' }] },
      { mergingList: [{ name: 2 }] },
    ],
    ['delete items from a merging int list', { mergingIntList: [1, 2, 3] }, { '$deleteFromPrimitiveList/mergingIntList': [1, 3] }, { mergingIntList: [2] }],
    [
      'set the order of a merging int list while deleting and adding',
      { mergingIntList: [1, 2, 3] },
      { '$setElementOrder/mergingIntList': [3, 4, 1], '$deleteFromPrimitiveList/mergingIntList': [2], mergingIntList: [4] },
      { mergingIntList: [3, 4, 1] },
    ],
    ['replace a replacing item', { replacingItem: { a: 1, b: { c: 2 } } }, { replacingItem: { b: { d: 3 } } }, { replacingItem: { b: { d: 3 } } }],
    [
      'clear fields missing from $retainKeys',
      { retainKeysMap: { name: 'foo', value: 'a', other: 'b' } },
      { retainKeysMap: { $retainKeys: ['name', 'other'], other: 'c' } },
      { retainKeysMap: { name: 'foo', other: 'c' } },
    ],
    [
      'clear fields of a list item missing from $retainKeys',
      { retainKeysMergingList: [{ name: 'foo', value: 'a', other: 'b' }] },
      { retainKeysMergingList: [{ name: 'foo', $retainKeys: ['name', 'value'], value: 'c' }] },
      { retainKeysMergingList: [{ name: 'foo', value: 'c' }] },
    ],
  ];

  it.each(cases)('%s', (_name, original, patch, result) => {
    expect(applyStrategicMergePatch(original, patch, mergeItem)).toEqual(result);
  });

  it('errors when the patch list does not follow $setElementOrder', () => {
    const err = failure(() =>
      applyStrategicMergePatch(
        { mergingList: [{ name: 1 }, { name: 3 }, { name: 2 }] },
        { '$setElementOrder/mergingList': [{ name: 1 }, { name: 2 }, { name: 3 }], mergingList: [{ name: 3, value: 3 }, { name: 1, value: 1 }] },
        mergeItem,
      ),
    );
    expect(err.statusCode).toBe(500);
    expect(err.message).toBe("The order in patch list:\n[map[name:3 value:3] map[name:1 value:1]]\n doesn't match $setElementOrder list:\n[map[name:1] map[name:2] map[name:3]]\n");
    const ints = failure(() => applyStrategicMergePatch({ mergingIntList: [1, 3, 2] }, { '$setElementOrder/mergingIntList': [1, 2, 3], mergingIntList: [3, 1] }, mergeItem));
    expect(ints.message).toContain("doesn't match");
  });

  it('errors when a merging list item misses its merge key', () => {
    const err = failure(() => applyStrategicMergePatch({ mergingList: [{ name: 1, value: 'a' }] }, { mergingList: [{ value: 'b' }] }, mergeItem));
    expect(err.errStatus).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'map: map[value:b] does not contain declared merge key: name', code: 500 });
  });
});

describe('applyStrategicMergePatch on a Pod', () => {
  const pod = () => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', labels: { app: 'web', tier: 'fe' }, finalizers: ['a', 'b'] },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'nginx:1',
          env: [
            { name: 'A', value: '1' },
            { name: 'B', value: '2' },
          ],
          ports: [{ containerPort: 80, protocol: 'TCP' }],
        },
        { name: 'sidecar', image: 'envoy:1' },
      ],
      volumes: [{ name: 'data', emptyDir: {} }],
      tolerations: [{ key: 'k', operator: 'Exists' }],
      nodeSelector: { disk: 'ssd' },
    },
  });

  it('merges containers by name and env by name, keeping the rest', () => {
    const out = applyStrategicMergePatch(pod(), { spec: { containers: [{ name: 'app', image: 'nginx:2', env: [{ name: 'B', value: '3' }] }] } }, podSchema);
    expect(out.spec).toEqual({
      ...pod().spec,
      containers: [
        {
          name: 'app',
          image: 'nginx:2',
          env: [
            { name: 'A', value: '1' },
            { name: 'B', value: '3' },
          ],
          ports: [{ containerPort: 80, protocol: 'TCP' }],
        },
        { name: 'sidecar', image: 'envoy:1' },
      ],
    });
  });

  it('puts a container the pod does not have first, as kubectl patch users see', () => {
    const out = applyStrategicMergePatch(pod(), { spec: { containers: [{ name: 'debug', image: 'busybox' }] } }, podSchema) as { spec: { containers: { name: string }[] } };
    expect(out.spec.containers.map((c) => c.name)).toEqual(['debug', 'app', 'sidecar']);
  });

  it('merges ports by containerPort', () => {
    const out = applyStrategicMergePatch(pod(), { spec: { containers: [{ name: 'app', ports: [{ containerPort: 80, name: 'http' }, { containerPort: 443 }] }] } }, podSchema) as {
      spec: { containers: { ports: unknown[] }[] };
    };
    expect(out.spec.containers[0].ports).toEqual([{ containerPort: 80, protocol: 'TCP', name: 'http' }, { containerPort: 443 }]);
  });

  it('deletes a container with $patch: delete and reorders with $setElementOrder, as kubectl apply sends', () => {
    const out = applyStrategicMergePatch(
      pod(),
      {
        spec: {
          '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'debug' }],
          containers: [{ name: 'debug', image: 'busybox' }, { name: 'app', $patch: 'delete' }],
        },
      },
      podSchema,
    ) as { spec: { containers: { name: string }[] } };
    expect(out.spec.containers).toEqual([
      { name: 'sidecar', image: 'envoy:1' },
      { name: 'debug', image: 'busybox' },
    ]);
  });

  it('merges finalizers as a set and deletes with $deleteFromPrimitiveList', () => {
    expect(applyStrategicMergePatch(pod(), { metadata: { finalizers: ['b', 'c'] } }, podSchema).metadata).toEqual({ ...pod().metadata, finalizers: ['a', 'b', 'c'] });
    const out = applyStrategicMergePatch(
      pod(),
      { metadata: { '$setElementOrder/finalizers': ['a', 'c'], '$deleteFromPrimitiveList/finalizers': ['b'], finalizers: ['c'] } },
      podSchema,
    );
    expect(out.metadata).toEqual({ ...pod().metadata, finalizers: ['a', 'c'] });
  });

  it('replaces atomic lists such as tolerations and command', () => {
    const out = applyStrategicMergePatch(pod(), { spec: { tolerations: [{ key: 'other', operator: 'Equal', value: 'v' }] } }, podSchema);
    expect((out.spec as { tolerations: unknown }).tolerations).toEqual([{ key: 'other', operator: 'Equal', value: 'v' }]);
  });

  it('switches a volume source with $retainKeys', () => {
    const out = applyStrategicMergePatch(pod(), { spec: { volumes: [{ name: 'data', $retainKeys: ['name', 'hostPath'], hostPath: { path: '/x' } }] } }, podSchema);
    expect((out.spec as { volumes: unknown }).volumes).toEqual([{ name: 'data', hostPath: { path: '/x' } }]);
  });

  it('switches a deployment strategy with $retainKeys on a retainKeys struct', () => {
    const deployment = { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%' } } } };
    const out = applyStrategicMergePatch(deployment, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }, podSchema);
    expect(out).toEqual({ spec: { strategy: { type: 'Recreate' } } });
  });

  it('replaces or empties a map with $patch', () => {
    expect(applyStrategicMergePatch(pod(), { metadata: { labels: { $patch: 'replace', only: 'this' } } }, podSchema).metadata).toEqual({ ...pod().metadata, labels: { only: 'this' } });
    expect(applyStrategicMergePatch(pod(), { metadata: { labels: { $patch: 'delete' } } }, podSchema).metadata).toEqual({ ...pod().metadata, labels: {} });
  });

  it('drops nulls and $patch maps from a value the pod does not have', () => {
    const out = applyStrategicMergePatch(pod(), { metadata: { annotations: { a: '1', b: null, c: { $patch: 'delete' } } }, spec: { initContainers: [{ name: 'i', image: null }] } }, podSchema);
    expect(out.metadata).toEqual({ ...pod().metadata, annotations: { a: '1' } });
    expect((out.spec as { initContainers: unknown }).initContainers).toEqual([{ name: 'i' }]);
  });

  it('keeps nulls in a list item appended to a merging list, as strategicpatch does', () => {
    const out = applyStrategicMergePatch(pod(), { spec: { containers: [{ name: 'new', image: 'x', command: null }] } }, podSchema) as { spec: { containers: unknown[] } };
    expect(out.spec.containers[0]).toEqual({ name: 'new', image: 'x', command: null });
  });

  it('deletes with null and merges maps such as nodeSelector and resources', () => {
    const base = pod();
    (base.spec.containers[1] as Record<string, unknown>).resources = { limits: { cpu: '1', memory: '1Gi' } };
    const out = applyStrategicMergePatch(
      base,
      { metadata: { labels: { tier: null } }, spec: { nodeSelector: { zone: 'a' }, containers: [{ name: 'sidecar', resources: { limits: { cpu: '2', memory: null } } }] } },
      podSchema,
    ) as { metadata: object; spec: { nodeSelector: object; containers: unknown[] } };
    expect(out.metadata).toEqual({ name: 'web', labels: { app: 'web' }, finalizers: ['a', 'b'] });
    expect(out.spec.nodeSelector).toEqual({ disk: 'ssd', zone: 'a' });
    expect(out.spec.containers[1]).toEqual({ name: 'sidecar', image: 'envoy:1', resources: { limits: { cpu: '2' } } });
  });

  it('falls back to JSON merge semantics where the schema says nothing', () => {
    const base = { ...pod(), data: { nested: { a: 1, list: [1, 2] }, keep: true }, extra: { x: { y: 1 } } };
    const out = applyStrategicMergePatch(base, { data: { nested: { b: 2, list: [3] } }, extra: { x: { z: 2, y: null } } }, podSchema);
    expect(out.data).toEqual({ nested: { a: 1, b: 2, list: [3] }, keep: true });
    expect(out.extra).toEqual({ x: { z: 2 } });
    // Directives still apply there.
    expect(applyStrategicMergePatch(base, { data: { nested: { $patch: 'replace', c: 3 } } }, podSchema).data).toEqual({ nested: { c: 3 }, keep: true });
    expect(applyStrategicMergePatch({ a: { b: 1 } }, { a: { c: 2 } }, undefined)).toEqual({ a: { b: 1, c: 2 } });
  });

  it('works with the Pod schemas of @plinth/api', () => {
    const schema = s.object({ metadata: objectMetaSchema, spec: podSpecSchema });
    const out = applyStrategicMergePatch(pod(), { metadata: { finalizers: ['z'] }, spec: { containers: [{ name: 'sidecar', image: 'envoy:2' }], volumes: [{ name: 'cfg', configMap: { name: 'c' } }] } }, schema) as {
      metadata: { finalizers: string[] };
      spec: { containers: { image: string }[]; volumes: unknown[] };
    };
    expect(out.metadata.finalizers).toEqual(['z', 'a', 'b']);
    expect(out.spec.containers.map((c) => c.image)).toEqual(['nginx:1', 'envoy:2']);
    expect(out.spec.volumes).toEqual([{ name: 'cfg', configMap: { name: 'c' } }, { name: 'data', emptyDir: {} }]);
  });

  it('changes neither the original nor the patch', () => {
    const original = pod();
    const patch = { spec: { containers: [{ name: 'app', image: 'x' }, { name: 'sidecar', $patch: 'delete' }] }, metadata: { labels: { tier: null } } };
    const patchCopy = JSON.parse(JSON.stringify(patch));
    applyStrategicMergePatch(original, patch, podSchema);
    expect(original).toEqual(pod());
    expect(patch).toEqual(patchCopy);
  });

  it('takes a null patch as no change', () => {
    expect(applyStrategicMergePatch(pod(), null, podSchema)).toEqual(pod());
  });
});

describe('applyStrategicMergePatch errors', () => {
  const status = (code: number, message: string, reason?: string) => ({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    ...(reason ? { reason } : {}),
    ...(code === 422 ? { details: {} } : {}),
    code,
  });

  it.each([
    ['an array body', {}, [{ a: 1 }], status(400, 'json: cannot unmarshal array into Go value of type map[string]interface {}', 'BadRequest')],
    ['a string body', {}, 'x', status(400, 'json: cannot unmarshal string into Go value of type map[string]interface {}', 'BadRequest')],
    ['$retainKeys that is not a list', { retainKeysMap: { name: 'a' } }, { retainKeysMap: { $retainKeys: 'name' } }, status(400, 'invalid patch format of retainKeys', 'BadRequest')],
    ['a field missing from $retainKeys', { retainKeysMap: { name: 'a' } }, { retainKeysMap: { $retainKeys: ['name'], value: 'v' } }, status(400, 'invalid patch format of retainKeys', 'BadRequest')],
    ['$deleteFromPrimitiveList without a field', { mergingIntList: [1] }, { $deleteFromPrimitiveList: [1] }, status(400, 'invalid patch format of primitive list', 'BadRequest')],
    ['$setElementOrder without a field', { mergingIntList: [1] }, { $setElementOrderX: [1] }, status(400, 'invalid patch format of setElementOrder list', 'BadRequest')],
    ['a list of lists', { mergingIntList: [[1]] }, { mergingIntList: [[2]] }, status(422, 'the server rejected our request due to an error in our request', 'Invalid')],
    ['an unknown $patch in a map', { simpleMap: { a: 'b' } }, { simpleMap: { $patch: 'foo', x: 'y' } }, status(500, 'unknown patch type: foo in map: map[$patch:foo x:y]')],
    ['a non-string $patch', { simpleMap: {} }, { simpleMap: { $patch: 1 } }, status(500, 'unknown patch type: %!s(int64=1) in map: map[$patch:1]')],
    ['an unknown $patch in a list item', { mergingList: [{ name: 'a' }] }, { mergingList: [{ name: 'a', $patch: 'bad' }] }, status(500, 'unknown patch type: bad in map: map[$patch:bad name:a]')],
    ['$patch: merge in a list item', { mergingList: [{ name: 'a' }] }, { mergingList: [{ name: 'a', $patch: 'merge' }] }, status(500, 'merging lists cannot yet be specified in the patch')],
    ['$patch: delete without the merge key', { mergingList: [{ name: 'a' }] }, { mergingList: [{ $patch: 'delete' }] }, status(500, 'map: map[$patch:delete] does not contain declared merge key: name')],
    ['mixed element types', { mergingIntList: [1] }, { mergingIntList: ['a'] }, status(500, 'list element types are not identical: [[1] [a]]')],
    ['$setElementOrder that is not a list', { mergingIntList: [1] }, { '$setElementOrder/mergingIntList': 'x' }, status(500, 'expected a []interface {}, but received a string')],
    ['$setElementOrder beside a patch field that is not a list', {}, { '$setElementOrder/mergingIntList': [1], mergingIntList: { a: 1 } }, status(500, 'expected a []interface {}, but received a map[string]interface {}')],
    ['$setElementOrder over empty lists', { mergingIntList: [] }, { '$setElementOrder/mergingIntList': [] }, status(500, 'no elements in any of the given slices')],
    ['$setElementOrder on a field that is no list', {}, { '$setElementOrder/simpleMap': [] }, status(500, 'expected slice or array type, but got: struct')],
  ])('%s', (_name, original, patch, expected) => {
    const err = failure(() => applyStrategicMergePatch(original, patch, mergeItem));
    expect(err.errStatus).toEqual(expected);
    expect(err.statusCode).toBe(expected.code);
  });

  it('reports the list-of-lists error in detail only', () => {
    const err = failure(() => applyStrategicMergePatch({ mergingIntList: [[1]] }, { mergingIntList: [[2]] }, mergeItem));
    expect(err.detail).toBe('lists of lists are not supported');
  });

  it('rejects a patchStrategy of two strategies without retainKeys', () => {
    const schema = s.object({ list: s.array(s.string(), { patchStrategy: 'merge,replace' }) });
    const err = failure(() => applyStrategicMergePatch({ list: ['a'] }, { list: ['b'] }, schema));
    expect(err.errStatus).toEqual(status(500, 'unexpected patch strategy: [merge replace]'));
  });

  it('needs a merge key to merge a list of objects', () => {
    const schema = s.object({ list: s.array(s.object({ a: s.string() }), { patchStrategy: 'merge' }) });
    const err = failure(() => applyStrategicMergePatch({ list: [{ a: 'x' }] }, { list: [{ a: 'y' }] }, schema));
    expect(err.message).toBe('cannot merge lists without merge key for struct');
  });
});
