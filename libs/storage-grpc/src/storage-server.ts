// startStorageServer runs the storage service on a grpc-js server: bound, serving, and shut
// down in the order that lets open watches end cleanly.
import { setMaxListeners } from 'node:events';
import { ChannelOptions, Server, ServerCredentials } from '@grpc/grpc-js';
import { storagev1 } from '@plinth/proto';
import { ObjectStore } from '@plinth/storage';
import { serverChannelOptions } from './channel-options';
import { createObjectStoreServiceImpl } from './server';
import { ClientIdentity, clientIdentityInterceptor, storageServerCredentials, TlsFiles } from './tls';

export interface StorageServerOptions {
  // address is host:port to listen on; port 0 picks a free port.
  address: string;
  // tls serves mutual TLS only, to the allowed client identities; without it the service is
  // plaintext to anyone (loopback tests and --storage-insecure).
  tls?: StorageServerTls;
  // channelOptions override serverChannelOptions one by one.
  channelOptions?: ChannelOptions;
}

export interface StorageServerTls extends TlsFiles {
  allowedClients: readonly ClientIdentity[];
}

export interface StorageServer {
  // address is host:port as bound, with the actual port.
  readonly address: string;
  readonly port: number;
  // shutdown refuses new calls, ends open watches with UNAVAILABLE, waits for running calls
  // and, after graceMs, cuts the connections that are still open. It leaves the store open.
  shutdown(graceMs?: number): Promise<void>;
}

export async function startStorageServer(store: ObjectStore, options: StorageServerOptions): Promise<StorageServer> {
  const stopping = new AbortController();
  // Every open watch and Exchange stream listens on the signal.
  setMaxListeners(0, stopping.signal);
  const interceptors = options.tls ? [clientIdentityInterceptor(options.tls.allowedClients)] : [];
  const server = new Server({ ...serverChannelOptions, ...options.channelOptions, interceptors });
  server.addService(storagev1.ObjectStoreService, createObjectStoreServiceImpl(store, { signal: stopping.signal }));
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(options.address, options.tls ? storageServerCredentials(options.tls) : ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(err) : resolve(bound),
    );
  });
  const host = options.address.slice(0, options.address.lastIndexOf(':'));
  let stopped: Promise<void> | undefined;
  return {
    address: `${host}:${port}`,
    port,
    shutdown(graceMs = 5000) {
      stopped ??= new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
        stopping.abort();
      });
      return stopped;
    },
  };
}
