// The authz service: RBAC over the storage service, answering gateways over NATS. Run it with
// `node -r ./tools/register.js apps/authz/src/main.ts [--storage-address host:port]
// [--storage-ca-file ...] [--nats-url nats://host:port] [--nats-ca-file ...]`; authz-config.ts
// lists its flags and environment. Replicas
// share the load in one NATS queue group.
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { installLastResortLogging, withMetrics, withTracing } from '@plinth/nest';
import { startTracing } from '@plinth/telemetry';
import { NatsLinkError } from '@plinth/authz-nats';
import { StorageLinkError } from '@plinth/storage-grpc';
import { FlagError, parseAuthzConfig } from './authz-config';
import { AuthzModule } from './authz.module';

async function bootstrap(): Promise<void> {
  installLastResortLogging('plinth-authz');
  let authz;
  let metricsBindAddress: string;
  try {
    const config = parseAuthzConfig(process.argv.slice(2), process.env);
    metricsBindAddress = config.metricsBindAddress;
    authz = AuthzModule.forConfig(config);
  } catch (err) {
    if (err instanceof FlagError || err instanceof StorageLinkError || err instanceof NatsLinkError) {
      console.error(`Error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const app = await NestFactory.createApplicationContext(withMetrics(withTracing(authz, startTracing('plinth-authz')), metricsBindAddress), { logger: ['log', 'warn', 'error', 'fatal'] });
  // useProcessExit ends the process with status 0 once the shutdown hooks ran.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
}

bootstrap().catch((err: unknown) => {
  Logger.error(err instanceof Error ? (err.stack ?? err.message) : String(err), 'AuthzService');
  process.exit(1);
});
