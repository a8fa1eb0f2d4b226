// The all-in-one's worker thread (started by ControllersWorkerHost): the controller manager in a
// Nest application of its own, with the process's tracing (its spans exported under the
// all-in-one's service name) and its metrics, which the main thread's /metrics gathers from it.
// Asked to stop, it closes the application and the thread ends.
import 'reflect-metadata';
import { threadId, workerData } from 'node:worker_threads';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { defaultRegistry } from '@plinth/metrics';
import { installLastResortLogging, withMetrics, withTracing } from '@plinth/nest';
import { answerSupervisor, metricsRequest } from '@plinth/nest/worker';
import { startTracing } from '@plinth/telemetry';
import { ControllersWorkerData, ControllersWorkerModule } from './controllers-worker.module';

async function main(): Promise<void> {
  installLastResortLogging('plinth');
  const logger = new Logger('controllers');
  logger.log(`controller manager running in worker thread ${threadId}`);
  const module = ControllersWorkerModule.forData(workerData as ControllersWorkerData);
  const app = startTracing('plinth').then((tracing) => NestFactory.createApplicationContext(withMetrics(withTracing(module, tracing)), { logger: ['log', 'warn', 'error'] }));
  answerSupervisor(
    {
      stop: async () => (await app).close(),
      answer: (body) => (body === metricsRequest ? defaultRegistry().gather() : undefined),
    },
    (line) => logger.warn(line),
  );
  await app;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
