// The storage service: a versioned object store (etcd or the embedded store) served over gRPC.
// Run it with `node -r ./tools/register.js apps/storage/src/main.ts`; storage-config.ts lists
// its environment.
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { installLastResortLogging, withTracing } from '@plinth/nest';
import { startTracing } from '@plinth/telemetry';
import { storageConfigFromEnv } from './storage-config';
import { StorageModule } from './storage.module';

async function bootstrap(): Promise<void> {
  installLastResortLogging('plinth-storage');
  const app = await NestFactory.createApplicationContext(withTracing(StorageModule.forConfig(storageConfigFromEnv(process.env)), startTracing('plinth-storage')), {
    logger: ['log', 'warn', 'error', 'fatal'],
  });
  // useProcessExit ends the process with status 0 once the shutdown hooks ran, instead of
  // re-raising the signal.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
}

bootstrap().catch((err: unknown) => {
  Logger.error(err instanceof Error ? (err.stack ?? err.message) : String(err), 'StorageService');
  process.exit(1);
});
