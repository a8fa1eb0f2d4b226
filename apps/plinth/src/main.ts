// The all-in-one Plinth (`npm start`): API server, embedded storage, and the controllers (on a
// worker thread of their own), in one process. Flags follow `npm start --`, e.g.
// `npm start -- --data-dir /tmp/p --port 7443`.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { installLastResortLogging, withMetrics, withTracing } from '@plinth/nest';
import { startTracing } from '@plinth/telemetry';
import { serverFlagSet } from '@plinth/apiserver';
import { ControllersWorkerHost } from '@plinth/nest/worker';
import { controllerManagerFlagSet, FlagError, parseFlags } from '@plinth/config';
import { PlinthModule } from './plinth.module';

async function main(): Promise<void> {
  installLastResortLogging('plinth');
  // The API server's flags and the controller manager's (--feature-gates goes to both).
  const server = serverFlagSet();
  const controllers = controllerManagerFlagSet();
  try {
    parseFlags(process.argv.slice(2), server.set, controllers.set);
  } catch (err) {
    if (err instanceof FlagError) {
      console.error(`Error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const app = await NestFactory.createApplicationContext(withMetrics(withTracing(PlinthModule.forFlags(server.flags, controllers.flags), await startTracing('plinth'))), { logger: ['log', 'warn', 'error'] });
  // useProcessExit ends the process with status 0 once the shutdown hooks ran.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  // A controller manager that keeps crashing is given up on: the process shuts down as on
  // SIGTERM and exits 1, for what supervises it to see.
  void app
    .get(ControllersWorkerHost)
    .gaveUp.then(() => app.close())
    .finally(() => process.exit(1));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
