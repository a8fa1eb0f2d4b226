import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiServer, defaultServerFlags, NonResourceRoute, parseFeatureGates, ServerFlags } from '@plinth/apiserver';
import { KubeObject } from '@plinth/api';
import { defaultControllerManagerFlags } from '@plinth/config';
import { ApiClient } from '@plinth/client';
import { ControllerManager, GarbageCollector, NamespaceController, ServiceAccountClients, ServiceAccountsController } from '@plinth/controller-manager';
import { startApiServer } from '@plinth/kube-apiserver';
import { Clock, realClock } from '@plinth/machinery';
import { eventually } from '@plinth/testing';
import { EmbeddedObjectStore, ObjectStore } from '@plinth/storage';
import { newPrivateKeyPem } from '@plinth/pki';

// testTokens are the bearer tokens of the static token file every test server reads: an
// administrator (system:masters) and two plain users.
export const testTokens = {
  admin: 'admin-token',
  alice: 'alice-token',
  bob: 'bob-token',
};

const tokenFile = [
  `${testTokens.admin},admin,admin-uid,"system:masters"`,
  `${testTokens.alice},alice,alice-uid,"developers"`,
  `${testTokens.bob},bob,bob-uid`,
].join('\n');

// defaultServiceAccountsMade waits until every namespace has its "default" ServiceAccount, so
// that a test starts once the service-account controller is done with the system namespaces.
async function defaultServiceAccountsMade(client: ApiClient, timeoutMs = 30000): Promise<void> {
  let missing: string[] = [];
  await eventually(
    async () => {
      const namespaces = (await client.list<KubeObject>('/api/v1/namespaces')).items.map((ns) => ns.metadata.name ?? '');
      const accounts = new Set((await client.list<KubeObject>('/api/v1/serviceaccounts')).items.filter((sa) => sa.metadata.name === 'default').map((sa) => sa.metadata.namespace));
      missing = namespaces.filter((ns) => !accounts.has(ns));
      return missing.length === 0;
    },
    { what: () => `the default service accounts of ${missing.join(', ')}`, timeoutMs, intervalMs: 20 },
  );
}

export interface TestApiServer {
  readonly url: string;
  readonly apiServer: ApiServer;
  readonly store: ObjectStore;
  // ca is the cluster CA's certificate (PEM) when the server serves HTTPS, '' otherwise.
  readonly ca: string;
  // serviceAccountKey is the service-account signing key (PEM).
  readonly serviceAccountKey: string;
  stop(): Promise<void>;
}

export interface TestApiServerOptions {
  store?: ObjectStore;
  clock?: Clock;
  // https serves over TLS with a cluster PKI made for the run, whose CA is also the client CA.
  https?: boolean;
  // extraRoutes are served before the OpenAPI routes (tests that inject a failing route).
  extraRoutes?: NonResourceRoute[];
  // namespaceDeletionGracePeriodMs is how long the namespace controller lets a terminating
  // namespace be before it empties it (0 by default; Kubernetes waits 5 s).
  namespaceDeletionGracePeriodMs?: number;
  // garbageCollector runs the garbage collector too (over the resources served at start), as
  // its own service account.
  garbageCollector?: boolean;
  // workloadControllers runs the controller manager's Job, DaemonSet, TTL-after-finished and
  // garbage-collector controllers too (with the server's feature gates, without leader election
  // and without the node simulator: pods stay Pending and unbound until a test writes their
  // status, as on a kube-controller-manager without a scheduler and kubelets).
  workloadControllers?: boolean;
}

const workloadControllerNames = ['job', 'daemonset', 'ttl-after-finished', 'garbagecollector'];

// startTestApiServer starts the API server as the apps do (@plinth/kube-apiserver's
// startApiServer), over plain HTTP (HTTPS with options.https) on a free loopback port, on an
// embedded store (or the one given), for HTTP-level tests. The namespace and service-account
// controllers run against it as clients (their service accounts, obtained with the admin token),
// so that deleted namespaces are emptied and go away and every namespace gets its "default"
// ServiceAccount (which new pods run as); the namespace controller starts work on a terminating
// namespace at once, without Kubernetes' 5 s grace period (unless options ask for it), and both
// run on the real clock
// whatever clock the server has.
export async function startTestApiServer(flags: Partial<ServerFlags> = {}, options: TestApiServerOptions = {}): Promise<TestApiServer> {
  const store = options.store ?? new EmbeddedObjectStore({ progressNotifyIntervalMs: 200 });
  const dir = mkdtempSync(join(tmpdir(), 'plinth-test-server-'));
  writeFileSync(join(dir, 'tokens.csv'), tokenFile);
  const serviceAccountKey = await newPrivateKeyPem();
  writeFileSync(join(dir, 'sa.key'), serviceAccountKey);
  const server = await startApiServer({
    flags: { ...defaultServerFlags, dataDir: dir, bindAddress: '127.0.0.1', securePort: 0, tokenAuthFile: join(dir, 'tokens.csv'), serviceAccountSigningKeyFile: join(dir, 'sa.key'), ...flags },
    store,
    transport: options.https ? 'https' : 'http',
    clock: options.clock,
    extraRoutes: options.extraRoutes,
  });
  await server.ready;
  const url = server.url;
  const ca = server.pki?.ca.cert ?? '';
  const root = new ApiClient({ server: url, caPem: ca, token: testTokens.admin, userAgent: 'kube-controller-manager/v1.28.0' });
  const identities = new ServiceAccountClients(root, { server: url, caPem: ca, userAgent: 'kube-controller-manager/v1.28.0' }, realClock);
  const namespaces = new NamespaceController(await identities.clientFor('namespace-controller'), realClock, { deletionGracePeriodMs: options.namespaceDeletionGracePeriodMs ?? 0 });
  await namespaces.start();
  const serviceAccounts = new ServiceAccountsController(await identities.clientFor('service-account-controller'), realClock, { informerClient: root });
  await serviceAccounts.start();
  const garbageCollector = options.garbageCollector ? new GarbageCollector(await identities.clientFor('generic-garbage-collector'), realClock, { workers: 2 }) : undefined;
  await garbageCollector?.start();
  const workloads = options.workloadControllers ? workloadControllerManager(url, ca, flags.featureGates) : undefined;
  await workloads?.start();
  await defaultServiceAccountsMade(root);
  return {
    url,
    apiServer: server.apiServer,
    store,
    ca,
    serviceAccountKey,
    async stop() {
      await namespaces.stop();
      await serviceAccounts.stop();
      await garbageCollector?.stop();
      await workloads?.stop();
      identities.stop();
      root.close();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
      if (!options.store) await store.close();
    },
  };
}

// workloadControllerManager is a ControllerManager of the workload controllers (see
// TestApiServerOptions.workloadControllers) as the administrator of the server at url.
function workloadControllerManager(url: string, ca: string, featureGates: string | undefined): ControllerManager {
  return new ControllerManager({
    credentials: async () => ({ server: url, caPem: ca, token: testTokens.admin }),
    settings: {
      controllers: workloadControllerNames,
      controllerWorkers: {},
      minResyncPeriodMs: defaultControllerManagerFlags.minResyncPeriodMs,
      namespaceSyncPeriodMs: defaultControllerManagerFlags.namespaceSyncPeriodMs,
      leaderElection: { ...defaultControllerManagerFlags.leaderElection, leaderElect: false },
      simulatedNodes: 0,
      featureGates: parseFeatureGates(featureGates),
    },
    log: { log: () => undefined, warn: (line) => console.warn(`controllers: ${line}`) },
  });
}
