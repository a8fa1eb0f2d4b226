// ApiServerHost runs the API server inside a Nest application: it assembles the server over the
// app's ObjectStore, serves HTTPS, writes the admin kubeconfig, and creates the system
// namespaces on bootstrap. It starts whatever is down: it listens at once, /readyz saying what
// it waits for (`[-]etcd failed`, `[-]nats failed`), while it connects to NATS and
// writes the namespaces as soon as storage answers, retrying with backoff; it logs once when a
// link is lost and once when it is back, and serves plinth_link_up. It stops as kube-apiserver does: /readyz fails at once, the listener
// serves on for --shutdown-delay-duration, then the requests in flight finish (up to
// --request-timeout) and watches end (see --shutdown-watch-termination-grace-period), and only then are its NATS and storage clients closed.
// With --nats-url it asks the authz app over NATS; without, it runs RBAC in process.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Server } from 'node:https';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { NatsConnection } from 'nats';
import {
  adminKubeconfig,
  ApiServer,
  controllerManagerKubeconfig,
  assembleApiServer,
  Authorizer,
  ClusterPki,
  DeferredAuthorizer,
  ensureClusterPki,
  ensureSystemNamespaces,
  HealthCheck,
  listenHttps,
  ServerFlags,
} from '@plinth/apiserver';
import { LinkState, realClock, retryUntilDone } from '@plinth/machinery';
import { defaultRegistry, registerLinkMetric } from '@plinth/metrics';
import { LocalAuthorization } from '@plinth/authz';
import { AuthzLinkMetrics, connectNats, NatsAuthorizer, NatsLinkSettings } from '@plinth/authz-nats';
import { builtinDefinitions, ResourceDefinition } from '@plinth/registry';
import { HistoryCompactor, ObjectStore } from '@plinth/storage';
import { OBJECT_STORE } from '../storage/object-store.token';

export const SERVER_FLAGS = Symbol('ServerFlags');

@Injectable()
export class ApiServerHost implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('apiserver');
  private https: Server | null = null;
  private compactor: HistoryCompactor | null = null;
  private authorization: LocalAuthorization | null = null;
  private nats: NatsConnection | null = null;
  private natsAuthorizer: NatsAuthorizer | null = null;
  private bootstrapped = false;
  private stopped = false;
  private readonly links = { storage: new LinkState('storage', (line) => this.logger.warn(line)), nats: new LinkState('nats', (line) => this.logger.warn(line)) };
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
    const { authorizer, readyChecks, connected } = await this.startAuthorizer(definitions);
    const metrics = defaultRegistry();
    registerLinkMetric(metrics, this.flags.natsUrl ? [this.links.storage, this.links.nats] : [this.links.storage]);
    this.apiServer = assembleApiServer({
      authorizer,
      flags,
      storage: this.store,
      definitions,
      ready: () => this.bootstrapped,
      metrics,
      storageLink: this.links.storage,
      readyChecks,
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
    const listening = await listenHttps(this.apiServer, pki, this.flags.bindAddress, this.flags.securePort);
    this.https = listening.server;
    this.port = listening.port;
    const host = this.flags.bindAddress.includes(':') ? `[${this.flags.bindAddress}]` : this.flags.bindAddress;
    const kubeconfigPath = join(dataDir, 'admin.kubeconfig');
    const server = `https://${host === '0.0.0.0' ? '127.0.0.1' : host}:${this.port}`;
    writeFileSync(kubeconfigPath, adminKubeconfig(server, pki), { mode: 0o600 });
    // A separate controller manager (apps/controllers) runs with its own identity.
    writeFileSync(join(dataDir, 'controller-manager.kubeconfig'), controllerManagerKubeconfig(server, pki), { mode: 0o600 });
    const apiServer = this.apiServer;
    await retryUntilDone(() => ensureSystemNamespaces(apiServer), { clock: realClock, link: this.links.storage, stopped: () => this.stopped });
    this.bootstrapped = true;
    await connected;
    this.logger.log(`serving on https://${host}:${this.port}; admin kubeconfig: ${kubeconfigPath}`);
    this.markListening();
  }

  // beforeApplicationShutdown drains the listener while every client is still open.
  async beforeApplicationShutdown(signal?: string): Promise<void> {
    if (!this.https || !this.apiServer) return;
    this.logger.log(`${signal ?? 'shutdown'}: /readyz fails; serving ${this.flags.shutdownDelayMs} ms more, then draining`);
    await this.apiServer.limits.lifecycle.shutdown(this.https, {
      delayMs: this.flags.shutdownDelayMs,
      gracePeriodMs: this.flags.requestTimeoutMs,
      sendRetryAfter: this.flags.shutdownSendRetryAfter,
      watchGracePeriodMs: this.flags.shutdownWatchTerminationGracePeriodMs,
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.https?.closeAllConnections();
    if (this.https?.listening) this.https.close();
    this.compactor?.stop();
    this.authorization?.stop();
    this.natsAuthorizer?.close();
    this.apiServer?.close();
    if (this.nats && !this.nats.isClosed()) await this.nats.drain();
    await this.store.close();
  }

  // startAuthorizer asks the authz app over NATS when --nats-url is set; that app owns the
  // bootstrap policy and the ClusterRole aggregation. The connection to NATS is made in the
  // background: the gateway serves meanwhile, /readyz's nats check failing. Otherwise (the
  // all-in-one) RBAC, its bootstrap and aggregation run here.
  private async startAuthorizer(definitions: ResourceDefinition[]): Promise<{ authorizer: Authorizer; readyChecks: HealthCheck[]; connected: Promise<void> }> {
    if (this.flags.natsUrl) {
      const deferred = new DeferredAuthorizer('the connection to the authz service over NATS');
      const connected = this.connectAuthorizer(deferred);
      // Settings NATS refuses fail the start-up when awaited, not before as an unhandled rejection.
      connected.catch(() => undefined);
      return { authorizer: deferred, readyChecks: [deferred.readyCheck('nats')], connected };
    }
    this.authorization = new LocalAuthorization(this.store, definitions, realClock, (err) => this.logger.warn(`authorization: ${(err as Error).message}`), this.links.storage);
    await this.authorization.start();
    return { authorizer: this.authorization.authorizer, readyChecks: [], connected: Promise.resolve() };
  }

  private async connectAuthorizer(deferred: DeferredAuthorizer): Promise<void> {
    const settings = natsLinkOf(this.flags);
    const nats = await connectNats({ settings, name: 'plinth-gateway', link: this.links.nats });
    if (this.stopped) return void (await nats.close());
    this.nats = nats;
    this.natsAuthorizer = new NatsAuthorizer(nats, { metrics: new AuthzLinkMetrics(defaultRegistry()) });
    await this.natsAuthorizer.ready();
    deferred.set(this.natsAuthorizer);
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

// natsLinkOf is the gateway's NATS link as its flags describe it.
export function natsLinkOf(flags: ServerFlags): NatsLinkSettings {
  return { url: flags.natsUrl, caFile: flags.natsCAFile, user: flags.natsUser, passwordFile: flags.natsPasswordFile, insecure: flags.natsInsecure };
}
