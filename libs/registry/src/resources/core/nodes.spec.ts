import { KubeObject } from '@plinth/api';
import { nodeDefinition } from './nodes';
import { ResourceStrategy, TableDefinition } from '../../resource';
const table = nodeDefinition.table as TableDefinition;

// hook returns a strategy hook the definition must have.
function hook<K extends keyof ResourceStrategy>(name: K): NonNullable<ResourceStrategy[K]> {
  const fn = nodeDefinition.strategy[name];
  if (!fn) throw new Error(`missing ${String(name)}`);
  return fn as NonNullable<ResourceStrategy[K]>;
}

const ctx = { featureGates: new Map<string, boolean>(), now: Date.parse('2024-01-03T00:00:00Z') };
const strategy = nodeDefinition.strategy;

function node(spec: Record<string, unknown> = {}, status: Record<string, unknown> = {}, labels: Record<string, string> = {}): KubeObject {
  return { metadata: { name: 'node-1', creationTimestamp: '2024-01-01T00:00:00Z', labels }, spec, status };
}

describe('node definition', () => {
  it('is cluster-scoped with shortName no', () => {
    expect(nodeDefinition).toMatchObject({ resource: 'nodes', namespaced: false, shortNames: ['no'], subresources: ['status'] });
  });

  it('prints a ready node with roles and addresses', () => {
    const n = node(
      {},
      {
        conditions: [{ type: 'Ready', status: 'True' }],
        addresses: [{ type: 'InternalIP', address: '10.0.0.1' }, { type: 'Hostname', address: 'node-1' }],
        nodeInfo: { kubeletVersion: 'v1.28.0', osImage: 'Ubuntu 22.04', kernelVersion: '6.1.0', containerRuntimeVersion: 'containerd://1.7.0' },
      },
      { 'node-role.platform.io/control-plane': '', 'node-role.platform.io/worker': '' },
    );
    expect(table.row(n, ctx.now)).toEqual([
      'node-1',
      'Ready',
      'control-plane,worker',
      '2d',
      'v1.28.0',
      '10.0.0.1',
      '<none>',
      'Ubuntu 22.04',
      '6.1.0',
      'containerd://1.7.0',
    ]);
  });

  it('prints NotReady, Unknown and SchedulingDisabled', () => {
    expect(table.row(node({ unschedulable: true }, { conditions: [{ type: 'Ready', status: 'False' }] }), ctx.now)[1]).toBe('NotReady,SchedulingDisabled');
    expect(table.row(node(), ctx.now).slice(1, 3)).toEqual(['Unknown', '<none>']);
    expect(table.row(node(), ctx.now).slice(7)).toEqual(['<unknown>', '<unknown>', '<unknown>']);
  });

  it('validates taints at metadata.taints as Kubernetes does', () => {
    const n = node({ taints: [{ key: 'k', effect: 'NoSchedule' }, { key: 'k', effect: 'NoSchedule' }, { key: 'j', effect: '' }] });
    expect(strategy.validate(n, ctx).map(String)).toEqual([
      'metadata.taints[1]: Duplicate value: core.Taint{Key:"k", Value:"", Effect:"NoSchedule", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and effect pair',
      'metadata.taints[2].effect: Required value',
    ]);
  });

  it('validates status quantities and pod CIDRs', () => {
    const n = node({ podCIDRs: ['10.0.0.0/24', '10.1.0.0/24'] }, { capacity: { cpu: '-1' } });
    expect(strategy.validate(n, ctx).map(String)).toEqual([
      'status.capacity.cpu: Invalid value: "-1": must be greater than or equal to 0',
      'spec.podCIDRs: Invalid value: []string{"10.0.0.0/24", "10.1.0.0/24"}: may specify no more than one CIDR for each IP family',
    ]);
  });

  it('keeps podCIDRs and providerID once set', () => {
    const old = node({ podCIDRs: ['10.0.0.0/24'], providerID: 'p1' });
    const next = node({ podCIDRs: ['10.0.1.0/24'], providerID: 'p2' });
    expect(hook('validateUpdate')(next, old, ctx).map(String)).toEqual([
      'spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid',
      'spec.providerID: Forbidden: node updates may not change providerID except from "" to valid',
    ]);
  });

  it('defaults allocatable to capacity and selects on spec.unschedulable', () => {
    const n = node({}, { capacity: { cpu: '4' } });
    hook('defaults')(n, ctx);
    expect((n.status as Record<string, unknown>).allocatable).toEqual({ cpu: '4' });
    expect(hook('selectableFields')(node({ unschedulable: true }))).toEqual({ 'metadata.name': 'node-1', 'spec.unschedulable': 'true' });
  });
});
