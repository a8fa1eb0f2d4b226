// startApiServer is the one composition root of the API server (~ cmd/kube-apiserver/app's
// CreateServerChain and Run), used by the all-in-one, the gateway (both through libs/nest's
// ApiServerHost) and the test servers (libs/testing-server). It assembles the server over a
// store, serves it, and starts whatever is down: it listens at once, /readyz saying what it
// waits for (`[-]etcd failed`, `[-]nats failed`), while the authorizer connects and the system
// namespaces are written as soon as storage answers, retrying with backoff; it logs once when
// a link is lost and once when it is back, and serves plinth_link_up. Over HTTPS it serves
// with the cluster PKI under --data-dir (made when missing; the authentication flags left
// unset point at it) and writes the admin and controller-manager kubeconfigs beside it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, Server as HttpServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import {
  adminKubeconfig,
  ApiServer,
  assembleApiServer,
  ClusterPki,
  controllerManagerKubeconfig,
  ensureClusterPki,
  ensureServiceAccountKey,
  ensureSystemNamespaces,
  httpServerOptions,
  listenHttps,
  NonResourceRoute,
  serveHttpAsGo,
  ServerFlags,
} from '@plinth/apiserver';
import { Clock, LinkState, realClock, retryUntilDone } from '@plinth/machinery';
import { Registry, registerLinkMetric, registerProcessMetrics } from '@plinth/metrics';
import { builtinDefinitions } from '@plinth/registry';
import { HistoryCompactor, ObjectStore } from '@plinth/storage';
import { startAuthorization } from './authorization';

// ApiServerLog is where the server's start-up, link and shutdown lines go (Nest's Logger is one).
export interface ApiServerLog {
  log(line: string): void;
  warn(line: string): void;
}

export const silentLog: ApiServerLog = { log: () => undefined, warn: () => undefined };

export interface StartApiServerOptions {
  flags: ServerFlags;
  store: ObjectStore;
  // transport is 'https' (the default, as every app serves) or 'http': plain HTTP without a
  // PKI or kubeconfigs, for HTTP-level tests, whose flags then name the service-account key.
  transport?: 'https' | 'http';
  clock?: Clock;
  // metrics is the registry /metrics serves (the process's in an app); a new one with the
  // process metrics when absent.
  metrics?: Registry;
  // extraRoutes are served before the OpenAPI routes (tests that inject a failing route).
  extraRoutes?: NonResourceRoute[];
  log?: ApiServerLog;
}

export interface RunningApiServer {
  readonly apiServer: ApiServer;
  // url is where a client on this machine reaches the server (127.0.0.1 for 0.0.0.0).
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  // pki is the cluster PKI the server serves with (null over plain HTTP).
  readonly pki: ClusterPki | null;
  // adminKubeconfig is the path of the administrator's kubeconfig ('' over plain HTTP).
  readonly adminKubeconfig: string;
  // ready resolves once the start-up work is done: the system namespaces written and the
  // authorizer answering. It rejects when NATS refuses the link's settings.
  readonly ready: Promise<void>;
  // drain shuts down as kube-apiserver does: /readyz fails at once, the listener serves on for
  // --shutdown-delay-duration, then the requests in flight finish (up to --request-timeout)
  // and watches end (see --shutdown-watch-termination-grace-period).
  drain(signal?: string): Promise<void>;
  // stop closes the listener, the compactor, the authorizer and its NATS link; the store stays
  // open for its owner to close.
  stop(): Promise<void>;
}

export async function startApiServer(options: StartApiServerOptions): Promise<RunningApiServer> {
  const log = options.log ?? silentLog;
  const clock = options.clock ?? realClock;
  const dataDir = resolve(options.flags.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const pki = options.transport === 'http' ? null : ensureClusterPki(dataDir, { dns: ['localhost', 'plinth'], ips: uniqueIps(['127.0.0.1', '::1', options.flags.bindAddress]) });
  const flags = pki ? await withPkiDefaults(options.flags, dataDir, pki) : options.flags;
  const links = { storage: new LinkState('storage', log.warn.bind(log)), nats: new LinkState('nats', log.warn.bind(log)) };
  const metrics = options.metrics ?? processRegistry();
  registerLinkMetric(metrics, flags.natsUrl ? [links.storage, links.nats] : [links.storage]);
  const definitions = builtinDefinitions();
  const authorization = await startAuthorization({ flags, store: options.store, definitions, clock, metrics, links, warn: log.warn.bind(log) });
  let bootstrapped = false;
  let stopped = false;
  const apiServer = assembleApiServer({
    authorizer: authorization.authorizer,
    flags,
    storage: options.store,
    definitions,
    clock,
    extraRoutes: () => options.extraRoutes ?? [],
    ready: () => bootstrapped,
    metrics,
    storageLink: links.storage,
    readyChecks: authorization.readyChecks,
  });
  // The process that owns its storage keeps its history window; behind a storage service
  // (--storage-address) that service does.
  const compactor = flags.storageAddress
    ? null
    : new HistoryCompactor(options.store, { windowMs: flags.historyWindowSeconds * 1000, clock, onError: (err) => log.warn(`compaction failed: ${(err as Error).message}`) });
  compactor?.start();
  const listener = pki ? await listenHttps(apiServer, pki, flags.bindAddress, flags.securePort) : await listenHttp(apiServer, flags.bindAddress, flags.securePort);
  const url = `${pki ? 'https' : 'http'}://${clientHost(flags.bindAddress)}:${listener.port}`;
  const kubeconfig = pki ? writeKubeconfigs(dataDir, url, pki) : '';
  const ready = (async () => {
    await retryUntilDone(() => ensureSystemNamespaces(apiServer), { clock, link: links.storage, stopped: () => stopped });
    bootstrapped = true;
    await authorization.connected;
  })();
  ready.catch(() => undefined);
  return {
    apiServer,
    url,
    port: listener.port,
    dataDir,
    pki,
    adminKubeconfig: kubeconfig,
    ready,
    async drain(signal?: string) {
      log.log(`${signal ?? 'shutdown'}: /readyz fails; serving ${flags.shutdownDelayMs} ms more, then draining`);
      await apiServer.limits.lifecycle.shutdown(listener.server, {
        delayMs: flags.shutdownDelayMs,
        gracePeriodMs: flags.requestTimeoutMs,
        sendRetryAfter: flags.shutdownSendRetryAfter,
        watchGracePeriodMs: flags.shutdownWatchTerminationGracePeriodMs,
      });
    },
    async stop() {
      stopped = true;
      listener.server.closeAllConnections();
      const closed = listener.server.listening ? new Promise<void>((done) => listener.server.close(() => done())) : Promise.resolve();
      compactor?.stop();
      await authorization.stop();
      apiServer.close();
      await closed;
    },
  };
}

async function listenHttp(apiServer: ApiServer, host: string, port: number): Promise<{ server: HttpServer; port: number }> {
  const server = createServer(httpServerOptions, apiServer.handle);
  serveHttpAsGo(server, apiServer.handle);
  await new Promise<void>((done, reject) => {
    server.once('error', reject);
    server.listen(port, host, done);
  });
  return { server, port: (server.address() as AddressInfo).port };
}

// writeKubeconfigs writes the administrator's kubeconfig and the one a separate controller
// manager (apps/controllers) runs with, its own identity; it returns the administrator's path.
function writeKubeconfigs(dataDir: string, url: string, pki: ClusterPki): string {
  const admin = join(dataDir, 'admin.kubeconfig');
  writeFileSync(admin, adminKubeconfig(url, pki), { mode: 0o600 });
  writeFileSync(join(dataDir, 'controller-manager.kubeconfig'), controllerManagerKubeconfig(url, pki), { mode: 0o600 });
  return admin;
}

function clientHost(bindAddress: string): string {
  if (bindAddress === '0.0.0.0' || bindAddress === '') return '127.0.0.1';
  return bindAddress.includes(':') ? `[${bindAddress}]` : bindAddress;
}

function uniqueIps(ips: string[]): string[] {
  return [...new Set(ips.filter((ip) => ip && ip !== '0.0.0.0' && ip !== '::'))];
}

// withPkiDefaults points the authentication flags the operator left unset at the generated
// PKI: client certificates signed by the cluster CA, service-account tokens signed by its key
// (made only when no flag names one).
async function withPkiDefaults(flags: ServerFlags, dataDir: string, pki: ClusterPki): Promise<ServerFlags> {
  return {
    ...flags,
    clientCAFile: flags.clientCAFile || pki.files.ca,
    serviceAccountSigningKeyFile: flags.serviceAccountSigningKeyFile || (await ensureServiceAccountKey(dataDir)),
  };
}

function processRegistry(): Registry {
  const registry = new Registry();
  registerProcessMetrics(registry);
  return registry;
}
