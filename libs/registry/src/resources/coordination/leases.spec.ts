import { KubeObject } from '@plinth/api';
import { leaseDefinition } from './leases';
import { TableDefinition } from '../../resource';
const table = leaseDefinition.table as TableDefinition;


const ctx = { featureGates: new Map<string, boolean>(), now: Date.parse('2024-01-01T00:00:10Z') };

function lease(spec: Record<string, unknown> = {}): KubeObject {
  return { metadata: { name: 'kube-scheduler', namespace: 'kube-system', creationTimestamp: '2024-01-01T00:00:00Z' }, spec };
}

describe('lease definition', () => {
  it('creates on update', () => {
    expect(leaseDefinition).toMatchObject({ group: 'coordination.platform.io', version: 'v1', resource: 'leases', namespaced: true, allowCreateOnUpdate: true, hasStatus: false });
  });

  it('validates durations and transitions', () => {
    expect(leaseDefinition.strategy.validate(lease({ leaseDurationSeconds: 0, leaseTransitions: -1 }), ctx).map(String)).toEqual([
      'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
      'spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0',
    ]);
    expect(leaseDefinition.strategy.validate(lease({ leaseDurationSeconds: 15, leaseTransitions: 0 }), ctx)).toEqual([]);
  });

  it('prints NAME HOLDER AGE', () => {
    expect(table.columns.map((c) => c.name)).toEqual(['Name', 'Holder', 'Age']);
    expect(table.row(lease({ holderIdentity: 'node-1_abc' }), ctx.now)).toEqual(['kube-scheduler', 'node-1_abc', '10s']);
    expect(table.row(lease(), ctx.now)).toEqual(['kube-scheduler', '', '10s']);
  });
});
