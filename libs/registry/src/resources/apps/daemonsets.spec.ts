import { Clock, isStatusError, realClock, StatusError } from '@plinth/machinery';
import { EmbeddedObjectStore } from '@plinth/storage';
import { StrategyContext } from '../../resource';
import { ResourceStore } from '../../store/resource-store';
import { DaemonSet } from '@plinth/api';
import { daemonSetDefinition } from './daemonsets';

const now = Date.parse('2024-05-01T12:00:00Z');
const clock: Clock = { ...realClock, now: () => now };
const ctx: StrategyContext = { featureGates: new Map(), now };

function ds(spec: Record<string, unknown> = {}): DaemonSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'kube-system' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'agent', image: 'agent:1' }] } },
      ...spec,
    },
  };
}

function defaulted(object: DaemonSet): DaemonSet {
  const copy = structuredClone(object);
  daemonSetDefinition.strategy.defaults?.(copy, ctx);
  daemonSetDefinition.strategy.prepareForCreate?.(copy, ctx);
  return copy;
}

function validate(object: DaemonSet): string[] {
  return daemonSetDefinition.strategy.validate(defaulted(object), ctx).map((e) => e.toString());
}

function store(): ResourceStore {
  return new ResourceStore(daemonSetDefinition, new EmbeddedObjectStore(), clock, new Map());
}

async function rejected(p: Promise<unknown>): Promise<StatusError> {
  try {
    await p;
  } catch (err) {
    if (isStatusError(err)) return err;
    throw err;
  }
  throw new Error('expected the request to fail');
}

describe('daemonsets definition', () => {
  it('is apps/v1 DaemonSet, short name ds, in category all', () => {
    expect(daemonSetDefinition).toMatchObject({
      group: 'apps',
      version: 'v1',
      resource: 'daemonsets',
      kind: 'DaemonSet',
      listKind: 'DaemonSetList',
      shortNames: ['ds'],
      categories: ['all'],
      subresources: ['status'],
      tracksGeneration: true,
      namespaced: true,
    });
    expect(daemonSetDefinition.defaultPropagationPolicy).toBeUndefined();
    expect(daemonSetDefinition.schema.properties?.spec?.required).toEqual(['selector', 'template']);
    expect(daemonSetDefinition.schema.properties?.status?.required).toEqual(['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady']);
  });
});

describe('DaemonSet defaults', () => {
  it('defaults a rolling update of one unavailable pod and no surge, and 10 revisions', () => {
    const spec = defaulted(ds()).spec ?? {};
    expect(spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    expect(spec.revisionHistoryLimit).toBe(10);
    expect(spec.template?.spec).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler' });
  });

  it('keeps OnDelete without rolling update parameters', () => {
    expect(defaulted(ds({ updateStrategy: { type: 'OnDelete' } })).spec?.updateStrategy).toEqual({ type: 'OnDelete' });
  });

  it('starts with zero counters and template generation 1', () => {
    const out = defaulted(ds());
    expect(out.status).toEqual({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 });
    expect(out.metadata.annotations).toEqual({ 'deprecated.daemonset.template.generation': '1' });
  });
});

describe('DaemonSet validation', () => {
  it('accepts a minimal DaemonSet', () => {
    expect(validate(ds())).toEqual([]);
  });

  it('requires the selector to match the template', () => {
    expect(validate(ds({ selector: { matchLabels: { app: 'other' } } }))).toEqual([
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"agent"}: `selector` does not match template `labels`',
    ]);
    expect(validate(ds({ selector: undefined }))).toEqual([
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"agent"}: `selector` does not match template `labels`',
    ]);
    expect(validate(ds({ selector: {} }))).toEqual([
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for daemonset',
    ]);
  });

  it('allows only restartPolicy Always and no active deadline', () => {
    const template = { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'a', image: 'a' }], restartPolicy: 'OnFailure', activeDeadlineSeconds: 5 } };
    expect(validate(ds({ template }))).toEqual([
      'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported',
    ]);
  });

  it('checks minReadySeconds, revisionHistoryLimit and the update strategy type', () => {
    expect(validate(ds({ minReadySeconds: -1, revisionHistoryLimit: -1, updateStrategy: { type: 'Sometimes' } }))).toEqual([
      'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.updateStrategy: Unsupported value: apps.DaemonSetUpdateStrategy{Type:"Sometimes", RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}: supported values: "RollingUpdate", "OnDelete"',
      'spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });

  it('validates maxUnavailable and maxSurge', () => {
    const rolling = (rollingUpdate: Record<string, unknown>) => ds({ updateStrategy: { type: 'RollingUpdate', rollingUpdate } });
    expect(validate(rolling({ maxUnavailable: 0, maxSurge: 0 }))).toEqual(['spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0']);
    expect(validate(rolling({ maxUnavailable: 1, maxSurge: '10%' }))).toEqual([
      'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"10%"}: may not be set when maxUnavailable is non-zero',
    ]);
    expect(validate(rolling({ maxUnavailable: 'half', maxSurge: 0 }))).toEqual([
      "spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"half\"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
    ]);
    expect(validate(rolling({ maxUnavailable: '150%', maxSurge: -1 }))).toEqual([
      'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0',
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%',
      'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:0, IntVal:-1, StrVal:""}: may not be set when maxUnavailable is non-zero',
    ]);
    expect(validate(rolling({ maxUnavailable: 0, maxSurge: '25%' }))).toEqual([]);
  });
});

describe('DaemonSet store round trips', () => {
  it('creates with defaults and keeps the selector immutable', async () => {
    const s = store();
    const out = (await s.create('kube-system', ds())) as DaemonSet;
    expect(out.metadata.generation).toBe(1);
    expect(out.metadata.annotations?.['deprecated.daemonset.template.generation']).toBe('1');
    const changed = structuredClone(out);
    changed.spec = {
      ...changed.spec,
      selector: { matchLabels: { app: 'agent', tier: 'node' } },
      template: { ...changed.spec?.template, metadata: { labels: { app: 'agent', tier: 'node' } } },
    };
    const err = await rejected(s.update('kube-system', 'agent', changed));
    expect(err.errStatus.message).toBe(
      'DaemonSet.apps "agent" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"agent", "tier":"node"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    );
  });

  it("counts the template generation annotation as the writer's field", async () => {
    const out = await store().create('kube-system', ds(), { fieldManager: { manager: 'writer', apiVersion: 'apps/v1' } });
    expect(out.metadata.managedFields?.[0].fieldsV1).toMatchObject({ 'f:metadata': { 'f:annotations': { '.': {}, 'f:deprecated.daemonset.template.generation': {} } } });
  });

  it('bumps the template generation when the template changes', async () => {
    const s = store();
    const out = (await s.create('kube-system', ds())) as DaemonSet;
    const changed = structuredClone(out);
    if (changed.spec?.template?.spec?.containers?.[0]) changed.spec.template.spec.containers[0].image = 'agent:2';
    const updated = (await s.update('kube-system', 'agent', changed)).object as DaemonSet;
    expect(updated.metadata.annotations?.['deprecated.daemonset.template.generation']).toBe('2');
    expect(updated.metadata.generation).toBe(2);
    const again = structuredClone(updated);
    again.spec = { ...again.spec, minReadySeconds: 5 };
    const third = (await s.update('kube-system', 'agent', again)).object as DaemonSet;
    expect(third.metadata.annotations?.['deprecated.daemonset.template.generation']).toBe('2');
    expect(third.metadata.generation).toBe(3);
  });

  it('validates the status counters and collisionCount', async () => {
    const s = store();
    const out = (await s.create('kube-system', ds())) as DaemonSet;
    const first = structuredClone(out);
    first.status = { ...first.status, collisionCount: 2 };
    const updated = (await s.update('kube-system', 'agent', first, { subresource: 'status' })).object as DaemonSet;
    const bad = structuredClone(updated);
    bad.status = { currentNumberScheduled: -1, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0, collisionCount: 1 };
    const err = await rejected(s.update('kube-system', 'agent', bad, { subresource: 'status' }));
    expect((err.errStatus.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`)).toEqual([
      'status.currentNumberScheduled: Invalid value: -1: must be greater than or equal to 0',
      'status.collisionCount: Invalid value: 1: cannot be decremented',
    ]);
  });
});

describe('DaemonSet table', () => {
  it('prints the printDaemonSet columns and cells', () => {
    const table = daemonSetDefinition.table;
    expect(table?.columns.map((c) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Desired', 'integer', 0],
      ['Current', 'integer', 0],
      ['Ready', 'integer', 0],
      ['Up-to-date', 'integer', 0],
      ['Available', 'integer', 0],
      ['Node Selector', 'string', 0],
      ['Age', 'string', 0],
      ['Containers', 'string', 1],
      ['Images', 'string', 1],
      ['Selector', 'string', 1],
    ]);
    const object = defaulted(ds());
    object.metadata.creationTimestamp = '2024-04-29T12:00:00Z';
    object.status = { desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 2, numberMisscheduled: 0 };
    expect(table?.row(object, now)).toEqual(['agent', 3, 3, 2, 3, 2, '<none>', '2d', 'agent', 'agent:1', 'app=agent']);
    if (object.spec?.template?.spec) object.spec.template.spec.nodeSelector = { 'platform.io/os': 'linux', disk: 'ssd' };
    expect(table?.row(object, now)[6]).toBe('disk=ssd,platform.io/os=linux');
  });
});
