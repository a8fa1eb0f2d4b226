// Job defaulting and create/update preparation, after pkg/apis/batch/v1/defaults.go
// (SetDefaults_Job, v1.28) and pkg/registry/batch/job/strategy.go (generateSelector and the
// dropping of fields whose feature gate is off).
import { StrategyContext } from '../../resource';
import { defaultPodTemplateSpec } from '../core/pod-defaults';
import {
  ControllerUidLabel,
  isSet,
  Job,
  JobNameLabel,
  jobSpec,
  LegacyControllerUidLabel,
  LegacyJobNameLabel,
  NonIndexedCompletion,
} from './job-types';

const maxInt32 = 2147483647;

// jobFeatureGates are the Job gates of Kubernetes 1.28 with their defaults.
const jobFeatureGates: Record<string, boolean> = {
  JobPodFailurePolicy: true,
  JobBackoffLimitPerIndex: false,
  JobPodReplacementPolicy: false,
  ElasticIndexedJob: true,
  JobReadyPods: true,
};

export function jobGate(ctx: StrategyContext, name: string): boolean {
  return ctx.featureGates.get(name) ?? jobFeatureGates[name] ?? false;
}

// defaultJob is SetDefaults_Job followed by the pod template defaults.
export function defaultJob(job: Job, ctx: StrategyContext): void {
  const spec = jobSpec(job);
  if (!isSet(spec.completions) && !isSet(spec.parallelism)) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  if (!isSet(spec.parallelism)) spec.parallelism = 1;
  if (!isSet(spec.backoffLimit)) spec.backoffLimit = isSet(spec.backoffLimitPerIndex) ? maxInt32 : 6;
  if (!isSet(spec.template) || typeof spec.template !== 'object') spec.template = {};
  copyTemplateLabelsIfUnlabeled(job);
  if (!isSet(spec.completionMode)) spec.completionMode = NonIndexedCompletion;
  if (!isSet(spec.suspend)) spec.suspend = false;
  for (const rule of spec.podFailurePolicy?.rules ?? []) {
    for (const pattern of rule?.onPodConditions ?? []) {
      if (pattern && !pattern.status) pattern.status = 'True';
    }
  }
  if (jobGate(ctx, 'JobPodReplacementPolicy') && !isSet(spec.podReplacementPolicy)) {
    spec.podReplacementPolicy = isSet(spec.podFailurePolicy) ? 'Failed' : 'TerminatingOrFailed';
  }
  defaultPodTemplateSpec(spec.template as Record<string, unknown>);
}

// canonicalizeJob: reading a created Job back applies SetDefaults_Job again, which labels an
// unlabeled Job with the template labels generateSelector added after validation; doing it
// before storing keeps what clients see, and validation never sees those labels.
export function canonicalizeJob(job: Job): void {
  copyTemplateLabelsIfUnlabeled(job);
  writeUnsetPolicyMembersAsNull(job);
}

// writeUnsetPolicyMembersAsNull writes what Go writes of a pod failure policy rule: its unset
// onExitCodes and onPodConditions, and an unset containerName, as null (their JSON tags have no
// omitempty). It runs after validation, which reads an unset member and a null one alike.
function writeUnsetPolicyMembersAsNull(job: Job): void {
  for (const rule of job.spec?.podFailurePolicy?.rules ?? []) {
    if (!rule || typeof rule !== 'object') continue;
    rule.onExitCodes ??= null;
    rule.onPodConditions ??= null;
    if (rule.onExitCodes && typeof rule.onExitCodes === 'object') rule.onExitCodes.containerName ??= null;
  }
}

// copyTemplateLabelsIfUnlabeled gives an unlabeled Job the labels of its pod template, as
// SetDefaults_Job does (it aliases the map, so the generated selector labels show up too).
function copyTemplateLabelsIfUnlabeled(job: Job): void {
  const templateLabels = job.spec?.template?.metadata?.labels;
  if (!isSet(templateLabels)) return;
  if (Object.keys(job.metadata.labels ?? {}).length === 0) job.metadata.labels = { ...templateLabels };
}

// generateSelector adds the job-name and controller-uid labels to the pod template (both the
// prefixed and the legacy keys) and selects on the prefixed controller-uid, unless the user
// asked for a manual selector. Conflicting labels the user set are left for validation.
export function generateSelectorIfNeeded(job: Job): void {
  const spec = jobSpec(job);
  if (spec.manualSelector === true) return;
  const template = spec.template ?? (spec.template = {});
  const metadata = template.metadata ?? (template.metadata = {});
  const labels = metadata.labels ?? (metadata.labels = {});
  const name = job.metadata.name ?? '';
  const uid = job.metadata.uid ?? '';
  for (const key of [LegacyJobNameLabel, JobNameLabel]) {
    if (!(key in labels)) labels[key] = name;
  }
  for (const key of [LegacyControllerUidLabel, ControllerUidLabel]) {
    if (!(key in labels)) labels[key] = uid;
  }
  const selector = spec.selector ?? (spec.selector = {});
  const matchLabels = selector.matchLabels ?? (selector.matchLabels = {});
  if (!(ControllerUidLabel in matchLabels)) matchLabels[ControllerUidLabel] = uid;
}

// prepareJobForCreate is jobStrategy.PrepareForCreate of 1.28: generate the selector, start with
// an empty status, drop fields of disabled gates.
export function prepareJobForCreate(job: Job, ctx: StrategyContext): void {
  generateSelectorIfNeeded(job);
  job.status = {};
  const spec = jobSpec(job);
  if (!jobGate(ctx, 'JobPodFailurePolicy')) delete spec.podFailurePolicy;
  if (!jobGate(ctx, 'JobBackoffLimitPerIndex')) {
    delete spec.backoffLimitPerIndex;
    delete spec.maxFailedIndexes;
    if (spec.podFailurePolicy?.rules) spec.podFailurePolicy.rules = spec.podFailurePolicy.rules.filter((r) => r?.action !== 'FailIndex');
  }
  if (!jobGate(ctx, 'JobPodReplacementPolicy')) delete spec.podReplacementPolicy;
}

// prepareJobForUpdate is jobStrategy.PrepareForUpdate: a disabled gate's field survives only
// when the old object already used it.
export function prepareJobForUpdate(job: Job, old: Job, ctx: StrategyContext): void {
  const spec = jobSpec(job);
  const oldSpec = old.spec ?? {};
  if (!jobGate(ctx, 'JobPodFailurePolicy') && !isSet(oldSpec.podFailurePolicy)) delete spec.podFailurePolicy;
  if (!jobGate(ctx, 'JobBackoffLimitPerIndex')) {
    if (!isSet(oldSpec.backoffLimitPerIndex)) delete spec.backoffLimitPerIndex;
    if (!isSet(oldSpec.maxFailedIndexes)) delete spec.maxFailedIndexes;
  }
  if (!jobGate(ctx, 'JobPodReplacementPolicy') && !isSet(oldSpec.podReplacementPolicy)) delete spec.podReplacementPolicy;
}
