// Realistic Job and Pod objects for the Job controller's specs, as the API server would return
// them (defaults applied, generated selector labels on the template).
import { rfc3339 } from '@plinth/machinery';
import { ContainerStatus, ControllerUidLabel, Job, JobCompletionIndexAnnotation, JobNameLabel, JobSpec, JobStatus, JobTrackingFinalizer, LegacyControllerUidLabel, LegacyJobNameLabel, Pod } from './types';

export const T0 = Date.UTC(2026, 0, 1);
export const jobUid = '0b3c5a4e-6d7f-4a1b-9c2d-3e4f5a6b7c8d';

export function newJob(spec: JobSpec = {}, status?: JobStatus, name = 'pi'): Job {
  const labels = { [ControllerUidLabel]: jobUid, [LegacyControllerUidLabel]: jobUid, [JobNameLabel]: name, [LegacyJobNameLabel]: name };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default', uid: jobUid, resourceVersion: '100', creationTimestamp: rfc3339(T0) },
    spec: {
      parallelism: 1,
      completions: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
      selector: { matchLabels: { [ControllerUidLabel]: jobUid } },
      template: {
        metadata: { labels },
        spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'perl:5.34.0', command: ['perl', '-e', 'exit 0'] }] },
      },
      ...spec,
    },
    ...(status ? { status } : {}),
  };
}

let counter = 0;

export interface PodOptions {
  phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed';
  index?: number;
  ready?: boolean;
  finalizer?: boolean;
  deleting?: boolean;
  exitCode?: number;
  container?: string;
  finishedAt?: number;
  createdAt?: number;
  conditions?: { type: string; status: string }[];
  restarts?: number;
  name?: string;
}

export function newPod(job: Job, options: PodOptions = {}): Pod {
  counter++;
  const phase = options.phase ?? 'Running';
  const name = options.name ?? `${job.metadata.name}-${options.index !== undefined ? `${options.index}-` : ''}p${counter}`;
  const terminated = phase === 'Succeeded' || phase === 'Failed';
  const containerStatus: ContainerStatus = {
    name: options.container ?? 'main',
    restartCount: options.restarts ?? 0,
    state: terminated
      ? { terminated: { exitCode: options.exitCode ?? (phase === 'Succeeded' ? 0 : 1), finishedAt: rfc3339(options.finishedAt ?? T0 + 30_000) } }
      : { running: { startedAt: rfc3339(T0) } },
  };
  const conditions = [...(options.conditions ?? [])];
  if (options.ready !== undefined) conditions.push({ type: 'Ready', status: options.ready ? 'True' : 'False' });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      creationTimestamp: rfc3339(options.createdAt ?? T0),
      labels: { ...(job.spec?.template?.metadata?.labels ?? {}) },
      ...(options.index !== undefined ? { annotations: { [JobCompletionIndexAnnotation]: String(options.index) } } : {}),
      ...(options.finalizer === false ? {} : { finalizers: [JobTrackingFinalizer] }),
      ...(options.deleting ? { deletionTimestamp: rfc3339(T0 + 40_000) } : {}),
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: job.metadata.name ?? '', uid: jobUid, controller: true, blockOwnerDeletion: true }],
    },
    spec: { nodeName: 'node-1', restartPolicy: 'Never', containers: [{ name: 'main' }] },
    status: { phase, conditions, containerStatuses: [containerStatus] },
  };
}

// withoutFinalizer is the pod after the controller removed its tracking finalizer.
export function withoutFinalizer(pod: Pod): Pod {
  return { ...pod, metadata: { ...pod.metadata, finalizers: [] } };
}
