// The controller manager: `--kubeconfig FILE` (required) names the API to work against;
// `--config FILE` reads a PlatformControllerManagerConfiguration document (its Controllers list,
// Concurrent*Syncs, MinResyncPeriod, NamespaceSyncPeriod and leader migration); the flags
// override the file wherever it is named; `--enable-leader-migration` and `--leader-migration-config FILE`
// as kube-controller-manager's (enabled without a file: the default migration configuration);
// `--simulated-nodes N` and `--feature-gates` as the all-in-one.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { installLastResortLogging, withMetrics, withTracing } from '@plinth/nest';
import { startTracing } from '@plinth/telemetry';
import { readFileSync } from 'node:fs';
import {
  ControllerManagerFlags,
  controllerManagerFlagSet,
  controllerWorkers,
  defaultControllerManagerFlags,
  FlagError,
  flagSet,
  flagValues,
  ignoring,
  LeaderElectionConfiguration,
  LeaderElectionSettings,
  loadControllerManagerConfiguration,
  loadLeaderMigrationConfiguration,
  parseDuration,
  parseFlags,
} from '@plinth/config';
import { defaultLeaderMigrationConfiguration, LeaderMigrationConfig } from '@plinth/controller-manager';
import { ControllersModule } from './controllers.module';

// ProcessFlags are the flags about files: read first, since the flags override --config.
interface ProcessFlags {
  kubeconfig: string;
  config?: string;
  enableLeaderMigration?: boolean;
  leaderMigrationConfig?: string;
}

const processFlags = (flags: ProcessFlags) =>
  flagSet<ProcessFlags>(
    flags,
    {
      kubeconfig: (f, v) => (f.kubeconfig = v),
      config: (f, v) => (f.config = v),
      'enable-leader-migration': (f, v) => (f.enableLeaderMigration = flagValues.bool('enable-leader-migration', v)),
      'leader-migration-config': (f, v) => (f.leaderMigrationConfig = v),
    },
    ['enable-leader-migration'],
  );

// leaderElectionSettings reads the configuration document's Generic.LeaderElection (validated
// by the loader; a resourceLock other than leases is refused there).
function leaderElectionSettings(le: LeaderElectionConfiguration): LeaderElectionSettings {
  return {
    leaderElect: le.leaderElect,
    leaseDurationMs: parseDuration(le.leaseDuration),
    renewDeadlineMs: parseDuration(le.renewDeadline),
    retryPeriodMs: parseDuration(le.retryPeriod),
    resourceName: le.resourceName,
    resourceNamespace: le.resourceNamespace,
  };
}

// checkLeaderElection is ValidateLeaderElectionConfiguration over the flags' final values.
function checkLeaderElection(le: LeaderElectionSettings): void {
  if (!le.leaderElect) return;
  if (le.leaseDurationMs <= le.renewDeadlineMs) throw new FlagError('leaderElection.leaseDuration: Invalid value: LeaseDuration must be greater than RenewDeadline');
  if (le.renewDeadlineMs <= le.retryPeriodMs * 1.2) throw new FlagError('leaderElection.renewDeadline: Invalid value: renewDeadline must be greater than retryPeriod*JitterFactor');
  if (!le.resourceName) throw new FlagError('leaderElection.resourceName: Required value: resourceName is required');
}

function fail(message: string): never {
  console.error(`Error: ${message}`);
  process.exit(2);
}

// fromConfigFile reads the configuration document's settings over the flags' defaults.
function fromConfigFile(path: string): { defaults: ControllerManagerFlags; migrationEnabled: boolean; migration: LeaderMigrationConfig | null } {
  try {
    const config = loadControllerManagerConfiguration(readFileSync(path, 'utf8'));
    const defaults: ControllerManagerFlags = {
      ...defaultControllerManagerFlags,
      controllers: config.Generic.Controllers,
      controllerWorkers: controllerWorkers(config),
      minResyncPeriodMs: parseDuration(config.Generic.MinResyncPeriod),
      namespaceSyncPeriodMs: parseDuration(config.NamespaceController.NamespaceSyncPeriod),
      leaderElection: leaderElectionSettings(config.Generic.LeaderElection),
    };
    return { defaults, migrationEnabled: config.Generic.LeaderMigrationEnabled, migration: config.Generic.LeaderMigration };
  } catch (err) {
    fail(`${path}: ${(err as Error).message}`);
  }
}

async function main(): Promise<void> {
  installLastResortLogging('plinth-controllers');
  const argv = process.argv.slice(2);
  const files: ProcessFlags = { kubeconfig: '' };
  let flags: ControllerManagerFlags;
  let migrationEnabled = false;
  let migration: LeaderMigrationConfig | null = null;
  try {
    parseFlags(argv, processFlags(files), ignoring(controllerManagerFlagSet().set));
    const fromConfig = files.config === undefined ? null : fromConfigFile(files.config);
    migrationEnabled = fromConfig?.migrationEnabled ?? false;
    migration = fromConfig?.migration ?? null;
    const bound = controllerManagerFlagSet(fromConfig?.defaults);
    parseFlags(argv, ignoring(processFlags(files)), bound.set);
    flags = bound.flags;
    if (!files.kubeconfig) throw new FlagError('--kubeconfig is required');
    checkLeaderElection(flags.leaderElection);
  } catch (err) {
    if (err instanceof FlagError) fail(err.message);
    throw err;
  }
  if (files.enableLeaderMigration !== undefined) {
    migrationEnabled = files.enableLeaderMigration;
    // As LeaderMigrationOptions.ApplyTo: the flag brings the default configuration unless a file is named.
    if (migrationEnabled && files.leaderMigrationConfig === undefined) migration = defaultLeaderMigrationConfiguration();
  }
  if (files.leaderMigrationConfig !== undefined) {
    try {
      migration = loadLeaderMigrationConfiguration(readFileSync(files.leaderMigrationConfig, 'utf8'));
    } catch (err) {
      fail(`${files.leaderMigrationConfig}: ${(err as Error).message}`);
    }
  }
  const module = ControllersModule.forFlags(flags, files.kubeconfig, migrationEnabled ? migration : null);
  const app = await NestFactory.createApplicationContext(withMetrics(withTracing(module, await startTracing('plinth-controllers')), flags.metricsBindAddress), { logger: ['log', 'warn', 'error'] });
  // useProcessExit ends the process with status 0 once the shutdown hooks ran.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  // The process runs until signalled, even while a standby instance has no connection open
  // (the clock's timers do not hold the process).
  setInterval(() => undefined, 1 << 30);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
