import { KubeObject } from '@plinth/api';
import { runtimeClassDefinition } from './runtimeclasses';
import { ResourceStrategy, TableDefinition } from '../../resource';
const table = runtimeClassDefinition.table as TableDefinition;

// hook returns a strategy hook the definition must have.
function hook<K extends keyof ResourceStrategy>(name: K): NonNullable<ResourceStrategy[K]> {
  const fn = runtimeClassDefinition.strategy[name];
  if (!fn) throw new Error(`missing ${String(name)}`);
  return fn as NonNullable<ResourceStrategy[K]>;
}

const ctx = { featureGates: new Map<string, boolean>(), now: Date.parse('2024-01-01T00:00:45Z') };
const strategy = runtimeClassDefinition.strategy;

function rc(extra: Record<string, unknown> = {}): KubeObject {
  return { metadata: { name: 'gvisor', creationTimestamp: '2024-01-01T00:00:00Z' }, handler: 'runsc', ...extra };
}

describe('runtimeclass definition', () => {
  it('has the flags of runtime classes', () => {
    expect(runtimeClassDefinition).toMatchObject({ group: 'node.platform.io', version: 'v1', resource: 'runtimeclasses', namespaced: false, hasStatus: false });
    expect(runtimeClassDefinition.deleteReturnsObject).toBeFalsy();
  });

  it('accepts a valid class', () => {
    const obj = rc({ overhead: { podFixed: { cpu: '250m', memory: '120Mi' } }, scheduling: { nodeSelector: { sandbox: 'true' }, tolerations: [{ key: 'sandbox', operator: 'Exists' }] } });
    expect(strategy.validate(obj, ctx)).toEqual([]);
  });

  it('requires a DNS-label handler', () => {
    expect(strategy.validate(rc({ handler: '' }), ctx).map(String)).toEqual([
      'handler: Invalid value: "": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')',
    ]);
  });

  it('validates overhead and scheduling at Kubernetes paths', () => {
    const obj = rc({
      overhead: { podFixed: { cpu: '-1', pods: '1' } },
      scheduling: { nodeSelector: { a: '-' }, tolerations: [{ key: 'k', operator: 'Exists', effect: 'Never' }, { key: 'k', operator: 'Exists', effect: 'Never' }] },
    });
    expect(strategy.validate(obj, ctx).map(String)).toEqual([
      'overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0',
      'overhead.limits[pods]: Invalid value: "pods": must be a standard resource for containers',
      'scheduling.nodeSelector: Invalid value: "-": a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')',
      'scheduling.tolerations.tolerations[0].effect: Unsupported value: "Never": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      'scheduling.tolerations.tolerations[1].effect: Unsupported value: "Never": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      'scheduling.tolerations[1]: Duplicate value: core.Toleration{Key:"k", Operator:"Exists", Value:"", Effect:"Never", TolerationSeconds:(*int64)(nil)}',
    ]);
  });

  it('keeps the handler immutable', () => {
    expect(hook('validateUpdate')(rc({ handler: 'kata' }), rc(), ctx).map(String)).toEqual(['handler: Invalid value: "kata": field is immutable']);
  });

  it('prints NAME HANDLER AGE', () => {
    expect(table.columns.map((c) => c.name)).toEqual(['Name', 'Handler', 'Age']);
    expect(table.row(rc(), ctx.now)).toEqual(['gvisor', 'runsc', '45s']);
  });
});
