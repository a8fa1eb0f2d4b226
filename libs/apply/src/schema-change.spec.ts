// Ownership across a schema change (Document 1: "Changing a field from map/set/granular to atomic
// gives whole ownership to any actor owning an element (later changes conflict); atomic to
// granular infers no ownership (no conflict)"), after structured-merge-diff's
// reconcile_schema tests.
import { KubeObject, s, Schema } from '@plinth/api';
import { isStatusError } from '@plinth/machinery';
import { applyObject } from './apply';
import { FieldSet } from './field-set';
import { updateManagedFields } from './managed-fields';
import { fieldElement, valueElement } from './path-element';

const at = (minute: number): Date => new Date(Date.UTC(2024, 0, 1, 12, minute));

const schemaWith = (spec: Record<string, Schema>): Schema =>
  s.object({ apiVersion: s.string(), kind: s.string(), metadata: s.object({ name: s.string(), managedFields: s.any() }), spec: s.object(spec) });

const granular = schemaWith({ items: s.setOf(s.string()), labels: s.map(s.string()), limits: s.object({ cpu: s.string(), memory: s.string() }) });
const atomic = schemaWith({
  items: s.atomicList(s.string()),
  labels: s.map(s.string(), { mapType: 'atomic' }),
  limits: s.object({ cpu: s.string(), memory: s.string() }, { mapType: 'atomic' }),
});

const widget = (spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec });

function apply(live: KubeObject | null, spec: Record<string, unknown>, manager: string, schema: Schema, force = false): KubeObject {
  return applyObject({ live, applied: widget(spec), manager, apiVersion: 'example.com/v1', schema, now: at(1), force }).object;
}

const fieldsOf = (obj: KubeObject, manager: string): string => JSON.stringify(obj.metadata.managedFields?.find((e) => e.manager === manager)?.fieldsV1);

function conflictMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (isStatusError(err) && err.reason === 'Conflict') return err.message;
    throw err;
  }
  throw new Error('expected a conflict');
}

describe('FieldSet.reconcileWithSchema', () => {
  it('turns ownership of elements of a field that became atomic into ownership of the field', () => {
    const set = FieldSet.of([fieldElement('spec'), fieldElement('items'), valueElement('a')], [fieldElement('spec'), fieldElement('limits'), fieldElement('cpu')]);
    expect(set.reconcileWithSchema(atomic).toString()).toBe('{"f:spec":{"f:items":{},"f:limits":{}}}');
  });

  it('keeps a set whose fields still fit the schema as the same set', () => {
    const set = FieldSet.of([fieldElement('spec'), fieldElement('items'), valueElement('a')]);
    expect(set.reconcileWithSchema(granular)).toBe(set);
    const whole = FieldSet.of([fieldElement('spec'), fieldElement('items')]);
    expect(whole.reconcileWithSchema(granular)).toBe(whole);
  });
});

describe('apply across a schema change', () => {
  it('granular to atomic: owners of an element own the whole field, so a later change conflicts', () => {
    let live = apply(null, { items: ['a'], labels: { x: '1' }, limits: { cpu: '1' } }, 'alice', granular);
    live = apply(live, { items: ['b'], labels: { y: '2' } }, 'bob', granular);
    expect(fieldsOf(live, 'alice')).toBe('{"f:spec":{"f:items":{"v:\\"a\\"":{}},"f:labels":{"f:x":{}},"f:limits":{"f:cpu":{}}}}');

    const message = conflictMessage(() => apply(live, { items: ['b', 'c'], labels: { y: '3' }, limits: { cpu: '2' } }, 'bob', atomic));
    expect(message).toContain('conflicts with "alice"');
    expect(message).toContain('.spec.items');
    expect(message).toContain('.spec.labels');
    expect(message).toContain('.spec.limits');

    const forced = apply(live, { items: ['b', 'c'], labels: { y: '3' }, limits: { cpu: '2' } }, 'bob', atomic, true);
    expect(forced.spec).toEqual({ items: ['b', 'c'], labels: { y: '3' }, limits: { cpu: '2' } });
    expect(fieldsOf(forced, 'bob')).toBe('{"f:spec":{"f:items":{},"f:labels":{},"f:limits":{}}}');
    expect(fieldsOf(forced, 'alice')).toBeUndefined();
  });

  it('atomic to granular: owning the whole field infers no ownership of its parts, so adding one does not conflict', () => {
    const live = apply(null, { items: ['a'], labels: { x: '1' } }, 'alice', atomic);
    expect(fieldsOf(live, 'alice')).toBe('{"f:spec":{"f:items":{},"f:labels":{}}}');
    const after = apply(live, { items: ['b'], labels: { y: '2' } }, 'bob', granular);
    expect(after.spec).toEqual({ items: ['a', 'b'], labels: { x: '1', y: '2' } });
    expect(fieldsOf(after, 'bob')).toBe('{"f:spec":{"f:items":{"v:\\"b\\"":{}},"f:labels":{"f:y":{}}}}');
  });

  it('reconciles on a plain update too: an owner of an element then owns the whole field', () => {
    const live = apply(null, { items: ['a'] }, 'alice', granular);
    const updated: KubeObject = { ...widget({ items: ['a'], limits: { cpu: '1' } }), metadata: { ...live.metadata } };
    const managedFields = updateManagedFields({ live, updated, manager: 'kubectl-edit', apiVersion: 'example.com/v1', now: at(2), schema: atomic });
    const fields = Object.fromEntries((managedFields ?? []).map((e) => [e.manager, JSON.stringify(e.fieldsV1)]));
    expect(fields).toEqual({ alice: '{"f:spec":{"f:items":{}}}', 'kubectl-edit': '{"f:spec":{"f:limits":{}}}' });
  });
});
