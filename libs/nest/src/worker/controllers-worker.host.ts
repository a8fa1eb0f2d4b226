// ControllersWorkerHost runs the all-in-one's controller manager (its controllers and the node
// simulator) on a worker thread, as kube-controller-manager runs beside kube-apiserver in a
// process of its own, so that the controllers' informers parse what the server writes on
// another core than the one serving requests. The worker is an ordinary API client of the
// server, over HTTPS with the controller manager's credentials, as before. The host starts it
// before the API server starts, hands it the credentials once the API serves, supervises it (ThreadSupervisor: a crash is logged and
// restarted, or given up on, which gaveUp reports for the process to end), adds its metrics to
// the process's /metrics, and stops it while the server drains.
import { Worker } from 'node:worker_threads';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { ClientCredentials } from '@plinth/client';
import { realClock } from '@plinth/machinery';
import { defaultRegistry, FamilySnapshot } from '@plinth/metrics';
import { RestartPolicy, RestartPolicyOptions } from './restart-policy';
import { ThreadSupervisor } from './thread-supervisor';

// CONTROLLERS_WORKER provides where the worker's code is and the data it starts with.
export const CONTROLLERS_WORKER = Symbol('ControllersWorker');

export interface ControllersWorker {
  // entry is the worker's module (its .ts source under tools/register.js, its .js when built).
  entry: string;
  // data is the worker's workerData (the controller manager's flags), with `credentials` added.
  data: Record<string, unknown>;
  // credentials resolve to the controllers' credentials once the API serves: a worker started
  // before gets them as a request (CredentialsRequest), one started after in its workerData.
  credentials: () => Promise<ClientCredentials>;
  // restartPolicy is defaultRestartPolicy unless given.
  restartPolicy?: RestartPolicyOptions;
}

// metricsRequest is what the worker answers with its registry's families.
export const metricsRequest = 'metrics';

// loadedRequest is what the worker answers (true) once its modules are loaded.
export const loadedRequest = 'loaded';

// CredentialsRequest hands a worker that started before the API served its credentials.
export interface CredentialsRequest {
  credentials: ClientCredentials;
}

// stopTimeoutMs is how long a stopping worker has before it is terminated.
const stopTimeoutMs = 15_000;
// metricsTimeoutMs bounds a scrape's wait for the worker's families.
const metricsTimeoutMs = 2_000;
// loadTimeoutMs bounds the wait for the worker to load before the API server starts anyway.
const loadTimeoutMs = 60_000;

@Injectable()
export class ControllersWorkerHost implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('controllers');
  private supervisor: ThreadSupervisor | null = null;
  private removeMetrics: () => void = () => undefined;
  private credentials: ClientCredentials | null = null;
  // gaveUp resolves with what ended the worker when its supervisor gave up on it.
  readonly gaveUp: Promise<string>;
  private giveUp: (reason: string) => void = () => undefined;

  constructor(@Inject(CONTROLLERS_WORKER) private readonly worker: ControllersWorker) {
    this.gaveUp = new Promise((resolve) => (this.giveUp = resolve));
  }

  // onModuleInit starts the worker and waits until it has loaded its modules (it answers
  // loadedRequest once it listens), before any host's bootstrap: the API server then starts, and
  // once it serves the controllers start at once, as they did on one thread.
  async onModuleInit(): Promise<void> {
    const { entry, data } = this.worker;
    const supervisor = new ThreadSupervisor({
      name: 'controller manager',
      // The entry is required from evaluated code so that the hooks preloaded with -r (which
      // a worker inherits) compile it when it is TypeScript.
      start: () => new Worker('require(require("node:worker_threads").workerData.entry)', { eval: true, workerData: { ...data, entry, credentials: this.credentials } }),
      clock: realClock,
      log: { log: (line) => this.logger.log(line), error: (line) => this.logger.error(line) },
      policy: new RestartPolicy(this.worker.restartPolicy),
      stopTimeoutMs,
      onGiveUp: (reason) => this.giveUp(reason),
    });
    this.supervisor = supervisor;
    this.removeMetrics = defaultRegistry().addSource(async () => (await supervisor.request<FamilySnapshot[]>(metricsRequest, metricsTimeoutMs)) ?? []);
    supervisor.start();
    await supervisor.request(loadedRequest, loadTimeoutMs);
  }

  // onApplicationBootstrap hands the worker its credentials once the API serves (a worker
  // restarted later finds them in its workerData).
  async onApplicationBootstrap(): Promise<void> {
    const credentials = await this.worker.credentials();
    this.credentials = credentials;
    void this.supervisor?.request({ credentials } satisfies CredentialsRequest, stopTimeoutMs);
  }

  // beforeApplicationShutdown stops the worker while the API server drains (both hosts' hooks
  // run together): the controllers end their own watches and requests, rather than having the
  // server cut them once it stops.
  async beforeApplicationShutdown(): Promise<void> {
    await this.supervisor?.stop();
  }

  onApplicationShutdown(): void {
    this.removeMetrics();
  }
}
