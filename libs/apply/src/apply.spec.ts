import { KubeObject } from '@plinth/api';
import { isStatusError, StatusError } from '@plinth/machinery';
import { applyObject, ApplyOptions } from './apply';
import { FieldSet } from './field-set';
import { statusResetFields, updateManagedFields } from './managed-fields';
import { jobSchema } from './testdata/schemas';

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));
const at = (minute: number): Date => new Date(Date.UTC(2024, 0, 1, 12, minute));

const apply = (live: KubeObject | null, applied: KubeObject, overrides: Partial<ApplyOptions> = {}): KubeObject =>
  applyObject({ live, applied, manager: 'kubectl', apiVersion: 'batch/v1', schema: jobSchema, now: at(1), resetFields: statusResetFields(), ...overrides }).object;

const jobConfig = (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'pi', namespace: 'default', ...metadata },
  spec,
});

const template = (containers: unknown[], extra: Record<string, unknown> = {}) => ({ spec: { containers, restartPolicy: 'Never', ...extra } });

const containersOf = (obj: KubeObject): Array<Record<string, unknown>> =>
  (obj.spec as { template: { spec: { containers: Array<Record<string, unknown>> } } }).template.spec.containers;

const fieldsOf = (obj: KubeObject, manager: string, operation = 'Apply'): string =>
  JSON.stringify(obj.metadata.managedFields?.find((e) => e.manager === manager && e.operation === operation)?.fieldsV1);

// created stores a Job the way a create by an update manager does.
function created(obj: KubeObject, manager = 'kubectl-client-side-apply'): KubeObject {
  const out = clone(obj);
  out.metadata.managedFields = updateManagedFields({ live: null, updated: out, manager, apiVersion: 'batch/v1', now: at(0), schema: jobSchema, resetFields: statusResetFields() });
  return out;
}

function conflictOf(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    if (isStatusError(err)) return err;
    throw err;
  }
  throw new Error('expected a conflict');
}

describe('applyObject', () => {
  it('creates an object owned by the applier, with the fields of the configuration', () => {
    const config = jobConfig({ parallelism: 2, template: template([{ name: 'c', image: 'busybox' }]) }, { labels: { app: 'pi' } });
    const result = applyObject({ live: null, applied: config, manager: 'kubectl', apiVersion: 'batch/v1', schema: jobSchema, now: at(1) });
    expect(result.changed).toBe(true);
    expect(result.object.spec).toEqual(config.spec);
    expect(result.object.metadata.labels).toEqual({ app: 'pi' });
    expect(JSON.stringify(result.managedFields)).toBe(
      '[{"manager":"kubectl","operation":"Apply","apiVersion":"batch/v1","time":"2024-01-01T12:01:00Z","fieldsType":"FieldsV1","fieldsV1":' +
        '{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:parallelism":{},"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"c\\"}":{".":{},"f:image":{},"f:name":{}}},"f:restartPolicy":{}}}}}}]',
    );
    expect(result.object.metadata.managedFields).toEqual(result.managedFields);
  });

  it('removes fields the manager applied before and omits now', () => {
    const first = apply(null, jobConfig({ parallelism: 2, completions: 4, template: template([{ name: 'c', image: 'busybox' }]) }, { labels: { app: 'pi', tier: 'batch' } }));
    const second = apply(first, jobConfig({ completions: 4, template: template([{ name: 'c', image: 'busybox' }]) }, { labels: { app: 'pi' } }), { now: at(2) });
    expect(second.spec).toEqual({ completions: 4, template: template([{ name: 'c', image: 'busybox' }]) });
    expect(second.metadata.labels).toEqual({ app: 'pi' });
    expect(fieldsOf(second, 'kubectl')).not.toContain('parallelism');
  });

  it('keeps an omitted field that another manager also owns', () => {
    const config = jobConfig({ parallelism: 2, template: template([{ name: 'c', image: 'busybox' }]) });
    const first = apply(null, config);
    // A second applier agreeing on a value shares it: no conflict.
    const shared = apply(first, jobConfig({ parallelism: 2 }), { manager: 'other', now: at(2) });
    expect(fieldsOf(shared, 'other')).toBe('{"f:spec":{"f:parallelism":{}}}');
    const dropped = apply(shared, jobConfig({ template: template([{ name: 'c', image: 'busybox' }]) }), { now: at(3) });
    expect((dropped.spec as { parallelism?: number }).parallelism).toBe(2);
    expect(fieldsOf(dropped, 'kubectl')).not.toContain('parallelism');
  });

  it('keeps fields set by updates that the applier never owned', () => {
    const first = apply(null, jobConfig({ parallelism: 2, template: template([{ name: 'c', image: 'busybox' }]) }));
    const edited = clone(first);
    edited.metadata.labels = { team: 'x' };
    edited.metadata.managedFields = updateManagedFields({ live: first, updated: edited, manager: 'kubectl-edit', apiVersion: 'batch/v1', now: at(2), schema: jobSchema });
    const again = apply(edited, jobConfig({ template: template([{ name: 'c', image: 'busybox' }]) }), { now: at(3) });
    expect(again.metadata.labels).toEqual({ team: 'x' });
    expect(again.metadata.managedFields?.map((e) => `${e.manager}/${e.operation}`)).toEqual(['kubectl/Apply', 'kubectl-edit/Update']);
  });

  it('refuses to change a field another manager owns, naming it as Kubernetes does', () => {
    const live = created(jobConfig({ parallelism: 1, template: template([{ name: 'c', image: 'busybox' }]) }));
    const err = conflictOf(() => apply(live, jobConfig({ parallelism: 2 })));
    expect(err.code).toBe(409);
    expect(err.errStatus).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using batch/v1: .spec.parallelism',
      reason: 'Conflict',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-client-side-apply" using batch/v1', field: '.spec.parallelism' }] },
      code: 409,
    });
  });

  it('lists several conflicts grouped by manager', () => {
    let live = created(jobConfig({ parallelism: 1, completions: 1, template: template([{ name: 'c', image: 'busybox' }]) }));
    live = apply(live, jobConfig({ backoffLimit: 3 }), { manager: 'helm', force: true, now: at(2) });
    const err = conflictOf(() => apply(live, jobConfig({ parallelism: 2, completions: 2, backoffLimit: 4, template: template([{ name: 'c', image: 'alpine' }]) })));
    expect(err.message).toBe(
      'Apply failed with 4 conflicts: conflicts with "helm":\n- .spec.backoffLimit\nconflicts with "kubectl-client-side-apply" using batch/v1:\n' +
        '- .spec.completions\n- .spec.parallelism\n- .spec.template.spec.containers[name="c"].image',
    );
    expect(err.errStatus.details?.causes?.map((c) => c.field)).toEqual([
      '.spec.backoffLimit',
      '.spec.completions',
      '.spec.parallelism',
      '.spec.template.spec.containers[name="c"].image',
    ]);
  });

  it('conflicts with a subresource manager by name and subresource', () => {
    const live = created(jobConfig({ template: template([{ name: 'c', image: 'busybox' }]) }));
    live.metadata.managedFields?.push({ manager: 'kcm', operation: 'Update', apiVersion: 'batch/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { 'f:x': {} } } }, subresource: 'status' });
    live.metadata.labels = { x: '1' };
    const err = conflictOf(() => apply(live, jobConfig({}, { labels: { x: '2' } })));
    expect(err.message).toBe('Apply failed with 1 conflict: conflict with "kcm" with subresource "status" using batch/v1: .metadata.labels.x');
  });

  it('takes ownership with force', () => {
    const live = created(jobConfig({ parallelism: 1, template: template([{ name: 'c', image: 'busybox' }]) }));
    const forced = apply(live, jobConfig({ parallelism: 2 }), { force: true });
    expect((forced.spec as { parallelism: number }).parallelism).toBe(2);
    expect(fieldsOf(forced, 'kubectl')).toBe('{"f:spec":{"f:parallelism":{}}}');
    expect(fieldsOf(forced, 'kubectl-client-side-apply', 'Update')).not.toContain('parallelism');
  });

  it('merges containers by name and prunes the items it no longer applies', () => {
    const live = created(jobConfig({ template: template([{ name: 'a', image: 'a1' }]) }), 'creator');
    const withB = apply(live, jobConfig({ template: { spec: { containers: [{ name: 'b', image: 'b1' }] } } }));
    expect(containersOf(withB)).toEqual([
      { name: 'a', image: 'a1' },
      { name: 'b', image: 'b1' },
    ]);
    expect(fieldsOf(withB, 'kubectl')).toBe('{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"b\\"}":{".":{},"f:image":{},"f:name":{}}}}}}}');

    const withC = apply(withB, jobConfig({ template: { spec: { containers: [{ name: 'c', image: 'c1' }, { name: 'b', image: 'b2' }] } } }), { now: at(2) });
    expect(containersOf(withC).map((c) => `${c.name}:${c.image}`)).toEqual(['a:a1', 'c:c1', 'b:b2']);

    const onlyC = apply(withC, jobConfig({ template: { spec: { containers: [{ name: 'c', image: 'c1' }] } } }), { now: at(3) });
    expect(containersOf(onlyC).map((c) => c.name)).toEqual(['a', 'c']);

    // An item another manager owns is kept even when its applier drops it.
    const err = conflictOf(() => apply(onlyC, jobConfig({ template: { spec: { containers: [{ name: 'a', image: 'a2' }] } } }), { now: at(4) }));
    expect(err.message).toBe('Apply failed with 1 conflict: conflict with "creator" using batch/v1: .spec.template.spec.containers[name="a"].image');
  });

  it('merges sets and replaces atomic maps whole', () => {
    const live = created(
      jobConfig({ template: template([{ name: 'c', image: 'i' }], { nodeSelector: { disk: 'ssd' } }) }, { finalizers: ['example.com/a'] }),
      'creator',
    );
    const merged = apply(live, jobConfig({}, { finalizers: ['example.com/b'] }));
    expect(merged.metadata.finalizers).toEqual(['example.com/a', 'example.com/b']);
    expect(fieldsOf(merged, 'kubectl')).toBe('{"f:metadata":{"f:finalizers":{"v:\\"example.com/b\\"":{}}}}');

    const err = conflictOf(() => apply(merged, jobConfig({ template: { spec: { nodeSelector: { zone: 'a' } } } }), { now: at(2) }));
    expect(err.message).toContain('.spec.template.spec.nodeSelector');
    const replaced = apply(merged, jobConfig({ template: { spec: { nodeSelector: { zone: 'a' } } } }), { force: true, now: at(2) });
    expect((replaced.spec as { template: { spec: { nodeSelector: unknown } } }).template.spec.nodeSelector).toEqual({ zone: 'a' });
  });

  it('unsets a field applied as null, which conflicts like any change', () => {
    const live = created(jobConfig({ parallelism: 1, completions: 1, template: template([{ name: 'c', image: 'busybox' }]) }));
    const err = conflictOf(() => apply(live, jobConfig({ parallelism: null })));
    expect(err.message).toBe('Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using batch/v1: .spec.parallelism');
    const forced = apply(live, jobConfig({ parallelism: null }), { force: true });
    expect(forced.spec).toEqual({ completions: 1, template: template([{ name: 'c', image: 'busybox' }]) });
    expect(fieldsOf(forced, 'kubectl')).toBe('{"f:spec":{"f:parallelism":{}}}');
  });

  it('does not touch the time of a no-op apply', () => {
    const config = jobConfig({ parallelism: 2, template: template([{ name: 'c', image: 'busybox' }]) });
    const first = apply(null, config);
    const again = applyObject({ live: first, applied: config, manager: 'kubectl', apiVersion: 'batch/v1', schema: jobSchema, now: at(9) });
    expect(again.changed).toBe(false);
    expect(again.object).toEqual(first);
  });

  it('owns no status when applying to the main resource', () => {
    const result = applyObject({
      live: null,
      applied: { ...jobConfig({ parallelism: 1 }), status: { active: 1 } },
      manager: 'kubectl',
      apiVersion: 'batch/v1',
      schema: jobSchema,
      now: at(1),
      resetFields: statusResetFields(),
    });
    expect(FieldSet.fromFieldsV1(result.managedFields?.[0].fieldsV1).toString()).toBe('{"f:spec":{"f:parallelism":{}}}');
  });

  it('rejects a configuration that carries managedFields', () => {
    const config = jobConfig({});
    config.metadata.managedFields = [];
    const err = conflictOf(() => apply(null, config));
    expect(err.code).toBe(400);
    expect(err.message).toBe('metadata.managedFields must be nil');
  });
});
