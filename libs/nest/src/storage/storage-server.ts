// startStorageServer runs the storage service's microservice over a store in this process: the
// same module and transport as apps/storage, for tests and benchmarks that need a server
// beside their client.
import { NestFactory } from '@nestjs/core';
import { ObjectStore } from '@plinth/storage';
import { ObjectStoreServiceModule } from './object-store-service.module';
import { StorageGrpcTransport, StorageServerOptions } from './storage-grpc.transport';

export interface StorageServer {
  // address is host:port as bound, with the actual port.
  readonly address: string;
  readonly port: number;
  // shutdown refuses new calls, ends open watches with UNAVAILABLE, waits for running calls
  // and, after graceMs, cuts the connections that are still open. It leaves the store open.
  shutdown(graceMs?: number): Promise<void>;
}

export async function startStorageServer(store: ObjectStore, options: StorageServerOptions): Promise<StorageServer> {
  const transport = new StorageGrpcTransport(options);
  const app = await NestFactory.createMicroservice(ObjectStoreServiceModule.forStore(() => store, transport), { strategy: transport, logger: ['error', 'warn'] });
  await app.listen();
  let stopped: Promise<void> | undefined;
  return {
    address: transport.address,
    port: transport.port,
    shutdown(graceMs) {
      if (graceMs !== undefined) transport.shutdownGraceMs = graceMs;
      stopped ??= app.close();
      return stopped;
    },
  };
}
