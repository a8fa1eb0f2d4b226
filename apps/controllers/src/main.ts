// The controller manager: `--kubeconfig FILE` (required) names the API to work against;
// `--config FILE` reads a PlatformControllerManagerConfiguration document (its Controllers list,
// Concurrent*Syncs, MinResyncPeriod, NamespaceSyncPeriod and leader migration); flags given
// after it override the file; `--enable-leader-migration` and `--leader-migration-config FILE`
// as kube-controller-manager's (enabled without a file: the default migration configuration);
// `--simulated-nodes N` and `--feature-gates` as the all-in-one.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { installLastResortLogging, withMetrics, withTracing } from '@plinth/nest';
import { startTracing } from '@plinth/telemetry';
import { readFileSync } from 'node:fs';
import { defaultServerFlags, FlagError, parseServerFlags, ServerFlags } from '@plinth/apiserver';
import { controllerWorkers, LeaderElectionConfiguration, LeaderElectionSettings, loadControllerManagerConfiguration, loadLeaderMigrationConfiguration, parseDuration } from '@plinth/config';
import { defaultLeaderMigrationConfiguration, LeaderMigrationConfig } from '@plinth/controller-manager';
import { ControllersModule } from './controllers.module';

// takeFlag removes `--name value`, `--name=value` (or a bare `--name` for a boolean flag) from
// argv and returns its value, or undefined when absent.
function takeFlag(argv: string[], name: string, boolean = false): string | undefined {
  const at = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (at < 0) return undefined;
  const inline = argv[at].includes('=');
  const value = inline ? argv[at].slice(argv[at].indexOf('=') + 1) : boolean ? 'true' : argv[at + 1] ?? '';
  argv.splice(at, inline || boolean ? 1 : 2);
  return value;
}

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

async function main(): Promise<void> {
  installLastResortLogging('plinth-controllers');
  const argv = process.argv.slice(2);
  let fromConfig: Partial<Pick<ServerFlags, 'controllers' | 'controllerWorkers' | 'minResyncPeriodMs' | 'namespaceSyncPeriodMs' | 'leaderElection'>> = {};
  let migrationEnabled = false;
  let migration: LeaderMigrationConfig | null = null;
  const configPath = takeFlag(argv, 'config');
  if (configPath !== undefined) {
    try {
      const config = loadControllerManagerConfiguration(readFileSync(configPath, 'utf8'));
      fromConfig = {
        controllers: config.Generic.Controllers,
        controllerWorkers: controllerWorkers(config),
        minResyncPeriodMs: parseDuration(config.Generic.MinResyncPeriod),
        namespaceSyncPeriodMs: parseDuration(config.NamespaceController.NamespaceSyncPeriod),
        leaderElection: leaderElectionSettings(config.Generic.LeaderElection),
      };
      migrationEnabled = config.Generic.LeaderMigrationEnabled;
      migration = config.Generic.LeaderMigration;
    } catch (err) {
      fail(`${configPath}: ${(err as Error).message}`);
    }
  }
  const enable = takeFlag(argv, 'enable-leader-migration', true);
  const migrationPath = takeFlag(argv, 'leader-migration-config');
  if (enable !== undefined) {
    if (enable !== 'true' && enable !== 'false') fail(`invalid argument "${enable}" for "--enable-leader-migration" flag: must be true or false`);
    migrationEnabled = enable === 'true';
    // As LeaderMigrationOptions.ApplyTo: the flag brings the default configuration unless a file is named.
    if (migrationEnabled && migrationPath === undefined) migration = defaultLeaderMigrationConfiguration();
  }
  if (migrationPath !== undefined) {
    try {
      migration = loadLeaderMigrationConfiguration(readFileSync(migrationPath, 'utf8'));
    } catch (err) {
      fail(`${migrationPath}: ${(err as Error).message}`);
    }
  }
  const kubeconfig = takeFlag(argv, 'kubeconfig') ?? '';
  let flags;
  try {
    if (!kubeconfig) throw new FlagError('--kubeconfig is required');
    flags = parseServerFlags(argv, { ...defaultServerFlags, ...fromConfig });
    checkLeaderElection(flags.leaderElection);
  } catch (err) {
    if (err instanceof FlagError) fail(err.message);
    throw err;
  }
  const module = ControllersModule.forFlags(flags, kubeconfig, migrationEnabled ? migration : null);
  const app = await NestFactory.createApplicationContext(withMetrics(withTracing(module, startTracing('plinth-controllers')), flags.metricsBindAddress), { logger: ['log', 'warn', 'error'] });
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
