import { KubeObject } from '@plinth/api';
import { field } from '@plinth/machinery';
import { storageClassDefinition } from './storageclasses';
import { ResourceStrategy, TableDefinition } from '../../resource';
const table = storageClassDefinition.table as TableDefinition;

// hook returns a strategy hook the definition must have.
function hook<K extends keyof ResourceStrategy>(name: K): NonNullable<ResourceStrategy[K]> {
  const fn = storageClassDefinition.strategy[name];
  if (!fn) throw new Error(`missing ${String(name)}`);
  return fn as NonNullable<ResourceStrategy[K]>;
}

const ctx = { featureGates: new Map<string, boolean>(), now: Date.parse('2024-01-01T01:00:00Z') };
const strategy = storageClassDefinition.strategy;

function sc(extra: Record<string, unknown> = {}, annotations?: Record<string, string>): KubeObject {
  const obj: KubeObject = { metadata: { name: 'standard', creationTimestamp: '2024-01-01T00:00:00Z', annotations }, provisioner: 'example.com/csi', ...extra };
  hook('defaults')(obj, ctx);
  return obj;
}

describe('storageclass definition', () => {
  it('has the flags of storage classes', () => {
    expect(storageClassDefinition).toMatchObject({
      group: 'storage.platform.io',
      version: 'v1',
      resource: 'storageclasses',
      kind: 'StorageClass',
      namespaced: false,
      shortNames: ['sc'],
      deleteReturnsObject: true,
      hasStatus: false,
    });
  });

  it('defaults reclaimPolicy and volumeBindingMode', () => {
    const obj = sc();
    expect(obj).toMatchObject({ reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' });
    expect(strategy.validate(obj, ctx)).toEqual([]);
  });

  it('requires a qualified provisioner', () => {
    expect(field.toAggregate(strategy.validate(sc({ provisioner: '' }), ctx))).toBe('provisioner: Required value');
    expect(strategy.validate(sc({ provisioner: 'a/b/c' }), ctx).map(String)).toEqual([
      "provisioner: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ]);
  });

  it('supports Delete and Retain only', () => {
    expect(strategy.validate(sc({ reclaimPolicy: 'Recycle', volumeBindingMode: 'Later' }), ctx).map(String)).toEqual([
      'reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"',
      'volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"',
    ]);
  });

  it('limits parameters', () => {
    const many = Object.fromEntries(Array.from({ length: 513 }, (_, i) => [`k${i}`, 'v']));
    expect(strategy.validate(sc({ parameters: many }), ctx).map(String)).toEqual(['parameters: Too long: must have at most 512 bytes']);
    expect(strategy.validate(sc({ parameters: { big: 'x'.repeat(256 * 1024) } }), ctx).map(String)).toEqual(['parameters: Too long: must have at most 262144 bytes']);
  });

  it('validates allowed topologies', () => {
    const topologies = [
      { matchLabelExpressions: [{ key: 'zone', values: ['a', 'a'] }, { key: 'zone', values: [] }] },
      { matchLabelExpressions: [{ key: 'zone', values: ['b'] }] },
      { matchLabelExpressions: [{ key: 'zone', values: ['b'] }] },
    ];
    expect(strategy.validate(sc({ allowedTopologies: topologies }), ctx).map(String)).toEqual([
      'allowedTopologies[0].matchLabelExpressions[0].values[1]: Duplicate value: "a"',
      'allowedTopologies[0].matchLabelExpressions[1].values: Required value',
      'allowedTopologies[0].matchLabelExpressions[1].key: Duplicate value: "zone"',
      'allowedTopologies[2].matchLabelExpressions: Duplicate value: ""',
    ]);
  });

  it('forbids changing provisioner, parameters, reclaimPolicy and volumeBindingMode', () => {
    const old = sc({ parameters: { type: 'ssd' } });
    const next = sc({ provisioner: 'other.io/x', parameters: { type: 'hdd' }, reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' });
    expect(hook('validateUpdate')(next, old, ctx).map(String)).toEqual([
      'parameters: Forbidden: updates to parameters are forbidden.',
      'provisioner: Forbidden: updates to provisioner are forbidden.',
      'reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.',
      'volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable',
    ]);
    expect(hook('validateUpdate')(sc({ parameters: { type: 'ssd' }, allowVolumeExpansion: true }), old, ctx)).toEqual([]);
  });

  it('prints the default class', () => {
    expect(table.columns.map((c) => c.name)).toEqual(['Name', 'Provisioner', 'ReclaimPolicy', 'VolumeBindingMode', 'AllowVolumeExpansion', 'Age']);
    expect(table.row(sc({}, { 'storageclass.platform.io/is-default-class': 'true' }), ctx.now)).toEqual([
      'standard (default)',
      'example.com/csi',
      'Delete',
      'Immediate',
      false,
      '60m',
    ]);
    expect(table.row(sc({ allowVolumeExpansion: true, reclaimPolicy: 'Retain' }), ctx.now)).toEqual([
      'standard',
      'example.com/csi',
      'Retain',
      'Immediate',
      true,
      '60m',
    ]);
  });
});
