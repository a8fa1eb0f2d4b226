// ControllerRunner is the one shell every controller runs in, as client-go's shared informers,
// rate-limited work queue and `wait.Until(worker)` loops are for kube-controller-manager's: it
// owns the controller's informers, its keyed work queue, its workers and their shutdown. A
// controller only says what it watches, which keys a change enqueues, and how one key is synced
// (from a pure decision function of @plinth/controllers).
import { KubeObject } from '@plinth/api';
import { ApiClient, Informer, InformerHandlers, runWorkers, WorkQueue, WorkQueueOptions } from '@plinth/client';
import { Clock, isStatusError } from '@plinth/machinery';

// Controller is what the manager starts and stops.
export interface Controller {
  // start returns once the informers have synced and the workers run.
  start(): Promise<void>;
  // stop shuts the queue down, stops the informers and waits for the workers to finish.
  stop(): Promise<void>;
}

// ControllerOptions are the settings every controller takes, in its own options object.
export interface ControllerOptions {
  // workers is how many keys are synced at once (the controller's Concurrent*Syncs).
  workers?: number;
  // resyncPeriodMs re-delivers every object of the primary informer each period (0: never).
  resyncPeriodMs?: number;
  onError?: (err: unknown) => void;
}

export interface ControllerRunnerOptions {
  // queue names the work queue (its metrics' name) and may tune its back-off.
  queue: WorkQueueOptions & { name: string };
  workers: number;
  onError?: (err: unknown) => void;
}

export interface WatchOptions {
  resyncPeriodMs?: number;
  // client lists and watches instead of the runner's client (shared informers that run with
  // the controller manager's own credentials).
  client?: ApiClient;
  // transform makes what the informer keeps of each object (Informer's transform).
  transform?: (object: KubeObject) => KubeObject;
}

export class ControllerRunner {
  readonly queue: WorkQueue;
  readonly onError: (err: unknown) => void;
  private readonly informers: Informer[] = [];
  private running: Promise<void> | null = null;

  constructor(
    private readonly client: ApiClient,
    private readonly clock: Clock,
    private readonly options: ControllerRunnerOptions,
  ) {
    this.onError = options.onError ?? (() => undefined);
    this.queue = new WorkQueue(clock, options.queue);
  }

  // watch adds an informer on a collection path, with the handlers that enqueue keys.
  watch(path: string, handlers: InformerHandlers, options: WatchOptions = {}): Informer {
    const informer = new Informer(options.client ?? this.client, path, this.clock, {}, this.onError, options.resyncPeriodMs ?? 0, options.transform);
    informer.addHandlers(handlers);
    this.informers.push(informer);
    return informer;
  }

  // run starts the informers, waits until each has listed, then runs the workers on sync; a
  // failed sync is logged through onError and retried with back-off.
  async run(sync: (key: string) => Promise<void>): Promise<void> {
    for (const informer of this.informers) informer.start();
    await Promise.all(this.informers.map((i) => i.hasSynced()));
    this.running = runWorkers(this.queue, this.options.workers, sync, (_key, err) => this.onError(err));
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    for (const informer of this.informers) informer.stop();
    await this.running;
  }

  // enqueue is a handler that adds the key keyOf gives (none when it gives null).
  enqueue(keyOf: (object: KubeObject) => string | null): (object: KubeObject) => void {
    return (object) => {
      const key = keyOf(object);
      if (key !== null) this.queue.add(key);
    };
  }
}

// controllerOwnerKey is the namespace/name key of the object's controller of the given kind, or null.
export function controllerOwnerKey(object: KubeObject, kind: string): string | null {
  const owner = (object.metadata.ownerReferences ?? []).find((r) => r.controller && r.kind === kind);
  return owner ? `${object.metadata.namespace}/${owner.name}` : null;
}

// tolerating awaits an API call, taking the listed status codes as success (the object is gone,
// or someone else made the change first).
export async function tolerating(call: Promise<unknown>, codes: readonly number[]): Promise<void> {
  try {
    await call;
  } catch (err) {
    if (!(isStatusError(err) && codes.includes(err.code))) throw err;
  }
}
