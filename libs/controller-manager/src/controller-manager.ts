// ControllerManager is kube-controller-manager as plain TypeScript: it runs the node simulator
// (and the controllers) as clients of the API, exactly as separate processes would talk to the
// gateway. As kube-controller-manager with --use-service-account-credentials, the root
// credentials only elect the leader and obtain each controller's service-account token; every
// controller (and the node simulator) then talks to the API as its own service account.
// One instance leads at a time, through the kube-controller-manager Lease. With leader migration
// (a LeaderMigrationConfiguration), the leader also contends for the migration Lease once its
// main controllers run, and runs the controllers migrating to this component only while it
// holds that one too; controllers migrating to another component do not run here.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { ApiClient, ClientCredentials, LeaderElector, resyncPeriod } from '@plinth/client';
import { controllerEnabled, LeaderElectionSettings } from '@plinth/config';
import { Clock, LinkState, realClock, retryUntilDone } from '@plinth/machinery';
import { defaultRegistry, leaderElectionStatus } from '@plinth/metrics';
import { Controller } from './controller-runner';
import { DaemonSetController } from './daemonset-controller';
import { GarbageCollector } from './garbage-collector';
import { JobController } from './job-controller';
import { FilterResult, kubeControllerManagerComponent, LeaderMigrationConfig, migrationFilter } from './leader-migration';
import { NamespaceController } from './namespace-controller';
import { NodeSimulator } from './node-simulator';
import { ServiceAccountClients } from './service-account-clients';
import { ServiceAccountsController } from './service-account-controller';
import { TtlAfterFinishedController } from './ttl-after-finished';

// controllerNames are the controllers a controller manager runs, by their Controllers-list names.
export const controllerNames = ['namespace', 'serviceaccount', 'garbagecollector', 'ttl-after-finished', 'daemonset', 'job'] as const;
export type ControllerName = (typeof controllerNames)[number];

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

// ControllerManagerSettings are kube-controller-manager's settings Plinth reads (from its flags
// and configuration document).
export interface ControllerManagerSettings {
  // controllers is the Controllers list: `*` all, `foo` enables, `-foo` disables.
  controllers: readonly string[];
  // controllerWorkers sets each controller's workers (Concurrent*Syncs); a controller not named
  // keeps its default.
  controllerWorkers: Readonly<Record<string, number>>;
  // minResyncPeriodMs: informers resync every random(MinResyncPeriod, 2×MinResyncPeriod).
  minResyncPeriodMs: number;
  // namespaceSyncPeriodMs is NamespaceController.NamespaceSyncPeriod.
  namespaceSyncPeriodMs: number;
  leaderElection: LeaderElectionSettings;
  // simulatedNodes is how many nodes the node simulator registers (0: no simulator).
  simulatedNodes: number;
  featureGates: ReadonlyMap<string, boolean>;
}

export interface ControllerManagerLog {
  log(line: string): void;
  warn(line: string): void;
}

export interface ControllerManagerOptions {
  // credentials resolve to the server and the manager's own credentials once the API serves.
  credentials: () => Promise<ClientCredentials>;
  settings: ControllerManagerSettings;
  // migration is the LeaderMigrationConfiguration when leader migration is enabled.
  migration?: LeaderMigrationConfig | null;
  log: ControllerManagerLog;
  clock?: Clock;
}

export class ControllerManager {
  private client: ApiClient | null = null;
  private identities: ServiceAccountClients | null = null;
  private simulator: NodeSimulator | null = null;
  private readonly controllers = new Map<ControllerName, Controller>();
  private elector: LeaderElector | null = null;
  private migrationElector: LeaderElector | null = null;
  readonly identity = `${hostname()}_${randomUUID()}`;
  private readonly onError: (err: unknown) => void;
  private readonly clock: Clock;
  private stopped = false;
  // apiServer is the link to the API server, which may start after this process.
  private readonly apiServer: LinkState;

  constructor(private readonly options: ControllerManagerOptions) {
    this.clock = options.clock ?? realClock;
    this.onError = (err: unknown) => options.log.warn((err as Error).message);
    this.apiServer = new LinkState('the API server', (line) => options.log.warn(line));
  }

  private get settings(): ControllerManagerSettings {
    return this.options.settings;
  }

  // start runs the node simulator, then stands for election (or starts the controllers at once
  // with leader election off); it returns once the simulator runs.
  async start(): Promise<void> {
    const { log } = this.options;
    // kube-controller-manager is the field manager Kubernetes records for controller writes.
    const credentials = { ...(await this.options.credentials()), userAgent: 'kube-controller-manager/v1.28.0' };
    this.client = new ApiClient(credentials);
    this.identities = new ServiceAccountClients(this.client, credentials, this.clock, this.onError);
    if (this.settings.simulatedNodes > 0 && !(await this.startSimulator(this.identities))) return;
    // One active controller manager at a time, through the kube-controller-manager Lease; the
    // node simulator (kubelets) runs in every instance. An instance with every controller
    // turned off does not stand for election.
    if (!controllerNames.some((name) => controllerEnabled(name, this.settings.controllers))) return;
    log.log(`identity ${this.identity}`);
    const election = this.settings.leaderElection;
    if (!election.leaderElect) {
      // --leader-elect=false: this instance runs its controllers without a Lease.
      await this.startMain();
      return;
    }
    // leader_election_master_status reports whether this instance leads (client-go's metric).
    const leading = leaderElectionStatus(defaultRegistry(), election.resourceName);
    leading.set(0);
    this.elector = new LeaderElector(this.client, this.clock, {
      namespace: election.resourceNamespace,
      name: election.resourceName,
      leaseDurationMs: election.leaseDurationMs,
      renewDeadlineMs: election.renewDeadlineMs,
      retryPeriodMs: election.retryPeriodMs,
      identity: this.identity,
      onStartedLeading: () => {
        leading.set(1);
        return this.startMain();
      },
      onStoppedLeading: () => {
        leading.set(0);
        return this.stopMain();
      },
      onError: this.onError,
    });
    this.elector.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.elector?.stop();
    await this.stopMain();
    await this.simulator?.stop();
    this.identities?.stop();
    this.client?.close();
  }

  // startSimulator starts the kubelets and the scheduler, which write under their own field
  // managers, as in a cluster. The API server may not serve yet: this waits for it, retrying
  // with backoff; false when stopped meanwhile.
  private async startSimulator(identities: ServiceAccountClients): Promise<boolean> {
    const waiting = { clock: this.clock, link: this.apiServer, stopped: () => this.stopped };
    const clients = await retryUntilDone(
      () =>
        Promise.all([
          identities.clientFor(nodeSimulatorServiceAccount, 'kubelet/v1.28.0 (linux/amd64) kubernetes/plinth'),
          identities.clientFor(nodeSimulatorServiceAccount, 'kube-scheduler/v1.28.0 (linux/amd64) kubernetes/plinth'),
        ]),
      waiting,
    );
    if (!clients) return false;
    const [kubelets, scheduler] = clients;
    const simulator = (this.simulator = new NodeSimulator(kubelets, this.clock, { nodes: this.settings.simulatedNodes, scheduler, onError: this.onError }));
    await retryUntilDone(() => simulator.start(), waiting);
    this.options.log.log(`node simulator running ${this.settings.simulatedNodes} nodes`);
    return true;
  }

  // lockOf says which lock a controller runs under.
  private lockOf(name: ControllerName): FilterResult {
    const migration = this.options.migration;
    return migration ? migrationFilter(migration, kubeControllerManagerComponent)(name) : 'NonMigrated';
  }

  private async startMain(): Promise<void> {
    const { log, migration } = this.options;
    log.log('leading: starting controllers');
    await this.startControllers(controllerNames.filter((name) => this.lockOf(name) === 'NonMigrated'));
    if (!migration) return;
    this.migrationElector = new LeaderElector(this.client as ApiClient, this.clock, {
      namespace: 'kube-system',
      name: migration.leaderName,
      identity: this.identity,
      onStartedLeading: async () => {
        log.log('leader migration: starting migrated controllers');
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

  // newController builds a controller with its options (workers default as Kubernetes'
  // Concurrent*Syncs do; informers resync every random(MinResyncPeriod, 2×MinResyncPeriod)).
  private newController(name: ControllerName, client: ApiClient): Controller {
    const { settings, clock, onError } = this;
    const workers = (fallback: number) => settings.controllerWorkers[name] ?? fallback;
    const resyncPeriodMs = resyncPeriod(settings.minResyncPeriodMs)();
    switch (name) {
      case 'namespace':
        return new NamespaceController(client, clock, { workers: workers(10), resyncPeriodMs: settings.namespaceSyncPeriodMs, onError });
      case 'serviceaccount':
        // One worker (no Concurrent*Syncs); its informers list and watch as the manager.
        return new ServiceAccountsController(client, clock, { informerClient: this.client as ApiClient, onError });
      case 'garbagecollector':
        return new GarbageCollector(client, clock, { workers: workers(20), onError });
      case 'ttl-after-finished':
        return new TtlAfterFinishedController(client, clock, { workers: workers(5), onError, resyncPeriodMs });
      case 'daemonset':
        return new DaemonSetController(client, clock, { workers: workers(2), onError, resyncPeriodMs });
      case 'job':
        return new JobController(client, clock, { featureGates: settings.featureGates, workers: workers(5), onError, resyncPeriodMs });
    }
  }

  private async startControllers(names: ControllerName[]): Promise<void> {
    const identities = this.identities as ServiceAccountClients;
    for (const name of names) {
      if (!controllerEnabled(name, this.settings.controllers) || this.controllers.has(name)) continue;
      const controller = this.newController(name, await identities.clientFor(serviceAccounts[name]));
      await controller.start();
      this.controllers.set(name, controller);
      this.options.log.log(`${name} controller running`);
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
}
