// The gateway: the HTTP API over the storage service. Flags as the all-in-one, plus
// --storage-address host:port of the storage service (default 127.0.0.1:7443).
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { defaultServerFlags, FlagError, parseServerFlags } from '@plinth/apiserver';
import { GatewayModule } from './gateway.module';

async function main(): Promise<void> {
  let flags;
  try {
    flags = parseServerFlags(process.argv.slice(2), { ...defaultServerFlags, storageAddress: '127.0.0.1:7443', dataDir: '.plinth-gateway' });
  } catch (err) {
    if (err instanceof FlagError) {
      console.error(`Error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const app = await NestFactory.createApplicationContext(GatewayModule.forFlags(flags), { logger: ['log', 'warn', 'error'] });
  app.enableShutdownHooks();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
