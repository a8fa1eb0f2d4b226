// The batch/v1 Job schema of Kubernetes 1.28 (k8s.io/api/batch/v1 types.go): every JobSpec and
// JobStatus field, with the list markers of the Go struct tags.
import { kindSchema, labelSelectorSchema, podTemplateSpecSchema, s, Schema } from '@plinth/api';

const ref = (name: string): string => `io.k8s.api.batch.v1.${name}`;

const onExitCodesSchema: Schema = s.object(
  {
    containerName: s.string('Restricts the check for exit codes to the container with the specified name.'),
    operator: s.enumOf(['In', 'NotIn'], 'Represents the relationship between the container exit code(s) and the specified values. Possible values are: In, NotIn.'),
    values: s.setOf(s.int32(), 'Specifies the set of values. Each returned container exit code (might be multiple in case of multiple containers) is checked against this set of values with respect to the operator.'),
  },
  { required: ['operator', 'values'], ref: ref('PodFailurePolicyOnExitCodesRequirement') },
);

const onPodConditionsPatternSchema: Schema = s.object(
  {
    type: s.string('Specifies the required Pod condition type.'),
    status: s.string('Specifies the required Pod condition status. Defaults to True.'),
  },
  { required: ['type', 'status'], ref: ref('PodFailurePolicyOnPodConditionsPattern') },
);

const podFailurePolicyRuleSchema: Schema = s.object(
  {
    action: s.enumOf(['Count', 'FailIndex', 'FailJob', 'Ignore'], 'Specifies the action taken on a pod failure when the requirements are satisfied. Possible values are: FailJob, FailIndex, Ignore, Count.'),
    onExitCodes: onExitCodesSchema,
    onPodConditions: s.atomicList(onPodConditionsPatternSchema, 'Represents the requirement on the pod conditions. The requirement is represented as a list of pod condition patterns.'),
  },
  { required: ['action'], ref: ref('PodFailurePolicyRule') },
);

export const podFailurePolicySchema: Schema = s.object(
  {
    rules: s.atomicList(podFailurePolicyRuleSchema, 'A list of pod failure policy rules. The rules are evaluated in order.'),
  },
  { required: ['rules'], description: 'PodFailurePolicy describes how failed pods influence the backoffLimit.', ref: ref('PodFailurePolicy') },
);

export const jobSpecSchema: Schema = s.object(
  {
    parallelism: s.int32('Specifies the maximum desired number of pods the job should run at any given time.'),
    completions: s.int32('Specifies the desired number of successfully finished pods the job should be run with.'),
    activeDeadlineSeconds: s.int64('Specifies the duration in seconds relative to the startTime that the job may be continuously active before the system tries to terminate it; value must be positive integer.'),
    podFailurePolicy: podFailurePolicySchema,
    backoffLimit: s.int32('Specifies the number of retries before marking this job failed. Defaults to 6'),
    backoffLimitPerIndex: s.int32('Specifies the limit for the number of retries within an index before marking this index as failed.'),
    maxFailedIndexes: s.int32('Specifies the maximal number of failed indexes before marking the Job as failed, when backoffLimitPerIndex is set.'),
    selector: { ...labelSelectorSchema, description: 'A label query over pods that should match the pod count.' },
    manualSelector: s.bool('manualSelector controls generation of pod labels and pod selectors.'),
    template: { ...podTemplateSpecSchema, description: 'Describes the pod that will be created when executing a job.' },
    ttlSecondsAfterFinished: s.int32('ttlSecondsAfterFinished limits the lifetime of a Job that has finished execution (either Complete or Failed).'),
    completionMode: s.enumOf(['Indexed', 'NonIndexed'], 'completionMode specifies how Pod completions are tracked. It can be `NonIndexed` (default) or `Indexed`.'),
    suspend: s.bool('suspend specifies whether the Job controller should create Pods or not.'),
    podReplacementPolicy: s.enumOf(['Failed', 'TerminatingOrFailed'], 'podReplacementPolicy specifies when to create replacement Pods. Possible values are: TerminatingOrFailed, Failed.'),
  },
  { required: ['template'], ref: ref('JobSpec') },
);

const jobConditionSchema: Schema = s.object(
  {
    type: s.string('Type of job condition, Complete or Failed.'),
    status: s.string('Status of the condition, one of True, False, Unknown.'),
    lastProbeTime: s.time('Last time the condition was checked.'),
    lastTransitionTime: s.time('Last time the condition transit from one status to another.'),
    reason: s.string("(brief) reason for the condition's last transition."),
    message: s.string('Human readable message indicating details about last transition.'),
  },
  { required: ['type', 'status'], ref: ref('JobCondition') },
);

export const jobStatusSchema: Schema = s.object(
  {
    conditions: s.array(jobConditionSchema, {
      listType: 'atomic',
      patchMergeKey: 'type',
      patchStrategy: 'merge',
      description: 'The latest available observations of an object\'s current state.',
    }),
    startTime: s.time('Represents time when the job controller started processing a job.'),
    completionTime: s.time('Represents time when the job was completed.'),
    active: s.int32('The number of pending and running pods.'),
    succeeded: s.int32('The number of pods which reached phase Succeeded.'),
    failed: s.int32('The number of pods which reached phase Failed.'),
    terminating: s.int32('The number of pods which are terminating (in phase Pending or Running and have a deletionTimestamp).'),
    completedIndexes: s.string('completedIndexes holds the completed indexes when .spec.completionMode = "Indexed" in a text format.'),
    failedIndexes: s.string('FailedIndexes holds the failed indexes when backoffLimitPerIndex=true.'),
    uncountedTerminatedPods: s.object(
      {
        succeeded: s.setOf(s.string(), 'succeeded holds UIDs of succeeded Pods.'),
        failed: s.setOf(s.string(), 'failed holds UIDs of failed Pods.'),
      },
      { ref: ref('UncountedTerminatedPods'), description: 'uncountedTerminatedPods holds the UIDs of Pods that have terminated but the job controller hasn\'t yet accounted for in the status counters.' },
    ),
    ready: s.int32('The number of pods which have a Ready condition.'),
  },
  { ref: ref('JobStatus') },
);

export const jobSchema: Schema = kindSchema(
  {
    spec: { ...jobSpecSchema, description: 'Specification of the desired behavior of a job.' },
    status: { ...jobStatusSchema, description: 'Current status of a job.' },
  },
  'Job represents the configuration of a single job.',
  { ref: ref('Job') },
);
