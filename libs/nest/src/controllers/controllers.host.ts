// ControllersHost runs the node simulator (and the controllers) inside the all-in-one process
// as clients of its own HTTPS API, exactly as separate processes would talk to the gateway.
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { controllerEnabled, parseFeatureGates, ServerFlags } from '@plinth/apiserver';
import { ApiClient, ClientCredentials } from '@plinth/client';
import { DaemonSetController, GarbageCollector, JobController, NodeSimulator, TtlAfterFinishedController } from '@plinth/controller-manager';
import { realClock } from '@plinth/machinery';
import { SERVER_FLAGS } from '../apiserver/api-server.host';

// CONTROLLER_CREDENTIALS provides how the controllers reach the API: a function resolving to
// the server and credentials once the API serves (in the all-in-one, after it listens).
export const CONTROLLER_CREDENTIALS = Symbol('ControllerCredentials');
export type ControllerCredentials = () => Promise<ClientCredentials>;

@Injectable()
export class ControllersHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('controllers');
  private client: ApiClient | null = null;
  private simulator: NodeSimulator | null = null;
  private controllers: { stop(): Promise<void> }[] = [];

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
    // Workers default as Kubernetes' Concurrent*Syncs do.
    const workers = (name: string, fallback: number) => this.flags.controllerWorkers[name] ?? fallback;
    const gc = new GarbageCollector(this.client, realClock, workers('garbagecollector', 20), onError);
    const ttl = new TtlAfterFinishedController(this.client, realClock, workers('ttl-after-finished', 5), onError);
    const daemonSets = new DaemonSetController(this.client, realClock, workers('daemonset', 2), onError);
    const jobs = new JobController(this.client, realClock, parseFeatureGates(this.flags.featureGates), workers('job', 5), onError);
    for (const [name, controller] of [['garbagecollector', gc], ['ttl-after-finished', ttl], ['daemonset', daemonSets], ['job', jobs]] as const) {
      if (!controllerEnabled(name, this.flags.controllers)) continue;
      await controller.start();
      this.controllers.push(controller);
      this.logger.log(`${name} controller running`);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.controllers.map((c) => c.stop()));
    await this.simulator?.stop();
    this.client?.close();
  }
}
