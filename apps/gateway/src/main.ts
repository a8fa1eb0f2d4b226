// The gateway: the HTTP API over the storage service, asking the authz service whether each
// request is allowed. Flags as the all-in-one, plus --storage-address host:port of the storage
// service (default 127.0.0.1:7443) and --nats-url of the NATS the authz service answers on
// (default nats://127.0.0.1:4222).
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { installLastResortLogging, withTracing } from '@plinth/nest';
import { startTracing } from '@plinth/telemetry';
import { defaultServerFlags, FlagError, parseServerFlags } from '@plinth/apiserver';
import { GatewayModule } from './gateway.module';

async function main(): Promise<void> {
  installLastResortLogging('plinth-gateway');
  let flags;
  try {
    flags = parseServerFlags(process.argv.slice(2), { ...defaultServerFlags, storageAddress: '127.0.0.1:7443', natsUrl: 'nats://127.0.0.1:4222', dataDir: '.plinth-gateway' });
  } catch (err) {
    if (err instanceof FlagError) {
      console.error(`Error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const app = await NestFactory.createApplicationContext(withTracing(GatewayModule.forFlags(flags), startTracing('plinth-gateway')), { logger: ['log', 'warn', 'error'] });
  // useProcessExit ends the process with status 0 once the shutdown hooks ran.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
