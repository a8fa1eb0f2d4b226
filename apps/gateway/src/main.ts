// The gateway: the HTTP API over the storage service, asking the authz service whether each
// request is allowed. Flags as the all-in-one, plus --storage-address host:port of the storage
// service (default 127.0.0.1:7443) with its mutual TLS files (--storage-ca-file,
// --storage-cert-file, --storage-key-file; --storage-insecure for plaintext in development),
// and --nats-url of the NATS the authz service answers on (default nats://127.0.0.1:4222) with
// --nats-ca-file (TLS), --nats-user and --nats-password-file (--nats-insecure for plaintext in
// development).
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { installLastResortLogging, withTracing } from '@plinth/nest';
import { startTracing } from '@plinth/telemetry';
import { defaultServerFlags, FlagError, parseServerFlags } from '@plinth/apiserver';
import { NatsLinkError } from '@plinth/authz-nats';
import { StorageLinkError } from '@plinth/storage-grpc';
import { GatewayModule } from './gateway.module';

async function main(): Promise<void> {
  installLastResortLogging('plinth-gateway');
  let gateway;
  try {
    const flags = parseServerFlags(process.argv.slice(2), { ...defaultServerFlags, storageAddress: '127.0.0.1:7443', natsUrl: 'nats://127.0.0.1:4222', dataDir: '.plinth-gateway' });
    gateway = GatewayModule.forFlags(flags);
  } catch (err) {
    if (err instanceof FlagError || err instanceof StorageLinkError || err instanceof NatsLinkError) {
      console.error(`Error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const app = await NestFactory.createApplicationContext(withTracing(gateway, await startTracing('plinth-gateway')), { logger: ['log', 'warn', 'error'] });
  // useProcessExit ends the process with status 0 once the shutdown hooks ran.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
