// TtlAfterFinishedController deletes finished Jobs once spec.ttlSecondsAfterFinished has passed
// since they finished (decideTtl of @plinth/controllers), with foreground propagation and a uid
// precondition, as Kubernetes' ttlafterfinished controller does. Finalizers on the Job still
// hold its deletion.
import { KubeObject } from '@plinth/api';
import { ApiClient, Informer, objectKey, resourcePath } from '@plinth/client';
import { decideTtl, expiresAt } from '@plinth/controllers';
import { Clock } from '@plinth/machinery';
import { Controller, ControllerOptions, ControllerRunner, tolerating } from './controller-runner';

export type TtlAfterFinishedControllerOptions = ControllerOptions;

const jobsPath = resourcePath({ group: 'batch', version: 'v1', resource: 'jobs' });

export class TtlAfterFinishedController implements Controller {
  private readonly runner: ControllerRunner;
  private readonly jobs: Informer;

  constructor(
    private readonly client: ApiClient,
    private readonly clock: Clock,
    options: TtlAfterFinishedControllerOptions = {},
  ) {
    const runner = (this.runner = new ControllerRunner(client, clock, { queue: { name: 'ttl_jobs_to_delete' }, workers: options.workers ?? 5, onError: options.onError }));
    const enqueue = runner.enqueue((job: KubeObject) => (expiresAt(job) !== null ? objectKey(job) : null));
    this.jobs = runner.watch(jobsPath, { onAdd: enqueue, onUpdate: enqueue }, { resyncPeriodMs: options.resyncPeriodMs });
  }

  start(): Promise<void> {
    return this.runner.run((key) => this.sync(key));
  }

  stop(): Promise<void> {
    return this.runner.stop();
  }

  private async sync(key: string): Promise<void> {
    const job = this.jobs.get(key);
    if (!job) return;
    const decision = decideTtl(job, this.clock.now());
    if (decision.action === 'wait') this.runner.queue.addAfter(key, decision.afterMs);
    if (decision.action !== 'delete') return;
    const path = resourcePath({ group: 'batch', version: 'v1', resource: 'jobs', namespace: job.metadata.namespace, name: job.metadata.name });
    await tolerating(this.client.delete(path, { propagationPolicy: 'Foreground', preconditions: { uid: job.metadata.uid } }), [404, 409]);
  }
}
