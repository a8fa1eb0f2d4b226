// The all-in-one's worker thread (started by ControllersWorkerHost): the controller manager in a
// Nest application of its own, with the process's tracing (its spans exported under the
// all-in-one's service name) and its metrics, which the main thread's /metrics gathers from it.
// It starts before the API server, and its controllers once the credentials come (in its
// workerData when it is restarted, as a request when it started first). Asked to stop, it closes
// the application and the thread ends.
import 'reflect-metadata';
import { threadId, workerData } from 'node:worker_threads';
import { INestApplicationContext, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ClientCredentials } from '@plinth/client';
import { defaultRegistry } from '@plinth/metrics';
import { installLastResortLogging, withMetrics, withTracing } from '@plinth/nest';
import { answerSupervisor, CredentialsRequest, loadedRequest, metricsRequest } from '@plinth/nest/worker';
import { startTracing } from '@plinth/telemetry';
import { ControllersWorkerData, ControllersWorkerModule } from './controllers-worker.module';

const isCredentialsRequest = (body: unknown): body is CredentialsRequest => typeof body === 'object' && body !== null && 'credentials' in body;

function main(): void {
  installLastResortLogging('plinth');
  const logger = new Logger('controllers');
  logger.log(`controller manager running in worker thread ${threadId}`);
  const { flags, credentials: given } = workerData as ControllersWorkerData;
  let credentialsCame = given !== null;
  let provideCredentials: (credentials: ClientCredentials) => void = () => undefined;
  const credentials = given ? Promise.resolve(given) : new Promise<ClientCredentials>((resolve) => (provideCredentials = resolve));
  const module = ControllersWorkerModule.forFlags(flags, () => credentials);
  const app: Promise<INestApplicationContext> = startTracing('plinth').then((tracing) => NestFactory.createApplicationContext(withMetrics(withTracing(module, tracing)), { logger: ['log', 'warn', 'error'] }));
  answerSupervisor(
    {
      // Stopped before its credentials came, the manager has started nothing to stop.
      stop: async () => {
        if (credentialsCame) await (await app).close();
      },
      answer: (body) => {
        if (body === metricsRequest) return defaultRegistry().gather();
        if (body === loadedRequest) return true;
        if (!isCredentialsRequest(body)) return undefined;
        credentialsCame = true;
        provideCredentials(body.credentials);
        return true;
      },
    },
    (line) => logger.warn(line),
  );
  app.catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}

main();
