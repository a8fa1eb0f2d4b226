// ApiServerHost runs the API server (@plinth/kube-apiserver's startApiServer) inside a Nest
// application, over the app's ObjectStore: it starts it on bootstrap and logs where it serves
// once the start-up work is done, drains it before shutdown (Nest's beforeApplicationShutdown,
// while every client is still open) and stops it, then closes the store, on shutdown.
import { resolve } from 'node:path';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ServerFlags } from '@plinth/apiserver';
import { RunningApiServer, startApiServer } from '@plinth/kube-apiserver';
import { defaultRegistry } from '@plinth/metrics';
import { ObjectStore } from '@plinth/storage';
import { OBJECT_STORE } from '../storage/object-store.token';

export const SERVER_FLAGS = Symbol('ServerFlags');

@Injectable()
export class ApiServerHost implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('apiserver');
  private server: RunningApiServer | null = null;
  // listening resolves once the server serves and its start-up work is done (other hosts in
  // the process wait on it).
  readonly listening: Promise<void>;
  private markListening: () => void = () => undefined;

  constructor(
    @Inject(SERVER_FLAGS) private readonly flags: ServerFlags,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
  ) {
    this.listening = new Promise((done) => (this.markListening = done));
  }

  // dataDirectory is where the PKI and the kubeconfigs live.
  get dataDirectory(): string {
    return resolve(this.flags.dataDir);
  }

  get port(): number {
    return this.server?.port ?? 0;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.server = await startApiServer({ flags: this.flags, store: this.store, metrics: defaultRegistry(), log: this.logger });
    await this.server.ready;
    this.logger.log(`serving on ${this.server.url}; admin kubeconfig: ${this.server.adminKubeconfig}`);
    this.markListening();
  }

  async beforeApplicationShutdown(signal?: string): Promise<void> {
    await this.server?.drain(signal);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.server?.stop();
    await this.store.close();
  }
}
