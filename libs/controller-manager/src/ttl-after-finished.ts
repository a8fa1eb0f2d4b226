// TtlAfterFinishedController deletes finished Jobs once spec.ttlSecondsAfterFinished has passed
// since they finished (0: at once), with foreground propagation and a uid precondition, as
// Kubernetes' ttlafterfinished controller does. Finalizers on the Job still hold its deletion.
import { KubeObject } from '@plinth/api';
import { ApiClient, Informer, objectKey, resourcePath, runWorkers, WorkQueue } from '@plinth/client';
import { Clock, isStatusError } from '@plinth/machinery';

interface JobCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
}

// finishedAt is when a Job reached Complete or Failed, or null while it runs.
export function finishedAt(job: KubeObject): number | null {
  const conditions = ((job.status as { conditions?: JobCondition[] } | undefined)?.conditions ?? []).filter(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  );
  if (conditions.length === 0) return null;
  const times = conditions.map((c) => Date.parse(c.lastTransitionTime ?? '')).filter((t) => !Number.isNaN(t));
  return times.length ? Math.min(...times) : null;
}

// expiresAt is when a finished Job may be deleted, or null when it never expires (no TTL, not
// finished, or already being deleted).
export function expiresAt(job: KubeObject): number | null {
  const ttl = (job.spec as { ttlSecondsAfterFinished?: number } | undefined)?.ttlSecondsAfterFinished;
  if (ttl === undefined || ttl === null || job.metadata.deletionTimestamp) return null;
  const finished = finishedAt(job);
  return finished === null ? null : finished + ttl * 1000;
}

const jobsPath = resourcePath({ group: 'batch', version: 'v1', resource: 'jobs' });

export class TtlAfterFinishedController {
  private readonly jobs: Informer;
  private readonly queue: WorkQueue;
  private running: Promise<void> | null = null;

  constructor(
    private readonly client: ApiClient,
    private readonly clock: Clock,
    private readonly workers = 5,
    private readonly onError: (err: unknown) => void = () => undefined,
    // resyncPeriodMs re-delivers every Job each period (0: never).
    resyncPeriodMs = 0,
  ) {
    this.jobs = new Informer(client, jobsPath, clock, {}, onError, resyncPeriodMs);
    this.queue = new WorkQueue(clock, { name: 'ttl_jobs_to_delete' });
    const enqueue = (job: KubeObject) => {
      if (expiresAt(job) !== null) this.queue.add(objectKey(job));
    };
    this.jobs.addHandlers({ onAdd: enqueue, onUpdate: enqueue });
  }

  async start(): Promise<void> {
    this.jobs.start();
    await this.jobs.hasSynced();
    this.running = runWorkers(this.queue, this.workers, (key) => this.sync(key), (_k, err) => this.onError(err));
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    this.jobs.stop();
    await this.running;
  }

  private async sync(key: string): Promise<void> {
    const job = this.jobs.get(key);
    if (!job) return;
    const expires = expiresAt(job);
    if (expires === null) return;
    const wait = expires - this.clock.now();
    if (wait > 0) {
      this.queue.addAfter(key, wait);
      return;
    }
    const path = resourcePath({ group: 'batch', version: 'v1', resource: 'jobs', namespace: job.metadata.namespace, name: job.metadata.name });
    try {
      await this.client.delete(path, { propagationPolicy: 'Foreground', preconditions: { uid: job.metadata.uid } });
    } catch (err) {
      if (!(isStatusError(err) && (err.code === 404 || err.code === 409))) throw err;
    }
  }
}
