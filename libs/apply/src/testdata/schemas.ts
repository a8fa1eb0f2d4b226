// Job-like, Deployment-like and Pod-like kind schemas for the specs, built from the shared
// meta and core schemas the way libs/registry builds batch/v1 Job and apps/v1 DaemonSet.
import { kindSchema, labelSelectorSchema, podSpecSchema, podStatusSchema, podTemplateSpecSchema, s, Schema } from '@plinth/api';

export const jobSchema: Schema = kindSchema(
  {
    spec: s.object(
      {
        parallelism: s.int32(),
        completions: s.int32(),
        activeDeadlineSeconds: s.int64(),
        backoffLimit: s.int32(),
        selector: labelSelectorSchema,
        manualSelector: s.bool(),
        template: podTemplateSpecSchema,
        ttlSecondsAfterFinished: s.int32(),
        completionMode: s.string(),
        suspend: s.bool(),
      },
      { required: ['template'] },
    ),
    status: s.object({
      conditions: s.array(s.object({ type: s.string(), status: s.string(), reason: s.string() }), { listType: 'atomic', patchMergeKey: 'type', patchStrategy: 'merge' }),
      startTime: s.time(),
      active: s.int32(),
      succeeded: s.int32(),
      uncountedTerminatedPods: s.object({ succeeded: s.setOf(s.string()), failed: s.setOf(s.string()) }),
    }),
  },
  'Job represents the configuration of a single job.',
);

export const deploymentSchema: Schema = kindSchema(
  {
    spec: s.object(
      {
        replicas: s.int32(),
        selector: labelSelectorSchema,
        template: podTemplateSpecSchema,
        strategy: s.object({
          type: s.string(),
          rollingUpdate: s.object({ maxUnavailable: s.intOrString(), maxSurge: s.intOrString() }),
        }),
        minReadySeconds: s.int32(),
        revisionHistoryLimit: s.int32(),
        paused: s.bool(),
        progressDeadlineSeconds: s.int32(),
      },
      { required: ['selector', 'template'] },
    ),
    status: s.object({ replicas: s.int32(), readyReplicas: s.int32(), observedGeneration: s.int64() }),
  },
  'Deployment enables declarative updates for Pods and ReplicaSets.',
);

export const podSchema: Schema = kindSchema({ spec: podSpecSchema, status: podStatusSchema }, 'Pod is a collection of containers.');
