import { KubeObject } from '@plinth/api';
import { isStatusError, realClock, StatusError } from '@plinth/machinery';
import { EmbeddedObjectStore } from '@plinth/storage';
import { nodeDefinition, nodeRoles } from './nodes';
import { ResourceStrategy, TableDefinition } from '../../resource';
import { ResourceStore } from '../../store/resource-store';
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

  it('reads roles from the platform.io/ role labels only, as every Plinth key is spelled', () => {
    const n = node({}, { conditions: [{ type: 'Ready', status: 'True' }] }, { 'platform.io/role': 'infra', 'node-role.kubernetes.io/worker': '', 'kubernetes.io/role': 'edge' });
    expect(nodeRoles(n)).toEqual(['infra']);
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
      'metadata.taints[1]: Duplicate value: core.Taint{Key:"k", Value:"", Effect:"NoSchedule", TimeAdded:<nil>}: taints must be unique by key and effect pair',
      'metadata.taints[2].effect: Required value',
    ]);
    const timed = { key: 'k', effect: 'NoSchedule', timeAdded: '2024-05-01T12:00:00.25Z' };
    expect(strategy.validate(node({ taints: [timed, timed] }), ctx).map(String)).toEqual([
      'metadata.taints[1]: Duplicate value: core.Taint{Key:"k", Value:"", Effect:"NoSchedule", TimeAdded:time.Date(2024, time.May, 1, 12, 0, 0, 250000000, time.Local)}: taints must be unique by key and effect pair',
    ]);
  });

  it('validates status quantities and pod CIDRs', () => {
    const n = node({ podCIDRs: ['10.0.0.0/24', '10.1.0.0/24'] }, { capacity: { cpu: '-1' } });
    expect(strategy.validate(n, ctx).map(String)).toEqual([
      'status.capacity.cpu: Invalid value: "-1": must be greater than or equal to 0',
      'spec.podCIDRs: Invalid value: []string{"10.0.0.0/24", "10.1.0.0/24"}: may specify no more than one CIDR for each IP family',
    ]);
  });

  it('takes a lone podCIDR as podCIDRs, and shows podCIDRs[0] as podCIDR', () => {
    const single = node({ podCIDR: '10.0.0.0/33' });
    hook('defaults')(single, ctx);
    expect(single.spec).toEqual({ podCIDR: '10.0.0.0/33', podCIDRs: ['10.0.0.0/33'] });
    expect(strategy.validate(single, ctx).map(String)).toEqual(['spec.podCIDRs[0]: Invalid value: []string{"10.0.0.0/33"}: must be valid CIDR']);
    const dual = node({ podCIDRs: ['10.0.0.0/24', 'fd00::/64'] });
    hook('defaults')(dual, ctx);
    expect(dual.spec).toEqual({ podCIDR: '10.0.0.0/24', podCIDRs: ['10.0.0.0/24', 'fd00::/64'] });
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

describe('node registration', () => {
  const store = () => new ResourceStore(nodeDefinition, new EmbeddedObjectStore(), realClock, new Map());
  const fieldManager = { manager: 'kubelet', apiVersion: 'v1' };

  it('taints a new node not-ready and gives it the zero daemonEndpoints and nodeInfo, owned by no manager', async () => {
    const created = await store().create(undefined, { metadata: { name: 'n1', labels: { role: 'test' } }, spec: { unschedulable: true } }, { fieldManager });
    expect(created.spec).toEqual({ unschedulable: true, taints: [{ key: 'node.platform.io/not-ready', effect: 'NoSchedule' }] });
    expect((created.status as Record<string, unknown>).daemonEndpoints).toEqual({ kubeletEndpoint: { Port: 0 } });
    expect((created.status as Record<string, unknown>).nodeInfo).toEqual({
      machineID: '',
      systemUUID: '',
      bootID: '',
      kernelVersion: '',
      osImage: '',
      containerRuntimeVersion: '',
      kubeletVersion: '',
      kubeProxyVersion: '',
      operatingSystem: '',
      architecture: '',
    });
    expect(created.metadata.managedFields?.map((f) => f.fieldsV1)).toEqual([{ 'f:metadata': { 'f:labels': { '.': {}, 'f:role': {} } }, 'f:spec': { 'f:unschedulable': {} } }]);
  });

  it('keeps a not-ready taint the node registers with, once', async () => {
    const taint = { key: 'node.platform.io/not-ready', effect: 'NoSchedule' };
    const created = await store().create(undefined, { metadata: { name: 'n2' }, spec: { taints: [taint] } });
    expect((created.spec as Record<string, unknown>).taints).toEqual([taint]);
  });

  it('refuses an invalid lone podCIDR', async () => {
    let refused: StatusError | undefined;
    await store()
      .create(undefined, { metadata: { name: 'n3' }, spec: { podCIDR: '10.0.0.0/33' } })
      .catch((err) => (refused = isStatusError(err) ? err : undefined));
    expect(refused?.errStatus.message).toBe('Node "n3" is invalid: spec.podCIDRs[0]: Invalid value: []string{"10.0.0.0/33"}: must be valid CIDR');
  });
});
