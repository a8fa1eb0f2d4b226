// ControllersHost runs the node simulator (and the controllers) inside the all-in-one process
// as clients of its own HTTPS API, exactly as separate processes would talk to the gateway.
// As kube-controller-manager with --use-service-account-credentials, the root credentials only
// elect the leader and obtain each controller's service-account token; every controller (and
// the node simulator) then talks to the API as its own service account.
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { controllerEnabled, parseFeatureGates, ServerFlags } from '@plinth/apiserver';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { ApiClient, ClientCredentials, LeaderElector, resyncPeriod } from '@plinth/client';
import { DaemonSetController, GarbageCollector, JobController, NamespaceController, NodeSimulator, ServiceAccountClients, TtlAfterFinishedController } from '@plinth/controller-manager';
import { realClock } from '@plinth/machinery';
import { SERVER_FLAGS } from '../apiserver/api-server.host';

// CONTROLLER_CREDENTIALS provides how the controllers reach the API: a function resolving to
// the server and credentials once the API serves (in the all-in-one, after it listens).
// controllerNames are the controllers a controller manager runs, by their Controllers-list names.
const controllerNames = ['namespace', 'garbagecollector', 'ttl-after-finished', 'daemonset', 'job'] as const;

// serviceAccounts names each controller's service account in kube-system, as Kubernetes does.
const serviceAccounts: Record<(typeof controllerNames)[number], string> = {
  namespace: 'namespace-controller',
  garbagecollector: 'generic-garbage-collector',
  'ttl-after-finished': 'ttl-after-finished-controller',
  daemonset: 'daemon-set-controller',
  job: 'job-controller',
};
const nodeSimulatorServiceAccount = 'node-simulator';

export const CONTROLLER_CREDENTIALS = Symbol('ControllerCredentials');
export type ControllerCredentials = () => Promise<ClientCredentials>;

@Injectable()
export class ControllersHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('controllers');
  private client: ApiClient | null = null;
  private identities: ServiceAccountClients | null = null;
  private simulator: NodeSimulator | null = null;
  private controllers: { stop(): Promise<void> }[] = [];
  private elector: LeaderElector | null = null;

  constructor(
    @Inject(SERVER_FLAGS) private readonly flags: ServerFlags,
    @Inject(CONTROLLER_CREDENTIALS) private readonly credentials: ControllerCredentials,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // kube-controller-manager is the field manager Kubernetes records for controller writes.
    const credentials = { ...(await this.credentials()), userAgent: 'kube-controller-manager/v1.28.0' };
    const onError = (err: unknown) => this.logger.warn((err as Error).message);
    this.client = new ApiClient(credentials);
    this.identities = new ServiceAccountClients(this.client, credentials, realClock, onError);
    if (this.flags.simulatedNodes > 0) {
      const kubelets = await this.identities.clientFor(nodeSimulatorServiceAccount);
      this.simulator = new NodeSimulator(kubelets, realClock, { nodes: this.flags.simulatedNodes, onError });
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
    const identities = this.identities as ServiceAccountClients;
    this.logger.log('leading: starting controllers');
    // Workers default as Kubernetes' Concurrent*Syncs do.
    const workers = (name: string, fallback: number) => this.flags.controllerWorkers[name] ?? fallback;
    // Each controller's informers resync every random(MinResyncPeriod, 2×MinResyncPeriod).
    const resync = resyncPeriod(this.flags.minResyncPeriodMs);
    const build: Record<(typeof controllerNames)[number], (client: ApiClient) => { start(): Promise<void>; stop(): Promise<void> }> = {
      namespace: (client) => new NamespaceController(client, realClock, { workers: workers('namespace', 10), resyncPeriodMs: this.flags.namespaceSyncPeriodMs, onError }),
      garbagecollector: (client) => new GarbageCollector(client, realClock, workers('garbagecollector', 20), onError),
      'ttl-after-finished': (client) => new TtlAfterFinishedController(client, realClock, workers('ttl-after-finished', 5), onError, resync()),
      daemonset: (client) => new DaemonSetController(client, realClock, workers('daemonset', 2), onError, resync()),
      job: (client) => new JobController(client, realClock, parseFeatureGates(this.flags.featureGates), workers('job', 5), onError, resync()),
    };
    for (const name of controllerNames) {
      if (!controllerEnabled(name, this.flags.controllers)) continue;
      const controller = build[name](await identities.clientFor(serviceAccounts[name]));
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
    this.identities?.stop();
    this.client?.close();
  }
}
