// ControllersHost runs the node simulator (and the controllers) inside the all-in-one process
// as clients of its own HTTPS API, exactly as separate processes would talk to the gateway.
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { controllerEnabled, parseFeatureGates, ServerFlags } from '@plinth/apiserver';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { ApiClient, ClientCredentials, LeaderElector } from '@plinth/client';
import { DaemonSetController, GarbageCollector, JobController, NodeSimulator, TtlAfterFinishedController } from '@plinth/controller-manager';
import { realClock } from '@plinth/machinery';
import { SERVER_FLAGS } from '../apiserver/api-server.host';

// CONTROLLER_CREDENTIALS provides how the controllers reach the API: a function resolving to
// the server and credentials once the API serves (in the all-in-one, after it listens).
// controllerNames are the controllers a controller manager runs, by their Controllers-list names.
const controllerNames = ['garbagecollector', 'ttl-after-finished', 'daemonset', 'job'] as const;

export const CONTROLLER_CREDENTIALS = Symbol('ControllerCredentials');
export type ControllerCredentials = () => Promise<ClientCredentials>;

@Injectable()
export class ControllersHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('controllers');
  private client: ApiClient | null = null;
  private simulator: NodeSimulator | null = null;
  private controllers: { stop(): Promise<void> }[] = [];
  private elector: LeaderElector | null = null;

  constructor(
    @Inject(SERVER_FLAGS) private readonly flags: ServerFlags,
    @Inject(CONTROLLER_CREDENTIALS) private readonly credentials: ControllerCredentials,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // kube-controller-manager is the field manager Kubernetes records for controller writes.
    this.client = new ApiClient({ ...(await this.credentials()), userAgent: 'kube-controller-manager/v1.28.0' });
    const onError = (err: unknown) => this.logger.warn((err as Error).message);
    if (this.flags.simulatedNodes > 0) {
      this.simulator = new NodeSimulator(this.client, realClock, { nodes: this.flags.simulatedNodes, onError });
      await this.simulator.start();
      this.logger.log(`node simulator running ${this.flags.simulatedNodes} nodes`);
    }
    // One active controller manager at a time, through the kube-controller-manager Lease; the
    // node simulator (kubelets) runs in every instance. An instance with every controller
    // turned off does not stand for election.
    if (!controllerNames.some((name) => controllerEnabled(name, this.flags.controllers))) return;
    this.elector = new LeaderElector(this.client, realClock, {
      namespace: 'kube-system',
      name: 'kube-controller-manager',
      identity: `${hostname()}_${randomUUID()}`,
      onStartedLeading: () => this.startControllers(onError),
      onStoppedLeading: () => this.stopControllers(),
      onError,
    });
    this.elector.start();
  }

  private async startControllers(onError: (err: unknown) => void): Promise<void> {
    const client = this.client as ApiClient;
    this.logger.log('leading: starting controllers');
    // Workers default as Kubernetes' Concurrent*Syncs do.
    const workers = (name: string, fallback: number) => this.flags.controllerWorkers[name] ?? fallback;
    const gc = new GarbageCollector(client, realClock, workers('garbagecollector', 20), onError);
    const ttl = new TtlAfterFinishedController(client, realClock, workers('ttl-after-finished', 5), onError);
    const daemonSets = new DaemonSetController(client, realClock, workers('daemonset', 2), onError);
    const jobs = new JobController(client, realClock, parseFeatureGates(this.flags.featureGates), workers('job', 5), onError);
    const all = { garbagecollector: gc, 'ttl-after-finished': ttl, daemonset: daemonSets, job: jobs };
    for (const name of controllerNames) {
      const controller = all[name];
      if (!controllerEnabled(name, this.flags.controllers)) continue;
      await controller.start();
      this.controllers.push(controller);
      this.logger.log(`${name} controller running`);
    }
  }

  private async stopControllers(): Promise<void> {
    await Promise.all(this.controllers.map((c) => c.stop()));
    this.controllers = [];
  }

  async onApplicationShutdown(): Promise<void> {
    await this.elector?.stop();
    await this.stopControllers();
    await this.simulator?.stop();
    this.client?.close();
  }
}
