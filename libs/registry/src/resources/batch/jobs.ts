// jobs (batch/v1 Job): the registry row and strategy, after pkg/registry/batch/job/strategy.go
// (v1.28). batch/v1 keeps Orphan as the default garbage-collection policy for compatibility.
import { KubeObject } from '@plinth/api';
import { FieldError, goQuote, LabelSelector, validation } from '@plinth/machinery';
import { objectVerbs, ResourceDefinition, ResourceStrategy, StrategyContext } from '../../resource';
import { canonicalizeJob, defaultJob, jobGate, prepareJobForCreate, prepareJobForUpdate } from './job-defaults';
import { jobSchema } from './job-schema';
import { jobTable } from './job-table';
import { ControllerUidLabel, Job, JobNameLabel } from './job-types';
import { JobValidationOptions, validateJob, validateJobStatus, validateJobUpdate } from './job-validation';

// labelSelectorHasInvalidLabelValue is metav1validation.LabelSelectorHasInvalidLabelValue.
export function labelSelectorHasInvalidLabelValue(selector: LabelSelector | null | undefined): boolean {
  if (!selector) return false;
  return (selector.matchExpressions ?? []).some((e) => (e.values ?? []).some((v) => validation.isValidLabelValue(v).length > 0));
}

// validationOptionsForJob mirrors the strategy's choice of validation options for a create
// (old undefined) or an update.
function validationOptionsForJob(ctx: StrategyContext, old?: Job): JobValidationOptions {
  const opts: JobValidationOptions = {
    allowElasticIndexedJobs: jobGate(ctx, 'ElasticIndexedJob'),
    requirePrefixedLabels: true,
  };
  if (old) {
    opts.allowInvalidLabelValueInSelector = labelSelectorHasInvalidLabelValue(old.spec?.selector);
    // Scheduling directives stay mutable only for suspended Jobs that never started.
    opts.allowMutableSchedulingDirectives = old.spec?.suspend === true && !old.status?.startTime;
    // Jobs created before 1.27 lack the prefixed labels; don't fail them on update.
    const labels = old.spec?.template?.metadata?.labels ?? {};
    opts.requirePrefixedLabels = JobNameLabel in labels && ControllerUidLabel in labels;
  }
  return opts;
}

// oldJobs remembers, for an update in flight, the stored object prepareForUpdate saw, so that
// validate can use the update options as jobStrategy.ValidateUpdate does.
const oldJobs = new WeakMap<KubeObject, Job>();

export const jobStrategy: ResourceStrategy = {
  defaults(object: KubeObject, ctx: StrategyContext): void {
    defaultJob(object as Job, ctx);
  },
  prepareForCreate(object: KubeObject, ctx: StrategyContext): void {
    prepareJobForCreate(object as Job, ctx);
  },
  prepareForUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): void {
    oldJobs.set(object, old as Job);
    prepareJobForUpdate(object as Job, old as Job, ctx);
  },
  validate(object: KubeObject, ctx: StrategyContext): FieldError[] {
    return validateJob(object as Job, validationOptionsForJob(ctx, oldJobs.get(object)));
  },
  validateUpdate(object: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[] {
    return validateJobUpdate(object as Job, old as Job, validationOptionsForJob(ctx, old as Job));
  },
  validateStatusUpdate(object: KubeObject): FieldError[] {
    return validateJobStatus((object as Job).status);
  },
  canonicalize(object: KubeObject): void {
    canonicalizeJob(object as Job);
  },
  selectableFields(object: KubeObject): Record<string, string> {
    return { 'status.successful': String((object as Job).status?.succeeded ?? 0) };
  },
  unsupportedFieldLabel: (label) => `field label ${goQuote(label)} not supported for Job`,
  warnings(object: KubeObject): string[] {
    // Only a create warns about the name (WarningsOnCreate).
    if (oldJobs.has(object)) return [];
    const msgs = validation.isDNS1123Label(object.metadata.name ?? '');
    if (msgs.length === 0) return [];
    return [`metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`];
  },
};

export const jobDefinition: ResourceDefinition = {
  group: 'batch',
  version: 'v1',
  resource: 'jobs',
  singular: 'job',
  kind: 'Job',
  listKind: 'JobList',
  namespaced: true,
  categories: ['all'],
  verbs: objectVerbs,
  subresources: ['status'],
  tracksGeneration: true,
  hasStatus: true,
  schema: jobSchema,
  zeroValue: { spec: { template: { metadata: { creationTimestamp: null }, spec: { containers: null } } }, status: {} },
  strategy: jobStrategy,
  table: jobTable,
  defaultPropagationPolicy: 'Orphan',
  orphanByDefaultWarning:
    'child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning',
  nameValidation: 'dns-subdomain',
};
