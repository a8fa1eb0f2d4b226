// daemonsets (apps/v1 DaemonSet): defaults (pkg/apis/apps/v1/defaults.go), strategy
// (pkg/registry/apps/daemonset/strategy.go) and Table (printDaemonSet), v1.28.
import { DaemonSet, DaemonSetSpec, DeprecatedTemplateGeneration, KubeObject } from '@plinth/api';
import { field, FieldError, newPath, semanticEqual, validation } from '@plinth/machinery';
import { objectVerbs, ResourceDefinition, ResourceStrategy, TableDefinition } from '../../resource';
import { age, ageColumn, column, nameColumn } from '../../table';
import { defaultPodTemplateSpec } from '../core/pod-defaults';
import { daemonSetSchema } from './daemonset-schema';
import { DaemonSetValidationOptions, validateDaemonSetSpec, validateDaemonSetStatus } from './daemonset-validation';
import { goLabelSelector } from '../shared/go-values';
import { containersColumn, formatLabels, formatLabelSelector, imagesColumn, layoutContainerCells } from '../shared/workload-table';

function specOf(ds: DaemonSet): DaemonSetSpec {
  if (!ds.spec || typeof ds.spec !== 'object') ds.spec = {};
  return ds.spec;
}

// templateGeneration reads the internal spec.templateGeneration from its annotation (0 when
// absent or not a number).
export function templateGeneration(ds: DaemonSet): number {
  const value = ds.metadata.annotations?.[DeprecatedTemplateGeneration];
  if (value === undefined || !/^[+-]?[0-9]+$/.test(value)) return 0;
  return Number.parseInt(value, 10);
}

function setTemplateGeneration(ds: DaemonSet, generation: number): void {
  ds.metadata.annotations = { ...(ds.metadata.annotations ?? {}), [DeprecatedTemplateGeneration]: String(generation) };
}

// defaultDaemonSet is SetDefaults_DaemonSet and the pod template defaults.
export function defaultDaemonSet(ds: DaemonSet): void {
  const spec = specOf(ds);
  const strategy = spec.updateStrategy ?? (spec.updateStrategy = {});
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const rollingUpdate = strategy.rollingUpdate ?? (strategy.rollingUpdate = {});
    if (rollingUpdate.maxUnavailable === undefined || rollingUpdate.maxUnavailable === null) rollingUpdate.maxUnavailable = 1;
    if (rollingUpdate.maxSurge === undefined || rollingUpdate.maxSurge === null) rollingUpdate.maxSurge = 0;
  }
  if (spec.revisionHistoryLimit === undefined || spec.revisionHistoryLimit === null) spec.revisionHistoryLimit = 10;
  if (!spec.template || typeof spec.template !== 'object') spec.template = {};
  defaultPodTemplateSpec(spec.template as Record<string, unknown>);
}

// labelSelectorHasInvalidLabelValue is metav1validation.LabelSelectorHasInvalidLabelValue.
function labelSelectorHasInvalidLabelValue(selector: DaemonSetSpec['selector']): boolean {
  return (selector?.matchExpressions ?? []).some((e) => (e.values ?? []).some((v) => validation.isValidLabelValue(v).length > 0));
}

// oldDaemonSets remembers the stored object of an update in flight, so validate uses the
// update's options as the strategy's ValidateUpdate does.
const oldDaemonSets = new WeakMap<KubeObject, DaemonSet>();

function optionsFor(old: DaemonSet | undefined): DaemonSetValidationOptions {
  return { allowInvalidLabelValueInSelector: old ? labelSelectorHasInvalidLabelValue(old.spec?.selector) : false };
}

function validateDaemonSet(ds: DaemonSet, opts: DaemonSetValidationOptions): FieldError[] {
  return validateDaemonSetSpec(ds.spec ?? {}, templateGeneration(ds), newPath('spec'), opts);
}

export const daemonSetStrategy: ResourceStrategy = {
  defaults(object: KubeObject): void {
    defaultDaemonSet(object as DaemonSet);
    // Converting to apps/v1 always writes the template generation annotation (0 until the
    // strategy sets it), so the field manager counts it as the writer's.
    const ds = object as DaemonSet;
    setTemplateGeneration(ds, templateGeneration(ds));
  },
  prepareForCreate(object: KubeObject): void {
    const ds = object as DaemonSet;
    // The status struct's required counters are always serialized, as zeros on a new object.
    ds.status = { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 };
    setTemplateGeneration(ds, Math.max(templateGeneration(ds), 1));
  },
  prepareForUpdate(object: KubeObject, old: KubeObject): void {
    const ds = object as DaemonSet;
    const previous = old as DaemonSet;
    oldDaemonSets.set(object, previous);
    // The template generation is the server's: kept, and bumped when the template changes.
    const oldGeneration = templateGeneration(previous);
    const changed = !semanticEqual(ds.spec?.template, previous.spec?.template);
    setTemplateGeneration(ds, changed ? oldGeneration + 1 : oldGeneration);
  },
  validate(object: KubeObject): FieldError[] {
    return validateDaemonSet(object as DaemonSet, optionsFor(oldDaemonSets.get(object)));
  },
  validateUpdate(object: KubeObject, old: KubeObject): FieldError[] {
    // ValidateDaemonSetUpdate validates the spec again, then the selector may not change.
    const ds = object as DaemonSet;
    const previous = old as DaemonSet;
    const errs = validateDaemonSet(ds, optionsFor(previous));
    if (!semanticEqual(ds.spec?.selector, previous.spec?.selector)) {
      errs.push(field.invalid(newPath('spec', 'selector'), goLabelSelector(ds.spec?.selector), 'field is immutable'));
    }
    return errs;
  },
  validateStatusUpdate(object: KubeObject, old: KubeObject): FieldError[] {
    return validateDaemonSetStatus((object as DaemonSet).status, (old as DaemonSet).status);
  },
};

export const daemonSetTable: TableDefinition = {
  columns: [
    nameColumn,
    column('Desired', 'integer', 'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/'),
    column('Current', 'integer', 'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/'),
    column('Ready', 'integer', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.'),
    column('Up-to-date', 'integer', 'The total number of nodes that are running updated daemon pod'),
    column('Available', 'integer', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)'),
    column('Node Selector', 'string', "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/"),
    ageColumn,
    containersColumn,
    imagesColumn,
    column('Selector', 'string', 'A label query over pods that are managed by the daemon set. Must match in order to be controlled. If empty, defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors', 1),
  ],
  row(object: KubeObject, now: number): unknown[] {
    const ds = object as DaemonSet;
    const status = ds.status ?? {};
    const [names, images] = layoutContainerCells(ds.spec?.template?.spec?.containers);
    return [
      ds.metadata.name ?? '',
      status.desiredNumberScheduled ?? 0,
      status.currentNumberScheduled ?? 0,
      status.numberReady ?? 0,
      status.updatedNumberScheduled ?? 0,
      status.numberAvailable ?? 0,
      formatLabels(ds.spec?.template?.spec?.nodeSelector),
      age(ds, now),
      names,
      images,
      formatLabelSelector(ds.spec?.selector),
    ];
  },
};

export const daemonSetDefinition: ResourceDefinition = {
  group: 'apps',
  version: 'v1',
  resource: 'daemonsets',
  singular: 'daemonset',
  kind: 'DaemonSet',
  listKind: 'DaemonSetList',
  namespaced: true,
  shortNames: ['ds'],
  categories: ['all'],
  verbs: objectVerbs,
  subresources: ['status'],
  tracksGeneration: true,
  hasStatus: true,
  schema: daemonSetSchema,
  zeroValue: { metadata: { annotations: { 'deprecated.daemonset.template.generation': '0' } }, spec: { selector: null, template: { metadata: { creationTimestamp: null }, spec: { containers: null } }, updateStrategy: {} }, status: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 } },
  strategy: daemonSetStrategy,
  table: daemonSetTable,
  nameValidation: 'dns-subdomain',
};
