// The controller manager: `--kubeconfig FILE` (required) names the API to work against;
// `--simulated-nodes N` and `--feature-gates` as the all-in-one.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FlagError, parseServerFlags } from '@plinth/apiserver';
import { ControllersModule } from './controllers.module';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const at = argv.findIndex((a) => a === '--kubeconfig' || a.startsWith('--kubeconfig='));
  const kubeconfig = at < 0 ? '' : argv[at].includes('=') ? argv[at].split('=')[1] : argv[at + 1] ?? '';
  const rest = at < 0 ? argv : argv.filter((_, i) => i !== at && !(i === at + 1 && !argv[at].includes('=')));
  let flags;
  try {
    if (!kubeconfig) throw new FlagError('--kubeconfig is required');
    flags = parseServerFlags(rest);
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
