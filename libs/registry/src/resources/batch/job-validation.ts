// Job validation with the field paths and messages of pkg/apis/batch/validation (v1.28):
// ValidateJob, ValidateJobSpecUpdate and the status checks.
import { field, FieldError, FieldPath, GoLiteral, goQuote, labelSelectorAsSelector, LabelsSelector, newPath, semanticEqual, validateLabelSelector, validation } from '@plinth/machinery';
import { goPodTemplateSpec } from '../shared/go-pod-template';
import { goInt32Slice, goLabelSelector, goNull, goStringMap, goStructText } from '../shared/go-values';
import { validatePodTemplateSpec } from '../core/pod-validation';
import {
  ControllerUidLabel,
  IndexedCompletion,
  isSet,
  Job,
  JobNameLabel,
  JobSpec,
  JobStatus,
  LegacyControllerUidLabel,
  LegacyJobNameLabel,
  NonIndexedCompletion,
  PodFailurePolicyRule,
  PodTemplate,
} from './job-types';

// maxParallelismForIndexedJob caps the length of .status.completedIndexes.
const maxParallelismForIndexedJob = 100000;
const maxFailedIndexesForIndexedJob = 100000;
const completionsSoftLimit = 100000;
const parallelismLimitForHighCompletions = 10000;
const maxFailedIndexesLimitForHighCompletions = 10000;
const maxPodFailurePolicyRules = 20;
const maxPodFailurePolicyOnExitCodesValues = 255;
const maxPodFailurePolicyOnPodConditionsPatterns = 20;

// Sorted, as sets.List returns them.
const supportedPodFailurePolicyActions = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const supportedOnExitCodesOperators = ['In', 'NotIn'];
const supportedOnPodConditionsStatuses = ['False', 'True', 'Unknown'];
const supportedPodReplacementPolicies = ['Failed', 'TerminatingOrFailed'];

export interface JobValidationOptions {
  allowInvalidLabelValueInSelector?: boolean;
  // allowMutableSchedulingDirectives lets a suspended, never started Job change node affinity,
  // node selector, tolerations, scheduling gates and template labels and annotations.
  allowMutableSchedulingDirectives?: boolean;
  allowElasticIndexedJobs?: boolean;
  // requirePrefixedLabels checks the batch.platform.io/ generated labels too.
  requirePrefixedLabels?: boolean;
}

// goQuotedList is fmt's %q of a []string: ["a" "b"].
function goQuotedList(values: string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;
}

function nonNegative(value: number, path: FieldPath): FieldError[] {
  return value < 0 ? [field.invalid(path, value, 'must be greater than or equal to 0')] : [];
}

function selectorOf(selector: JobSpec['selector']): LabelsSelector | undefined {
  try {
    return labelSelectorAsSelector(selector);
  } catch {
    return undefined;
  }
}

// validateHasLabel is ValidateHasLabel of core validation.
function validateHasLabel(labels: Record<string, string> | null | undefined, path: FieldPath, key: string, expected: string): FieldError[] {
  const labelPath = path.child('labels').key(key);
  if (!labels || !Object.prototype.hasOwnProperty.call(labels, key)) return [field.required(labelPath, expected)];
  if (labels[key] !== expected) return [field.invalid(labelPath, goStringMap(labels), `must be '${expected}'`)];
  return [];
}

// validateGeneratedSelector checks that a generated selector and the template labels are the
// ones the strategy put there (nothing to check with a manual selector).
function validateGeneratedSelector(job: Job, requirePrefixedLabels: boolean): FieldError[] {
  const spec = job.spec ?? {};
  if (spec.manualSelector === true || !isSet(spec.selector)) return [];
  const errs: FieldError[] = [];
  const uid = job.metadata.uid ?? '';
  const name = job.metadata.name ?? '';
  if (uid === '') errs.push(field.required(newPath('metadata', 'uid')));
  const templateMeta = newPath('spec', 'template', 'metadata');
  const labels = spec.template?.metadata?.labels;
  errs.push(...validateHasLabel(labels, templateMeta, LegacyControllerUidLabel, uid));
  errs.push(...validateHasLabel(labels, templateMeta, LegacyJobNameLabel, name));
  const expected: Record<string, string> = {};
  if (requirePrefixedLabels) {
    errs.push(...validateHasLabel(labels, templateMeta, ControllerUidLabel, uid));
    errs.push(...validateHasLabel(labels, templateMeta, JobNameLabel, name));
    expected[ControllerUidLabel] = uid;
    expected[JobNameLabel] = name;
  }
  expected[LegacyControllerUidLabel] = uid;
  expected[LegacyJobNameLabel] = name;
  const selector = selectorOf(spec.selector);
  if (selector && !selector.matches(expected)) {
    errs.push(field.invalid(newPath('spec', 'selector'), goLabelSelector(spec.selector), '`selector` not auto-generated'));
  }
  return errs;
}

// validateJob is ValidateJob without the ObjectMeta part, which the store checks for every type.
export function validateJob(job: Job, opts: JobValidationOptions): FieldError[] {
  const spec = job.spec ?? {};
  const errs = validateGeneratedSelector(job, opts.requirePrefixedLabels ?? true);
  errs.push(...validateJobSpec(spec, newPath('spec'), opts));
  if (spec.completionMode === IndexedCompletion && isSet(spec.completions) && spec.completions > 0) {
    // The controller names pods (and hostnames) $(job-name)-$(index); the highest must be a label.
    const name = job.metadata.name ?? '';
    const maximumPodHostname = `${name}-${spec.completions - 1}`;
    if (validation.isDNS1123Label(maximumPodHostname).length > 0) {
      errs.push(field.invalid(newPath('metadata', 'name'), name, `will not able to create pod with invalid DNS label: ${maximumPodHostname}`));
    }
  }
  return errs;
}

// validateJobSpec is ValidateJobSpec: the spec checks plus the selector.
export function validateJobSpec(spec: JobSpec, path: FieldPath, opts: JobValidationOptions): FieldError[] {
  const errs = validateJobSpecFields(spec, path);
  if (!isSet(spec.selector)) {
    errs.push(field.required(path.child('selector')));
  } else {
    errs.push(
      ...validateLabelSelector(spec.selector, { allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector }, path.child('selector')),
    );
  }
  const selector = selectorOf(spec.selector);
  const labels = spec.template?.metadata?.labels;
  if (selector && !selector.matches(labels ?? {})) {
    errs.push(field.invalid(path.child('template', 'metadata', 'labels'), goStringMap(labels), '`selector` does not match template `labels`'));
  }
  return errs;
}

// validateJobSpecFields is the unexported validateJobSpec, shared with CronJob job templates.
export function validateJobSpecFields(spec: JobSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (isSet(spec.parallelism)) errs.push(...nonNegative(spec.parallelism, path.child('parallelism')));
  if (isSet(spec.completions)) errs.push(...nonNegative(spec.completions, path.child('completions')));
  if (isSet(spec.activeDeadlineSeconds)) errs.push(...nonNegative(spec.activeDeadlineSeconds, path.child('activeDeadlineSeconds')));
  if (isSet(spec.backoffLimit)) errs.push(...nonNegative(spec.backoffLimit, path.child('backoffLimit')));
  if (isSet(spec.ttlSecondsAfterFinished)) errs.push(...nonNegative(spec.ttlSecondsAfterFinished, path.child('ttlSecondsAfterFinished')));
  if (isSet(spec.backoffLimitPerIndex)) errs.push(...nonNegative(spec.backoffLimitPerIndex, path.child('backoffLimitPerIndex')));
  if (isSet(spec.maxFailedIndexes)) {
    errs.push(...nonNegative(spec.maxFailedIndexes, path.child('maxFailedIndexes')));
    if (!isSet(spec.backoffLimitPerIndex)) errs.push(field.required(path.child('backoffLimitPerIndex'), 'when maxFailedIndexes is specified'));
  }
  if (isSet(spec.completionMode)) {
    if (spec.completionMode !== NonIndexedCompletion && spec.completionMode !== IndexedCompletion) {
      errs.push(field.notSupported(path.child('completionMode'), spec.completionMode, [NonIndexedCompletion, IndexedCompletion]));
    }
    if (spec.completionMode === IndexedCompletion) errs.push(...validateIndexed(spec, path));
  }
  if (!isSet(spec.completionMode) || spec.completionMode === NonIndexedCompletion) {
    if (isSet(spec.backoffLimitPerIndex)) {
      errs.push(field.invalid(path.child('backoffLimitPerIndex'), spec.backoffLimitPerIndex, 'requires indexed completion mode'));
    }
    if (isSet(spec.maxFailedIndexes)) errs.push(field.invalid(path.child('maxFailedIndexes'), spec.maxFailedIndexes, 'requires indexed completion mode'));
  }
  if (isSet(spec.podFailurePolicy)) errs.push(...validatePodFailurePolicy(spec, path.child('podFailurePolicy')));
  errs.push(...validatePodReplacementPolicy(spec, path.child('podReplacementPolicy')));
  const template: PodTemplate = spec.template ?? {};
  errs.push(...validatePodTemplateSpec(template as Record<string, unknown>, path.child('template')));
  // The pod defaults turn an unset restartPolicy into Always, so both mean "not chosen".
  const restartPolicy = template.spec?.restartPolicy ?? '';
  const restartPath = path.child('template', 'spec', 'restartPolicy');
  if (restartPolicy === 'Always' || restartPolicy === '') {
    errs.push(field.required(restartPath, 'valid values: "OnFailure", "Never"'));
  } else if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') {
    errs.push(field.notSupported(restartPath, restartPolicy, ['OnFailure', 'Never']));
  } else if (isSet(spec.podFailurePolicy) && restartPolicy !== 'Never') {
    errs.push(field.invalid(restartPath, restartPolicy, 'only "Never" is supported when podFailurePolicy is specified'));
  }
  return errs;
}

function validateIndexed(spec: JobSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!isSet(spec.completions)) errs.push(field.required(path.child('completions'), `when completion mode is ${IndexedCompletion}`));
  if (isSet(spec.parallelism) && spec.parallelism > maxParallelismForIndexedJob) {
    errs.push(
      field.invalid(
        path.child('parallelism'),
        spec.parallelism,
        `must be less than or equal to ${maxParallelismForIndexedJob} when completion mode is ${IndexedCompletion}`,
      ),
    );
  }
  if (isSet(spec.completions) && isSet(spec.maxFailedIndexes) && spec.maxFailedIndexes > spec.completions) {
    errs.push(field.invalid(path.child('maxFailedIndexes'), spec.maxFailedIndexes, 'must be less than or equal to completions'));
  }
  if (isSet(spec.maxFailedIndexes) && spec.maxFailedIndexes > maxFailedIndexesForIndexedJob) {
    errs.push(field.invalid(path.child('maxFailedIndexes'), spec.maxFailedIndexes, `must be less than or equal to ${maxFailedIndexesForIndexedJob}`));
  }
  if (isSet(spec.completions) && spec.completions > completionsSoftLimit && isSet(spec.backoffLimitPerIndex)) {
    const suffix = `when completions are above ${completionsSoftLimit} and used with backoff limit per index`;
    if (!isSet(spec.maxFailedIndexes)) {
      errs.push(field.required(path.child('maxFailedIndexes'), `must be specified when completions is above ${completionsSoftLimit}`));
    }
    if (isSet(spec.parallelism) && spec.parallelism > parallelismLimitForHighCompletions) {
      errs.push(field.invalid(path.child('parallelism'), spec.parallelism, `must be less than or equal to ${parallelismLimitForHighCompletions} ${suffix}`));
    }
    if (isSet(spec.maxFailedIndexes) && spec.maxFailedIndexes > maxFailedIndexesLimitForHighCompletions) {
      errs.push(
        field.invalid(path.child('maxFailedIndexes'), spec.maxFailedIndexes, `must be less than or equal to ${maxFailedIndexesLimitForHighCompletions} ${suffix}`),
      );
    }
  }
  return errs;
}

function validatePodFailurePolicy(spec: JobSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const rules = spec.podFailurePolicy?.rules ?? [];
  const rulesPath = path.child('rules');
  if (rules.length > maxPodFailurePolicyRules) errs.push(field.tooMany(rulesPath, rules.length, maxPodFailurePolicyRules));
  const containerNames = new Set<string>();
  for (const c of spec.template?.spec?.containers ?? []) containerNames.add(c?.name ?? '');
  for (const c of spec.template?.spec?.initContainers ?? []) containerNames.add(c?.name ?? '');
  rules.forEach((rule, i) => errs.push(...validatePodFailurePolicyRule(spec, rule ?? {}, rulesPath.index(i), containerNames)));
  return errs;
}

function validatePodFailurePolicyRule(spec: JobSpec, rule: PodFailurePolicyRule, path: FieldPath, containerNames: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const actionPath = path.child('action');
  if (!rule.action) {
    errs.push(field.required(actionPath, `valid values: ${goQuotedList(supportedPodFailurePolicyActions)}`));
  } else if (rule.action === 'FailIndex') {
    if (!isSet(spec.backoffLimitPerIndex)) errs.push(field.invalid(actionPath, rule.action, 'requires the backoffLimitPerIndex to be set'));
  } else if (!supportedPodFailurePolicyActions.includes(rule.action)) {
    errs.push(field.notSupported(actionPath, rule.action, supportedPodFailurePolicyActions));
  }
  const conditions = rule.onPodConditions ?? [];
  if (isSet(rule.onExitCodes)) errs.push(...validateOnExitCodes(rule.onExitCodes, path.child('onExitCodes'), containerNames));
  if (conditions.length > 0) errs.push(...validateOnPodConditions(conditions, path.child('onPodConditions')));
  if (isSet(rule.onExitCodes) && conditions.length > 0) {
    errs.push(field.invalid(path, field.omitValue, 'specifying both OnExitCodes and OnPodConditions is not supported'));
  }
  if (!isSet(rule.onExitCodes) && conditions.length === 0) {
    errs.push(field.invalid(path, field.omitValue, 'specifying one of OnExitCodes and OnPodConditions is required'));
  }
  return errs;
}

function validateOnPodConditions(patterns: NonNullable<PodFailurePolicyRule['onPodConditions']>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (patterns.length > maxPodFailurePolicyOnPodConditionsPatterns) {
    errs.push(field.tooMany(path, patterns.length, maxPodFailurePolicyOnPodConditionsPatterns));
  }
  patterns.forEach((pattern, j) => {
    const patternPath = path.index(j);
    const type = pattern?.type ?? '';
    errs.push(...validation.isQualifiedName(type).map((msg) => field.invalid(patternPath.child('type'), type, msg)));
    const status = pattern?.status ?? '';
    errs.push(...field.validateRequiredEnum(patternPath.child('status'), status, supportedOnPodConditionsStatuses));
  });
  return errs;
}

function validateOnExitCodes(onExitCodes: NonNullable<PodFailurePolicyRule['onExitCodes']>, path: FieldPath, containerNames: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const operator = onExitCodes.operator ?? '';
  errs.push(...field.validateRequiredEnum(path.child('operator'), operator, supportedOnExitCodesOperators));
  if (isSet(onExitCodes.containerName) && !containerNames.has(onExitCodes.containerName)) {
    errs.push(
      field.invalid(path.child('containerName'), onExitCodes.containerName, 'must be one of the container or initContainer names in the pod template'),
    );
  }
  const valuesPath = path.child('values');
  const values = onExitCodes.values ?? [];
  if (values.length === 0) {
    errs.push(field.invalid(valuesPath, goInt32Slice(onExitCodes.values), 'at least one value is required'));
  } else if (values.length > maxPodFailurePolicyOnExitCodesValues) {
    errs.push(field.tooMany(valuesPath, values.length, maxPodFailurePolicyOnExitCodesValues));
  }
  let ordered = true;
  const seen = new Set<number>();
  values.forEach((value, j) => {
    const valuePath = valuesPath.index(j);
    if (operator === 'In' && value === 0) errs.push(field.invalid(valuePath, value, 'must not be 0 for the In operator'));
    if (seen.has(value)) errs.push(field.duplicate(valuePath, value));
    else seen.add(value);
    if (j > 0 && values[j - 1] > value) ordered = false;
  });
  if (!ordered) errs.push(field.invalid(valuesPath, goInt32Slice(values), 'must be ordered'));
  return errs;
}

function validatePodReplacementPolicy(spec: JobSpec, path: FieldPath): FieldError[] {
  if (!isSet(spec.podReplacementPolicy)) return [];
  if (isSet(spec.podFailurePolicy)) {
    return spec.podReplacementPolicy !== 'Failed' ? [field.notSupported(path, spec.podReplacementPolicy, ['Failed'])] : [];
  }
  return field.validateEnum(path, spec.podReplacementPolicy, supportedPodReplacementPolicies);
}

// immutable is ValidateImmutableField with the bad value rendered as Kubernetes prints it.
function immutable(value: unknown, old: unknown, path: FieldPath, rendered: unknown): FieldError[] {
  return semanticEqual(value, old) ? [] : [field.invalid(path, rendered, 'field is immutable')];
}

// goPodFailurePolicyText is %#v of the internal batch.PodFailurePolicy (a non-nil pointer prints
// an address, any address: the differential suite reads it as volatile).
export function goPodFailurePolicyText(policy: NonNullable<JobSpec['podFailurePolicy']>): string {
  const slice = <T>(type: string, items: T[] | null | undefined, item: (x: T) => string) => (isSet(items) ? `[]${type}{${items.map(item).join(', ')}}` : `[]${type}(nil)`);
  const onExitCodes = (r: NonNullable<PodFailurePolicyRule['onExitCodes']> | null | undefined) =>
    `(*batch.PodFailurePolicyOnExitCodesRequirement)(${isSet(r) ? '0xc000010000' : 'nil'})`;
  const rule = (r: PodFailurePolicyRule) =>
    goStructText('batch.PodFailurePolicyRule', [
      ['Action', goQuote(r.action ?? '')],
      ['OnExitCodes', onExitCodes(r.onExitCodes)],
      ['OnPodConditions', slice('batch.PodFailurePolicyOnPodConditionsPattern', r.onPodConditions, (c) => goStructText('batch.PodFailurePolicyOnPodConditionsPattern', [['Type', goQuote(c.type ?? '')], ['Status', goQuote(c.status ?? '')]]))],
    ]);
  return goStructText('batch.PodFailurePolicy', [['Rules', slice('batch.PodFailurePolicyRule', policy.rules, rule)]]);
}

function pointerValue(value: number | string | null | undefined): unknown {
  return isSet(value) ? value : goNull;
}

// validateJobSpecUpdate is ValidateJobSpecUpdate: the spec again, then what may not change.
export function validateJobSpecUpdate(spec: JobSpec, oldSpec: JobSpec, path: FieldPath, opts: JobValidationOptions): FieldError[] {
  const errs = validateJobSpec(spec, path, opts);
  errs.push(...validateCompletions(spec, oldSpec, path.child('completions'), opts));
  errs.push(...immutable(spec.selector, oldSpec.selector, path.child('selector'), goLabelSelector(spec.selector)));
  errs.push(...validatePodTemplateUpdate(spec, oldSpec, path, opts));
  errs.push(...immutable(spec.completionMode, oldSpec.completionMode, path.child('completionMode'), pointerValue(spec.completionMode)));
  errs.push(
    ...immutable(
      spec.podFailurePolicy,
      oldSpec.podFailurePolicy,
      path.child('podFailurePolicy'),
      isSet(spec.podFailurePolicy) ? new GoLiteral(goPodFailurePolicyText(spec.podFailurePolicy)) : goNull,
    ),
  );
  errs.push(
    ...immutable(spec.backoffLimitPerIndex, oldSpec.backoffLimitPerIndex, path.child('backoffLimitPerIndex'), pointerValue(spec.backoffLimitPerIndex)),
  );
  return errs;
}

// validateCompletions: completions is immutable, except for Indexed Jobs with elastic indexed
// jobs enabled, which may change it together with parallelism.
function validateCompletions(spec: JobSpec, oldSpec: JobSpec, path: FieldPath, opts: JobValidationOptions): FieldError[] {
  const rendered = pointerValue(spec.completions);
  if (!opts.allowElasticIndexedJobs || spec.completionMode !== IndexedCompletion) {
    return immutable(spec.completions, oldSpec.completions, path, rendered);
  }
  if ((spec.completions ?? null) === (oldSpec.completions ?? null) || !isSet(spec.completions)) return [];
  if (spec.completions !== spec.parallelism) {
    return [field.invalid(path, spec.completions, `can only be modified in tandem with ${path.root().child('parallelism').toString()}`)];
  }
  return [];
}

// validatePodTemplateUpdate: the template is immutable; a suspended Job that never started may
// still change its scheduling directives.
function validatePodTemplateUpdate(spec: JobSpec, oldSpec: JobSpec, path: FieldPath, opts: JobValidationOptions): FieldError[] {
  const template: PodTemplate = spec.template ?? {};
  let oldTemplate: PodTemplate = oldSpec.template ?? {};
  if (opts.allowMutableSchedulingDirectives) {
    oldTemplate = structuredClone(oldTemplate);
    const oldPodSpec = oldTemplate.spec ?? (oldTemplate.spec = {});
    const newPodSpec = template.spec ?? {};
    const newAffinity = newPodSpec.affinity;
    const oldAffinity = oldPodSpec.affinity;
    if (!isSet(newAffinity) && isSet(oldAffinity)) {
      // The affinity may be cleared when it held nothing but node affinity.
      delete oldAffinity.nodeAffinity;
      if (Object.values(oldAffinity).every((v) => !isSet(v))) delete oldPodSpec.affinity;
    } else if (isSet(newAffinity) && !isSet(oldAffinity)) {
      oldPodSpec.affinity = { nodeAffinity: newAffinity.nodeAffinity };
    } else if (isSet(newAffinity) && isSet(oldAffinity)) {
      oldAffinity.nodeAffinity = newAffinity.nodeAffinity;
    }
    oldPodSpec.nodeSelector = newPodSpec.nodeSelector;
    oldPodSpec.tolerations = newPodSpec.tolerations;
    oldPodSpec.schedulingGates = newPodSpec.schedulingGates;
    const oldMeta = oldTemplate.metadata ?? (oldTemplate.metadata = {});
    oldMeta.annotations = template.metadata?.annotations;
    oldMeta.labels = template.metadata?.labels;
  }
  return immutable(template, oldTemplate, path.child('template'), goPodTemplateSpec(template));
}

// validateJobUpdate is the update half of jobStrategy.ValidateUpdate (ValidateJobUpdate without
// ObjectMeta); the store has already run validateJob on the new object.
export function validateJobUpdate(job: Job, old: Job, opts: JobValidationOptions): FieldError[] {
  return validateJobSpecUpdate(job.spec ?? {}, old.spec ?? {}, newPath('spec'), opts);
}

// validateJobStatus is validateJobStatus: counters non-negative, uncounted pod UIDs unique.
export function validateJobStatus(status: JobStatus | undefined): FieldError[] {
  const path = newPath('status');
  const s = status ?? {};
  const errs: FieldError[] = [];
  errs.push(...nonNegative(s.active ?? 0, path.child('active')));
  errs.push(...nonNegative(s.succeeded ?? 0, path.child('succeeded')));
  errs.push(...nonNegative(s.failed ?? 0, path.child('failed')));
  if (isSet(s.ready)) errs.push(...nonNegative(s.ready, path.child('ready')));
  if (isSet(s.terminating)) errs.push(...nonNegative(s.terminating, path.child('terminating')));
  if (isSet(s.uncountedTerminatedPods)) {
    const uncounted = path.child('uncountedTerminatedPods');
    const seen = new Set<string>();
    for (const kind of ['succeeded', 'failed'] as const) {
      (s.uncountedTerminatedPods[kind] ?? []).forEach((uid, i) => {
        const p = uncounted.child(kind).index(i);
        if (uid === '') errs.push(field.invalid(p, uid, 'must not be empty'));
        else if (seen.has(uid)) errs.push(field.duplicate(p, uid));
        else seen.add(uid);
      });
    }
  }
  return errs;
}
