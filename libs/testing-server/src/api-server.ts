import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { Server as HttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalAuthorization } from '@plinth/authz';
import { AddressInfo } from 'node:net';
import { ApiServer, assembleApiServer, defaultServerFlags, ensureClusterPki, ensureSystemNamespaces, httpServerOptions, listenHttps, NonResourceRoute, serveHttpAsGo, ServerFlags } from '@plinth/apiserver';
import { KubeObject } from '@plinth/api';
import { ApiClient } from '@plinth/client';
import { NamespaceController, ServiceAccountClients, ServiceAccountsController } from '@plinth/controller-manager';
import { Clock, realClock } from '@plinth/machinery';
import { builtinDefinitions } from '@plinth/registry';
import { EmbeddedObjectStore, ObjectStore } from '@plinth/storage';

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
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const namespaces = (await client.list<KubeObject>('/api/v1/namespaces')).items.map((ns) => ns.metadata.name ?? '');
    const accounts = new Set((await client.list<KubeObject>('/api/v1/serviceaccounts')).items.filter((sa) => sa.metadata.name === 'default').map((sa) => sa.metadata.namespace));
    if (namespaces.every((ns) => accounts.has(ns))) return;
    if (Date.now() > deadline) throw new Error(`the default service accounts of ${namespaces.filter((ns) => !accounts.has(ns)).join(', ')} were never made`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
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
}

// startTestApiServer serves the real API server handler over plain HTTP on a free loopback port,
// on an embedded store (or the one given), for HTTP-level tests. The namespace and service-account
// controllers run against it as clients (their service accounts, obtained with the admin token),
// so that deleted namespaces are emptied and go away and every namespace gets its "default"
// ServiceAccount (which new pods run as); the namespace controller starts work on a terminating
// namespace at once, without Kubernetes' 5 s grace period, and both run on the real clock
// whatever clock the server has.
export async function startTestApiServer(flags: Partial<ServerFlags> = {}, options: TestApiServerOptions = {}): Promise<TestApiServer> {
  const store = options.store ?? new EmbeddedObjectStore({ progressNotifyIntervalMs: 200 });
  const dir = mkdtempSync(join(tmpdir(), 'plinth-test-server-'));
  writeFileSync(join(dir, 'tokens.csv'), tokenFile);
  const serviceAccountKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  writeFileSync(join(dir, 'sa.key'), serviceAccountKey);
  const clusterPki = options.https ? ensureClusterPki(dir, { dns: ['localhost'], ips: ['127.0.0.1'] }) : undefined;
  const definitions = builtinDefinitions();
  const authorization = new LocalAuthorization(store, definitions, options.clock ?? realClock);
  await authorization.start();
  const apiServer = assembleApiServer({
    authorizer: authorization.authorizer,
    flags: { ...defaultServerFlags, tokenAuthFile: join(dir, 'tokens.csv'), serviceAccountSigningKeyFile: join(dir, 'sa.key'), ...(clusterPki ? { clientCAFile: clusterPki.files.ca } : {}), ...flags },
    storage: store,
    definitions,
    clock: options.clock,
    extraRoutes: () => options.extraRoutes ?? [],
  });
  await ensureSystemNamespaces(apiServer);
  let server: Server | HttpsServer;
  let url: string;
  if (clusterPki) {
    const served = await listenHttps(apiServer, clusterPki, '127.0.0.1', 0);
    server = served.server;
    url = `https://127.0.0.1:${served.port}`;
  } else {
    server = createServer(httpServerOptions, apiServer.handle);
    serveHttpAsGo(server, apiServer.handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  const ca = clusterPki?.ca.cert ?? '';
  const root = new ApiClient({ server: url, caPem: ca, token: testTokens.admin, userAgent: 'kube-controller-manager/v1.28.0' });
  const identities = new ServiceAccountClients(root, { server: url, caPem: ca, userAgent: 'kube-controller-manager/v1.28.0' }, realClock);
  const namespaces = new NamespaceController(await identities.clientFor('namespace-controller'), realClock, { deletionGracePeriodMs: 0 });
  await namespaces.start();
  const serviceAccounts = new ServiceAccountsController(await identities.clientFor('service-account-controller'), realClock, { informerClient: root });
  await serviceAccounts.start();
  await defaultServiceAccountsMade(root);
  return {
    url,
    apiServer,
    store,
    ca,
    serviceAccountKey,
    async stop() {
      await namespaces.stop();
      await serviceAccounts.stop();
      identities.stop();
      root.close();
      authorization.stop();
      apiServer.close();
      rmSync(dir, { recursive: true, force: true });
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!options.store) await store.close();
    },
  };
}
