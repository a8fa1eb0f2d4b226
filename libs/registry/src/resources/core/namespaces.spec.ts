import { KubeObject } from '@plinth/api';
import { realClock } from '@plinth/machinery';
import { EmbeddedObjectStore } from '@plinth/storage';
import { namespaceDefinition } from './namespaces';
import { ResourceStrategy, TableDefinition } from '../../resource';
import { ResourceStore } from '../../store/resource-store';
const table = namespaceDefinition.table as TableDefinition;

// hook returns a strategy hook the definition must have.
function hook<K extends keyof ResourceStrategy>(name: K): NonNullable<ResourceStrategy[K]> {
  const fn = namespaceDefinition.strategy[name];
  if (!fn) throw new Error(`missing ${String(name)}`);
  return fn as NonNullable<ResourceStrategy[K]>;
}

const ctx = { featureGates: new Map<string, boolean>(), now: Date.parse('2024-01-02T00:00:00Z') };
const strategy = namespaceDefinition.strategy;

function ns(extra: Partial<KubeObject> = {}): KubeObject {
  return { metadata: { name: 'team-a', creationTimestamp: '2024-01-01T00:00:00Z' }, ...extra };
}

describe('namespace definition', () => {
  it('is cluster-scoped with ns, status and finalize', () => {
    expect(namespaceDefinition).toMatchObject({
      resource: 'namespaces',
      namespaced: false,
      shortNames: ['ns'],
      subresources: ['status', 'finalize'],
      nameValidation: 'dns-label',
      deleteReturnsObject: true,
      verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    });
  });

  it('adds the kubernetes finalizer, the name label and phase Active on create', () => {
    const n = ns({ spec: { finalizers: ['example.com/x'] } });
    hook('defaults')(n, ctx);
    hook('prepareForCreate')(n, ctx);
    expect(n.spec).toEqual({ finalizers: ['example.com/x', 'kubernetes'] });
    expect(n.status).toEqual({ phase: 'Active' });
    expect(n.metadata.labels).toEqual({ 'platform.io/metadata.name': 'team-a' });
    expect(strategy.validate(n, ctx)).toEqual([]);
  });

  it('keeps spec.finalizers on a plain update', () => {
    const old = ns({ spec: { finalizers: ['kubernetes'] } });
    const next = ns({ spec: { finalizers: [] } });
    hook('prepareForUpdate')(next, old, ctx);
    expect(next.spec).toEqual({ finalizers: ['kubernetes'] });
  });

  it('validates finalizer names', () => {
    const n = ns({ spec: { finalizers: ['bogus'] } });
    expect(strategy.validate(n, ctx).map(String)).toEqual(['spec.finalizers: Invalid value: "bogus": name is neither a standard finalizer name nor is it fully qualified']);
    const old = ns({ spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
    expect(hook('validateStatusUpdate')(ns({ spec: { finalizers: ['x'] }, status: { phase: 'Active' } }), old, ctx).map(String)).toEqual([
      'spec.finalizers[0]: Invalid value: "x": name is neither a standard finalizer name nor is it fully qualified',
    ]);
  });

  it('ties the phase to deletionTimestamp', () => {
    const old = ns({ status: { phase: 'Active' } });
    expect(hook('validateStatusUpdate')(ns({ status: { phase: 'Terminating' } }), old, ctx).map(String)).toEqual([
      'status.Phase: Invalid value: "Terminating": may only be \'Active\' if `deletionTimestamp` is empty',
    ]);
  });

  it('holds deletion while spec.finalizers remain and turns Terminating', () => {
    const n = ns({ spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
    expect(hook('holdsDeletion')(n)).toBe(true);
    hook('prepareForDeletion')(n);
    expect(n.status).toEqual({ phase: 'Terminating' });
    expect(hook('holdsDeletion')(ns({ spec: { finalizers: [] } }))).toBe(false);
  });

  it('marks a deleted namespace Terminating with a deletionTimestamp and no grace period', async () => {
    const store = new ResourceStore(namespaceDefinition, new EmbeddedObjectStore(), realClock, new Map());
    await store.create(undefined, ns({ metadata: { name: 'going' } }));
    const { object, deleted } = await store.delete(undefined, 'going');
    expect(deleted).toBe(false);
    expect(object.metadata.deletionTimestamp).toEqual(expect.any(String));
    expect(object.metadata).not.toHaveProperty('deletionGracePeriodSeconds');
    expect(object.status).toEqual({ phase: 'Terminating' });
  });

  it('takes an emptied spec.finalizers through finalize as none, owned by no manager', async () => {
    const store = new ResourceStore(namespaceDefinition, new EmbeddedObjectStore(), realClock, new Map());
    const fieldManager = { manager: 'finalizer', apiVersion: 'v1' };
    await store.create(undefined, ns({ metadata: { name: 'done' } }), { fieldManager: { manager: 'creator', apiVersion: 'v1' } });
    const { object } = await store.update(undefined, 'done', ns({ metadata: { name: 'done' }, spec: { finalizers: [] } }), { subresource: 'finalize', fieldManager });
    expect(object.spec).toEqual({});
    expect((object.metadata.managedFields ?? []).map((f) => f.manager)).toEqual(['creator']);
  });

  it('selects on status.phase and the legacy name field', () => {
    expect(hook('selectableFields')(ns({ status: { phase: 'Active' } }))).toEqual({ 'metadata.name': 'team-a', 'status.phase': 'Active', name: 'team-a' });
  });

  it('prints NAME STATUS AGE', () => {
    expect(table.columns.map((c) => c.name)).toEqual(['Name', 'Status', 'Age']);
    expect(table.row(ns({ status: { phase: 'Active' } }), ctx.now)).toEqual(['team-a', 'Active', '24h']);
  });
});
