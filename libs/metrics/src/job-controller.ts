// kube-controller-manager's Job controller sync metrics (pkg/controller/job/metrics):
// job_controller_job_sync_duration_seconds and job_controller_job_syncs_total by the Job's
// completion_mode, the sync's result (success, error) and its action (reconciling,
// pods_created, pods_deleted).
import { Counter, exponentialBuckets, Histogram, Registry } from './registry';

export type JobSyncResult = 'success' | 'error';
export type JobSyncAction = 'reconciling' | 'pods_created' | 'pods_deleted';

export interface JobSyncMetrics {
  observe(completionMode: string, result: JobSyncResult, action: JobSyncAction, seconds: number): void;
}

export function jobSyncMetrics(registry: Registry): JobSyncMetrics {
  const labelNames = ['completion_mode', 'result', 'action'];
  const duration = registry.shared(
    new Histogram({ name: 'job_controller_job_sync_duration_seconds', help: '[STABLE] The time it took to sync a job', labelNames, buckets: exponentialBuckets(0.004, 2, 15) }),
  );
  const syncs = registry.shared(new Counter({ name: 'job_controller_job_syncs_total', help: '[STABLE] The number of job syncs', labelNames }));
  return {
    observe(completionMode, result, action, seconds) {
      duration.labels(completionMode, result, action).observe(seconds);
      syncs.labels(completionMode, result, action).inc();
    },
  };
}
