// StorageGrpcTransport is Nest's gRPC transport as the storage service serves it: storage.proto's
// ts-proto definitions (no .proto is loaded), mutual TLS that answers only the allowed client
// identities (clientIdentityInterceptor, before a call reaches a handler), the channel options
// of the storage link, the port as bound (port 0 picks one), and a shutdown that lets the
// long-lived streams end: it refuses new calls, ends open watches with UNAVAILABLE and Exchange
// streams once their requests are answered, waits for running calls and, after the grace
// period, cuts the connections still open. It leaves the store open.
import { setMaxListeners } from 'node:events';
import { ChannelOptions, Server, ServerCredentials } from '@grpc/grpc-js';
import { ServerGrpc } from '@nestjs/microservices';
import {
  clientIdentityInterceptor,
  objectStorePackage,
  objectStorePackageDefinition,
  serverChannelOptions,
  storageServerCredentials,
  StorageServerTls,
} from '@plinth/storage-grpc';

export interface StorageServerOptions {
  // address is host:port to listen on; port 0 picks a free port.
  address: string;
  // tls serves mutual TLS only, to the allowed client identities; without it the service is
  // plaintext to anyone (loopback tests and --storage-insecure).
  tls?: StorageServerTls;
  // channelOptions override serverChannelOptions one by one.
  channelOptions?: ChannelOptions;
}

// defaultShutdownGraceMs is how long running calls get at shutdown before their connections are cut.
export const defaultShutdownGraceMs = 5000;

export class StorageGrpcTransport extends ServerGrpc {
  private readonly stopping = new AbortController();
  private boundPort = 0;
  private stopped: Promise<void> | undefined;
  // shutdownGraceMs is the grace period of the next close.
  shutdownGraceMs = defaultShutdownGraceMs;

  constructor(private readonly serving: StorageServerOptions) {
    super({ url: serving.address, package: objectStorePackage, packageDefinition: objectStorePackageDefinition() });
    // Every open watch and Exchange stream listens on the signal.
    setMaxListeners(0, this.stopping.signal);
  }

  // signal is aborted when the service starts shutting down (objectStoreHandlers' signal).
  get signal(): AbortSignal {
    return this.stopping.signal;
  }

  // address is host:port as bound, with the actual port.
  get address(): string {
    return `${this.serving.address.slice(0, this.serving.address.lastIndexOf(':'))}:${this.boundPort}`;
  }

  get port(): number {
    return this.boundPort;
  }

  override async createClient(): Promise<Server> {
    const { tls } = this.serving;
    const interceptors = tls ? [clientIdentityInterceptor(tls.allowedClients)] : [];
    const server = new Server({ ...serverChannelOptions, ...this.serving.channelOptions, interceptors });
    const credentials = tls ? storageServerCredentials(tls) : ServerCredentials.createInsecure();
    this.boundPort = await new Promise<number>((resolve, reject) => {
      server.bindAsync(this.serving.address, credentials, (err, port) => (err ? reject(err) : resolve(port)));
    });
    return server;
  }

  // close shuts the server down once, however often it is called (Nest calls it again on the
  // way out).
  override close(): Promise<void> {
    this.stopped ??= this.shutdown();
    return this.stopped;
  }

  private shutdown(): Promise<void> {
    const server = this.grpcClient as unknown as Server | null;
    if (!server) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const force = setTimeout(() => {
        server.forceShutdown();
        resolve();
      }, this.shutdownGraceMs);
      server.tryShutdown(() => {
        clearTimeout(force);
        resolve();
      });
      this.stopping.abort();
    });
  }
}
