// The pods a Job creates, after manageJob and controller.GetPodFromTemplate (v1.28): the
// template with the Job's labels, the tracking finalizer, an owner reference and, for Indexed
// Jobs, the completion index as annotation (and label, with the PodIndexLabel gate, beta and on
// in 1.28), environment variable and hostname.
import { OwnerReference } from '@plinth/api';
import {
  Container,
  ControllerUidLabel,
  gateEnabled,
  Job,
  JobCompletionIndexAnnotation,
  JobNameLabel,
  JobTrackingFinalizer,
  LegacyControllerUidLabel,
  LegacyJobNameLabel,
  Pod,
} from './types';

export const JobCompletionIndexEnv = 'JOB_COMPLETION_INDEX';
// maxGenerateNameLength leaves room for the five random characters the server appends.
const maxGenerateNameLength = 58;

export function jobOwnerReference(job: Job): OwnerReference {
  return {
    apiVersion: job.apiVersion ?? 'batch/v1',
    kind: job.kind ?? 'Job',
    name: job.metadata.name ?? '',
    uid: job.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

// podGenerateName is `<job>-` or, with an index, `<job>-<index>-`, with the Job name cut so
// that the generated name stays a valid label.
export function podGenerateName(jobName: string, index?: number): string {
  const suffix = index === undefined ? '-' : `-${index}-`;
  return `${jobName.slice(0, Math.max(0, maxGenerateNameLength - suffix.length))}${suffix}`;
}

// withIndexEnv adds JOB_COMPLETION_INDEX, read from the index label when the pod carries it,
// from the annotation otherwise.
function withIndexEnv(container: Container, indexLabel: boolean): Container {
  const env = container.env ?? [];
  if (env.some((e) => e.name === JobCompletionIndexEnv)) return container;
  const fieldPath = `metadata.${indexLabel ? 'labels' : 'annotations'}['${JobCompletionIndexAnnotation}']`;
  return { ...container, env: [...env, { name: JobCompletionIndexEnv, valueFrom: { fieldRef: { fieldPath } } }] };
}

// podFromTemplate builds the pod to create; index is set for Indexed Jobs.
export function podFromTemplate(job: Job, index?: number, gates?: ReadonlyMap<string, boolean>): Pod {
  const template = structuredClone(job.spec?.template ?? {});
  const meta = template.metadata ?? {};
  const uid = job.metadata.uid ?? '';
  const name = job.metadata.name ?? '';
  // The Job strategy puts these labels on the template unless the selector is manual; they
  // are restated so that a pod always matches the generated selector.
  const labels: Record<string, string> = job.spec?.['manualSelector']
    ? { ...(meta.labels ?? {}) }
    : { ...(meta.labels ?? {}), [ControllerUidLabel]: uid, [LegacyControllerUidLabel]: uid, [JobNameLabel]: name, [LegacyJobNameLabel]: name };
  const annotations: Record<string, string> = { ...(meta.annotations ?? {}) };
  const finalizers = [...(meta.finalizers ?? [])];
  if (!finalizers.includes(JobTrackingFinalizer)) finalizers.push(JobTrackingFinalizer);
  const spec = { ...(template.spec ?? {}) };
  if (index !== undefined) {
    const indexLabel = gateEnabled(gates, 'PodIndexLabel');
    annotations[JobCompletionIndexAnnotation] = String(index);
    if (indexLabel) labels[JobCompletionIndexAnnotation] = String(index);
    spec.hostname = `${name}-${index}`;
    spec.containers = spec.containers?.map((c) => withIndexEnv(c, indexLabel));
    if (spec.initContainers) spec.initContainers = spec.initContainers.map((c) => withIndexEnv(c, indexLabel));
  }
  const metadata: Pod['metadata'] = {
    generateName: podGenerateName(name, index),
    namespace: job.metadata.namespace,
    labels,
    finalizers,
    ownerReferences: [jobOwnerReference(job)],
  };
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec };
}
