// ApiServerHost runs the API server inside a Nest application: it assembles the server over the
// app's ObjectStore, creates the system namespaces, serves HTTPS and writes the admin
// kubeconfig on bootstrap, and closes the listener on shutdown. With --nats-url it asks the
// authz app over NATS; without, it runs RBAC in process.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Server } from 'node:https';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { connect, NatsConnection } from 'nats';
import { adminKubeconfig, ApiServer, controllerManagerKubeconfig, assembleApiServer, Authorizer, ClusterPki, ensureClusterPki, ensureSystemNamespaces, listenHttps, openApiRoutes, ServerFlags } from '@plinth/apiserver';
import { realClock } from '@plinth/machinery';
import { defaultRegistry } from '@plinth/metrics';
import { LocalAuthorization } from '@plinth/authz';
import { NatsAuthorizer, natsConnectionOptions } from '@plinth/authz-nats';
import { builtinDefinitions, ResourceDefinition } from '@plinth/registry';
import { HistoryCompactor, ObjectStore } from '@plinth/storage';
import { OBJECT_STORE } from '../storage/object-store.token';

export const SERVER_FLAGS = Symbol('ServerFlags');

@Injectable()
export class ApiServerHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('apiserver');
  private https: Server | null = null;
  private compactor: HistoryCompactor | null = null;
  private authorization: LocalAuthorization | null = null;
  private nats: NatsConnection | null = null;
  private natsAuthorizer: NatsAuthorizer | null = null;
  private bootstrapped = false;
  apiServer: ApiServer | null = null;
  port = 0;
  // listening resolves once the server serves HTTPS (other hosts in the process wait on it).
  readonly listening: Promise<void>;
  private markListening: () => void = () => undefined;

  constructor(
    @Inject(SERVER_FLAGS) private readonly flags: ServerFlags,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
  ) {
    this.listening = new Promise((resolve) => (this.markListening = resolve));
  }

  // dataDirectory is where the PKI and the kubeconfig live.
  get dataDirectory(): string {
    return resolve(this.flags.dataDir);
  }

  async onApplicationBootstrap(): Promise<void> {
    const dataDir = resolve(this.flags.dataDir);
    mkdirSync(dataDir, { recursive: true });
    const pki = ensureClusterPki(dataDir, { dns: ['localhost', 'plinth'], ips: uniqueIps(['127.0.0.1', '::1', this.flags.bindAddress]) });
    const flags = withPkiDefaults(this.flags, pki);
    const definitions = builtinDefinitions();
    const authorizer = await this.startAuthorizer(definitions);
    this.apiServer = assembleApiServer({
      authorizer,
      flags,
      storage: this.store,
      definitions,
      extraRoutes: (catalog) => [openApiRoutes(catalog)],
      ready: () => this.bootstrapped,
      metrics: defaultRegistry(),
    });
    // The process that owns its storage keeps its history window; behind a storage service
    // (--storage-address) that service does.
    if (!this.flags.storageAddress) {
      this.compactor = new HistoryCompactor(this.store, {
        windowMs: this.flags.historyWindowSeconds * 1000,
        onError: (err) => this.logger.warn(`compaction failed: ${(err as Error).message}`),
      });
      this.compactor.start();
    }
    await ensureSystemNamespaces(this.apiServer);
    this.bootstrapped = true;
    const listening = await listenHttps(this.apiServer, pki, this.flags.bindAddress, this.flags.securePort);
    this.https = listening.server;
    this.port = listening.port;
    const host = this.flags.bindAddress.includes(':') ? `[${this.flags.bindAddress}]` : this.flags.bindAddress;
    const kubeconfigPath = join(dataDir, 'admin.kubeconfig');
    const server = `https://${host === '0.0.0.0' ? '127.0.0.1' : host}:${this.port}`;
    writeFileSync(kubeconfigPath, adminKubeconfig(server, pki), { mode: 0o600 });
    // A separate controller manager (apps/controllers) runs with its own identity.
    writeFileSync(join(dataDir, 'controller-manager.kubeconfig'), controllerManagerKubeconfig(server, pki), { mode: 0o600 });
    this.logger.log(`serving on https://${host}:${this.port}; admin kubeconfig: ${kubeconfigPath}`);
    this.markListening();
  }

  async onApplicationShutdown(): Promise<void> {
    this.compactor?.stop();
    this.authorization?.stop();
    this.natsAuthorizer?.close();
    this.apiServer?.close();
    if (this.nats && !this.nats.isClosed()) await this.nats.drain();
    const https = this.https;
    if (!https) return;
    https.closeAllConnections();
    await new Promise<void>((done) => https.close(() => done()));
  }

  // startAuthorizer asks the authz app over NATS when --nats-url is set; that app owns the
  // bootstrap policy and the ClusterRole aggregation. Otherwise (the all-in-one) RBAC, its
  // bootstrap and aggregation run here.
  private async startAuthorizer(definitions: ResourceDefinition[]): Promise<Authorizer> {
    if (this.flags.natsUrl) {
      const link = { url: this.flags.natsUrl, caFile: this.flags.natsCAFile, user: this.flags.natsUser, passwordFile: this.flags.natsPasswordFile };
      this.nats = await connect(natsConnectionOptions(link, 'plinth-gateway'));
      this.natsAuthorizer = new NatsAuthorizer(this.nats);
      await this.natsAuthorizer.ready();
      return this.natsAuthorizer;
    }
    this.authorization = new LocalAuthorization(this.store, definitions, realClock, (err) => this.logger.warn(`authorization: ${(err as Error).message}`));
    await this.authorization.start();
    return this.authorization.authorizer;
  }
}

function uniqueIps(ips: string[]): string[] {
  return [...new Set(ips.filter((ip) => ip && ip !== '0.0.0.0' && ip !== '::'))];
}

// withPkiDefaults points the authentication flags the operator left unset at the generated
// PKI: client certificates signed by the cluster CA, service-account tokens signed by its key.
function withPkiDefaults(flags: ServerFlags, pki: ClusterPki): ServerFlags {
  return {
    ...flags,
    clientCAFile: flags.clientCAFile || pki.files.ca,
    serviceAccountSigningKeyFile: flags.serviceAccountSigningKeyFile || pki.files.serviceAccountKey,
  };
}
