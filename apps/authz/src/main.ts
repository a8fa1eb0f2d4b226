// The authz service: RBAC over the storage service, answering gateways over NATS as a Nest
// microservice on AuthzNatsTransport. Run it with
// `node -r ./tools/register.js apps/authz/src/main.ts [--storage-address host:port]
// [--storage-ca-file ...] [--nats-url nats://host:port] [--nats-ca-file ...]`; authz-config.ts
// lists its flags and environment. Replicas
// share the load in one NATS queue group.
import 'reflect-metadata';
import { DynamicModule, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { installLastResortLogging, withMetrics, withTracing } from '@plinth/nest';
import { AuthzNatsTransport } from '@plinth/nest/authz';
import { startTracing } from '@plinth/telemetry';
import { NatsLinkError } from '@plinth/authz-nats';
import { StorageLinkError } from '@plinth/storage-grpc';
import { FlagError, parseAuthzConfig } from './authz-config';
import { authzMicroservice } from './authz.module';
import { AuthzService } from './authz.service';

async function bootstrap(): Promise<void> {
  installLastResortLogging('plinth-authz');
  let authz: DynamicModule;
  let transport: AuthzNatsTransport;
  let metricsBindAddress: string;
  try {
    const config = parseAuthzConfig(process.argv.slice(2), process.env);
    metricsBindAddress = config.metricsBindAddress;
    ({ module: authz, transport } = authzMicroservice(config));
  } catch (err) {
    if (err instanceof FlagError || err instanceof StorageLinkError || err instanceof NatsLinkError) {
      console.error(`Error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const app = await NestFactory.createMicroservice(withMetrics(withTracing(authz, await startTracing('plinth-authz')), metricsBindAddress), {
    strategy: transport,
    logger: ['log', 'warn', 'error', 'fatal'],
  });
  // useProcessExit ends the process with status 0 once the shutdown hooks ran.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  // listen runs the bootstrap hooks (the policy is loaded), then connects and subscribes.
  await app.listen();
  app.get(AuthzService).serving();
}

bootstrap().catch((err: unknown) => {
  Logger.error(err instanceof Error ? (err.stack ?? err.message) : String(err), 'AuthzService');
  process.exit(1);
});
