// The storage service: a versioned object store (etcd or the embedded store) served over gRPC,
// a Nest microservice on StorageGrpcTransport. Run it with
// `node -r ./tools/register.js apps/storage/src/main.ts [flags]`; storage-config.ts lists its
// flags and their environment variables.
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { installLastResortLogging, withMetrics, withTracing } from '@plinth/nest';
import { StorageGrpcTransport } from '@plinth/nest/storage';
import { startTracing } from '@plinth/telemetry';
import { describeServing, FlagError, parseStorageConfig } from './storage-config';
import { StorageModule } from './storage.module';

async function bootstrap(): Promise<void> {
  installLastResortLogging('plinth-storage');
  let config;
  try {
    config = parseStorageConfig(process.argv.slice(2), process.env);
  } catch (err) {
    if (err instanceof FlagError) {
      console.error(`Error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const transport = new StorageGrpcTransport({ address: config.address, tls: config.tls });
  const app = await NestFactory.createMicroservice(withMetrics(withTracing(StorageModule.forConfig(config, transport), await startTracing('plinth-storage')), config.metricsBindAddress), {
    strategy: transport,
    logger: ['log', 'warn', 'error', 'fatal'],
  });
  // useProcessExit ends the process with status 0 once the shutdown hooks ran, instead of
  // re-raising the signal.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  await app.listen();
  new Logger('StorageService').log(`storage service listening on ${transport.address}, ${describeServing(config.tls)}`);
}

bootstrap().catch((err: unknown) => {
  Logger.error(err instanceof Error ? (err.stack ?? err.message) : String(err), 'StorageService');
  process.exit(1);
});
