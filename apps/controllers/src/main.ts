// The controller manager: `--kubeconfig FILE` (required) names the API to work against;
// `--config FILE` reads a PlatformControllerManagerConfiguration document (its Controllers list,
// Concurrent*Syncs, MinResyncPeriod and NamespaceSyncPeriod); flags given after it override the
// file; `--simulated-nodes N` and `--feature-gates` as the all-in-one.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { readFileSync } from 'node:fs';
import { defaultServerFlags, FlagError, parseServerFlags, ServerFlags } from '@plinth/apiserver';
import { controllerWorkers, loadControllerManagerConfiguration, parseDuration } from '@plinth/config';
import { ControllersModule } from './controllers.module';

async function main(): Promise<void> {
  let argv = process.argv.slice(2);
  const configAt = argv.findIndex((a) => a === '--config' || a.startsWith('--config='));
  let fromConfig: Partial<Pick<ServerFlags, 'controllers' | 'controllerWorkers' | 'minResyncPeriodMs' | 'namespaceSyncPeriodMs'>> = {};
  if (configAt >= 0) {
    const path = argv[configAt].includes('=') ? argv[configAt].split('=')[1] : argv[configAt + 1] ?? '';
    argv = argv.filter((_, i) => i !== configAt && !(i === configAt + 1 && !argv[configAt].includes('=')));
    try {
      const config = loadControllerManagerConfiguration(readFileSync(path, 'utf8'));
      fromConfig = {
        controllers: config.Generic.Controllers,
        controllerWorkers: controllerWorkers(config),
        minResyncPeriodMs: parseDuration(config.Generic.MinResyncPeriod),
        namespaceSyncPeriodMs: parseDuration(config.NamespaceController.NamespaceSyncPeriod),
      };
    } catch (err) {
      console.error(`Error: ${path}: ${(err as Error).message}`);
      process.exit(2);
    }
  }
  const at = argv.findIndex((a) => a === '--kubeconfig' || a.startsWith('--kubeconfig='));
  const kubeconfig = at < 0 ? '' : argv[at].includes('=') ? argv[at].split('=')[1] : argv[at + 1] ?? '';
  const rest = at < 0 ? argv : argv.filter((_, i) => i !== at && !(i === at + 1 && !argv[at].includes('=')));
  let flags;
  try {
    if (!kubeconfig) throw new FlagError('--kubeconfig is required');
    flags = parseServerFlags(rest, { ...defaultServerFlags, ...fromConfig });
  } catch (err) {
    if (err instanceof FlagError) {
      console.error(`Error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const app = await NestFactory.createApplicationContext(ControllersModule.forFlags(flags, kubeconfig), { logger: ['log', 'warn', 'error'] });
  // useProcessExit ends the process with status 0 once the shutdown hooks ran.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
