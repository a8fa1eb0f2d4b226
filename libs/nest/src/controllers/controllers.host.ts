// ControllersHost runs the node simulator (and the controllers) inside the all-in-one process
// as clients of its own HTTPS API, exactly as separate processes would talk to the gateway.
// As kube-controller-manager with --use-service-account-credentials, the root credentials only
// elect the leader and obtain each controller's service-account token; every controller (and
// the node simulator) then talks to the API as its own service account.
// One instance leads at a time, through the kube-controller-manager Lease. With leader migration
// (a LeaderMigrationConfiguration), the leader also contends for the migration Lease once its
// main controllers run, and runs the controllers migrating to this component only while it
// holds that one too; controllers migrating to another component do not run here.
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { controllerEnabled, parseFeatureGates, ServerFlags } from '@plinth/apiserver';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { ApiClient, ClientCredentials, LeaderElector, resyncPeriod } from '@plinth/client';
import {
  DaemonSetController,
  FilterResult,
  GarbageCollector,
  JobController,
  kubeControllerManagerComponent,
  LeaderMigrationConfig,
  migrationFilter,
  NamespaceController,
  NodeSimulator,
  ServiceAccountClients,
  ServiceAccountsController,
  TtlAfterFinishedController,
} from '@plinth/controller-manager';
import { LinkState, realClock, retryUntilDone } from '@plinth/machinery';
import { SERVER_FLAGS } from '../apiserver/api-server.host';

// CONTROLLER_CREDENTIALS provides how the controllers reach the API: a function resolving to
// the server and credentials once the API serves (in the all-in-one, after it listens).
// controllerNames are the controllers a controller manager runs, by their Controllers-list names.
const controllerNames = ['namespace', 'serviceaccount', 'garbagecollector', 'ttl-after-finished', 'daemonset', 'job'] as const;
type ControllerName = (typeof controllerNames)[number];

// serviceAccounts names each controller's service account in kube-system, as Kubernetes does.
const serviceAccounts: Record<ControllerName, string> = {
  namespace: 'namespace-controller',
  serviceaccount: 'service-account-controller',
  garbagecollector: 'generic-garbage-collector',
  'ttl-after-finished': 'ttl-after-finished-controller',
  daemonset: 'daemon-set-controller',
  job: 'job-controller',
};
const nodeSimulatorServiceAccount = 'node-simulator';

export const CONTROLLER_CREDENTIALS = Symbol('ControllerCredentials');
export type ControllerCredentials = () => Promise<ClientCredentials>;

// LEADER_MIGRATION provides the LeaderMigrationConfiguration when leader migration is enabled
// (absent or null: no migration).
export const LEADER_MIGRATION = Symbol('LeaderMigration');

interface Controller {
  stop(): Promise<void>;
}

@Injectable()
export class ControllersHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('controllers');
  private client: ApiClient | null = null;
  private identities: ServiceAccountClients | null = null;
  private simulator: NodeSimulator | null = null;
  private readonly controllers = new Map<ControllerName, Controller>();
  private elector: LeaderElector | null = null;
  private migrationElector: LeaderElector | null = null;
  private readonly identity = `${hostname()}_${randomUUID()}`;
  private onError: (err: unknown) => void = () => undefined;
  private stopped = false;
  // apiServer is the link to the API server, which may start after this process.
  private readonly apiServer = new LinkState('the API server', (line) => this.logger.warn(line));

  constructor(
    @Inject(SERVER_FLAGS) private readonly flags: ServerFlags,
    @Inject(CONTROLLER_CREDENTIALS) private readonly credentials: ControllerCredentials,
    @Optional() @Inject(LEADER_MIGRATION) private readonly migration: LeaderMigrationConfig | null = null,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // kube-controller-manager is the field manager Kubernetes records for controller writes.
    const credentials = { ...(await this.credentials()), userAgent: 'kube-controller-manager/v1.28.0' };
    const onError = (this.onError = (err: unknown) => this.logger.warn((err as Error).message));
    this.client = new ApiClient(credentials);
    this.identities = new ServiceAccountClients(this.client, credentials, realClock, onError);
    if (this.flags.simulatedNodes > 0) {
      // The kubelets and the scheduler write under their own field managers, as in a cluster.
      // The API server may not serve yet: this waits for it, retrying with backoff.
      const identities = this.identities;
      const waiting = { clock: realClock, link: this.apiServer, stopped: () => this.stopped };
      const clients = await retryUntilDone(
        () =>
          Promise.all([
            identities.clientFor(nodeSimulatorServiceAccount, 'kubelet/v1.28.0 (linux/amd64) kubernetes/plinth'),
            identities.clientFor(nodeSimulatorServiceAccount, 'kube-scheduler/v1.28.0 (linux/amd64) kubernetes/plinth'),
          ]),
        waiting,
      );
      if (!clients) return;
      const [kubelets, scheduler] = clients;
      const simulator = (this.simulator = new NodeSimulator(kubelets, realClock, { nodes: this.flags.simulatedNodes, scheduler, onError }));
      await retryUntilDone(() => simulator.start(), waiting);
      this.logger.log(`node simulator running ${this.flags.simulatedNodes} nodes`);
    }
    // One active controller manager at a time, through the kube-controller-manager Lease; the
    // node simulator (kubelets) runs in every instance. An instance with every controller
    // turned off does not stand for election.
    if (!controllerNames.some((name) => controllerEnabled(name, this.flags.controllers))) return;
    this.logger.log(`identity ${this.identity}`);
    const election = this.flags.leaderElection;
    if (!election.leaderElect) {
      // --leader-elect=false: this instance runs its controllers without a Lease.
      await this.startMain();
      return;
    }
    this.elector = new LeaderElector(this.client, realClock, {
      namespace: election.resourceNamespace,
      name: election.resourceName,
      leaseDurationMs: election.leaseDurationMs,
      renewDeadlineMs: election.renewDeadlineMs,
      retryPeriodMs: election.retryPeriodMs,
      identity: this.identity,
      onStartedLeading: () => this.startMain(),
      onStoppedLeading: () => this.stopMain(),
      onError,
    });
    this.elector.start();
  }

  // lockOf says which lock a controller runs under.
  private lockOf(name: ControllerName): FilterResult {
    return this.migration ? migrationFilter(this.migration, kubeControllerManagerComponent)(name) : 'NonMigrated';
  }

  private async startMain(): Promise<void> {
    this.logger.log('leading: starting controllers');
    await this.startControllers(controllerNames.filter((name) => this.lockOf(name) === 'NonMigrated'));
    if (!this.migration) return;
    this.migrationElector = new LeaderElector(this.client as ApiClient, realClock, {
      namespace: 'kube-system',
      name: this.migration.leaderName,
      identity: this.identity,
      onStartedLeading: async () => {
        this.logger.log('leader migration: starting migrated controllers');
        await this.startControllers(controllerNames.filter((name) => this.lockOf(name) === 'Migrated'));
      },
      onStoppedLeading: () => this.stopControllers(controllerNames.filter((name) => this.lockOf(name) === 'Migrated')),
      onError: this.onError,
    });
    this.migrationElector.start();
  }

  private async stopMain(): Promise<void> {
    await this.migrationElector?.stop();
    this.migrationElector = null;
    await this.stopControllers([...controllerNames]);
  }

  private async startControllers(names: ControllerName[]): Promise<void> {
    const identities = this.identities as ServiceAccountClients;
    const onError = this.onError;
    // Workers default as Kubernetes' Concurrent*Syncs do.
    const workers = (name: string, fallback: number) => this.flags.controllerWorkers[name] ?? fallback;
    // Each controller's informers resync every random(MinResyncPeriod, 2×MinResyncPeriod).
    const resync = resyncPeriod(this.flags.minResyncPeriodMs);
    const build: Record<ControllerName, (client: ApiClient) => Controller & { start(): Promise<void> }> = {
      namespace: (client) => new NamespaceController(client, realClock, { workers: workers('namespace', 10), resyncPeriodMs: this.flags.namespaceSyncPeriodMs, onError }),
      // The service-account controller runs one worker (no Concurrent*Syncs), and its informers
      // list and watch as the controller manager.
      serviceaccount: (client) => new ServiceAccountsController(client, realClock, { informerClient: this.client as ApiClient, onError }),
      garbagecollector: (client) => new GarbageCollector(client, realClock, { workers: workers('garbagecollector', 20), onError }),
      'ttl-after-finished': (client) => new TtlAfterFinishedController(client, realClock, { workers: workers('ttl-after-finished', 5), onError, resyncPeriodMs: resync() }),
      daemonset: (client) => new DaemonSetController(client, realClock, { workers: workers('daemonset', 2), onError, resyncPeriodMs: resync() }),
      job: (client) => new JobController(client, realClock, { featureGates: parseFeatureGates(this.flags.featureGates), workers: workers('job', 5), onError, resyncPeriodMs: resync() }),
    };
    for (const name of names) {
      if (!controllerEnabled(name, this.flags.controllers) || this.controllers.has(name)) continue;
      const controller = build[name](await identities.clientFor(serviceAccounts[name]));
      await controller.start();
      this.controllers.set(name, controller);
      this.logger.log(`${name} controller running`);
    }
  }

  private async stopControllers(names: ControllerName[]): Promise<void> {
    const stopping = names.flatMap((name) => {
      const controller = this.controllers.get(name);
      this.controllers.delete(name);
      return controller ? [controller.stop()] : [];
    });
    await Promise.all(stopping);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.elector?.stop();
    await this.stopMain();
    await this.simulator?.stop();
    this.identities?.stop();
    this.client?.close();
  }
}
