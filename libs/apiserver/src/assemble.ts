// assembleApiServer builds a ready ApiServer from flags, a store and the type definitions (the
// handler and its context; @plinth/kube-apiserver's startApiServer serves it).
import { Clock, isStatusError, LinkState, realClock } from '@plinth/machinery';
import { ServiceAccountTokenLookup } from '@plinth/authn';
import { ObjectStore } from '@plinth/storage';
import { Registry } from '@plinth/metrics';
import { parseRuntimeConfig, ResourceCatalog, ResourceDefinition } from '@plinth/registry';
import { parseFeatureGates } from '@plinth/config';
import { ServerFlags } from './flags';
import { HealthCheck, HealthEndpoint } from './health';
import { ApiServer, NonResourceRoute } from './server';
import { AuthnAuthenticator } from './auth/authenticator';
import { authenticationConfig, serviceAccountTokenSigning } from './auth/config';
import { Authorizer } from '@plinth/rbac';
import { defaultVersion, ServerContext } from './server-context';
import { CustomResourceDefinitionController } from './crd-controller';
import { ApiServerMetrics, metricsRoute } from './metrics';
import { observeObjectCounts } from './object-count';
import { ServerLifecycle } from './http/lifecycle';
import { MaxInflightLimit } from './http/max-inflight';
import { openApiRoutes } from './openapi';


export interface AssembleOptions {
  flags: ServerFlags;
  storage: ObjectStore;
  definitions: ResourceDefinition[];
  clock?: Clock;
  extraRoutes?: (catalog: ResourceCatalog) => NonResourceRoute[];
  // ready reports whether start-up work (bootstrap objects) has finished, for /readyz.
  ready?: () => boolean;
  // authorizer answers may-you; the authenticator is built from the flags.
  authorizer: Authorizer;
  // metrics is the registry /metrics serves and the request metrics go to.
  metrics: Registry;
  // storageLink hears how the server's reads of storage fare (logged once when lost and back).
  storageLink?: LinkState;
  // readyChecks are added to /readyz: what else the server waits for (the authz service).
  readyChecks?: HealthCheck[];
}

export function assembleApiServer(options: AssembleOptions): ApiServer {
  const catalog = new ResourceCatalog(options.definitions, parseRuntimeConfig(options.flags.runtimeConfig));
  const authentication = authenticationConfig(options.flags);
  const auth = { authenticator: new AuthnAuthenticator(authentication), authorizer: options.authorizer };
  const context = new ServerContext(catalog, options.storage, options.clock ?? realClock, parseFeatureGates(options.flags.featureGates), {
    aliases: options.flags.k8sAliases,
    minRequestTimeoutSeconds: options.flags.minRequestTimeoutSeconds,
    version: defaultVersion,
    watchCache: options.flags.watchCache,
    watchCacheSize: options.flags.watchCacheSize,
    deleteCollectionWorkers: options.flags.deleteCollectionWorkers,
    // Behind a storage service, other gateways may write to the same storage.
    sharedStorage: options.flags.storageAddress !== '',
  }, auth);
  context.serviceAccountTokens = serviceAccountTokenSigning(options.flags);
  if (options.storageLink) context.storageLink = options.storageLink;
  // A service-account token dies with its account (and bound pod or secret), as
  // --service-account-lookup does by default.
  if (authentication.serviceAccountTokens) authentication.serviceAccountTokens.lookup = objectLookup(context);
  const crds = new CustomResourceDefinitionController(context, options.clock ?? realClock);
  crds.start();
  context.onStop(() => crds.stop());
  const registry = options.metrics;
  const metrics = new ApiServerMetrics(registry);
  context.onStop(observeObjectCounts(metrics.storageObjects, options.storage, () => catalog.all(), context.clock, options.flags.etcdCountMetricPollPeriodMs));
  context.watcherTerminated = (resource) => metrics.terminatedWatchers.labels(resource).inc();
  context.consistentRead = (resource, source) => metrics.consistentReads.labels(resource, source).inc();
  const limits = {
    inflight: new MaxInflightLimit(options.flags.maxRequestsInflight, options.flags.maxMutatingRequestsInflight),
    requestTimeoutMs: options.flags.requestTimeoutMs,
    lifecycle: new ServerLifecycle(context.clock),
  };
  const routes = [metricsRoute(registry), ...(options.extraRoutes?.(catalog) ?? []), openApiRoutes(catalog, { aliases: options.flags.k8sAliases })];
  return new ApiServer(context, healthChecks(options, limits.lifecycle), routes, metrics, limits);
}

function healthChecks(options: AssembleOptions, lifecycle: ServerLifecycle): Record<HealthEndpoint, HealthCheck[]> {
  const ok = async () => undefined;
  const storage: HealthCheck = { name: 'etcd', check: async () => void (await options.storage.currentRevision()) };
  const basic: HealthCheck[] = [{ name: 'ping', check: ok }, { name: 'log', check: ok }, storage];
  // postStartHooks are kube-apiserver 1.28's, in its order, for the parts Plinth has (no
  // priority and fairness, Services, PriorityClasses or aggregated APIs); each has run once the
  // server is assembled, but the bootstrap controller, which reports when it has.
  const postStartHooks: HealthCheck[] = [
    ...[
      'start-kube-apiserver-admission-initializer',
      'generic-apiserver-start-informers',
      'storage-object-count-tracker-hook',
      'start-apiextensions-informers',
      'start-apiextensions-controllers',
      'crd-informer-synced',
      'rbac/bootstrap-roles',
      'start-system-namespaces-controller',
    ].map((hook) => ({ name: `poststarthook/${hook}`, check: ok })),
    {
      name: 'poststarthook/bootstrap-controller',
      check: async () => {
        if (options.ready && !options.ready()) throw new Error('not finished');
      },
    },
  ];
  // The checks run in kube-apiserver's order: readyz adds etcd-readiness and informer-sync before
  // the post-start hooks, and shutdown last.
  return {
    healthz: [...basic, ...postStartHooks],
    livez: [...basic, ...postStartHooks],
    readyz: [
      ...basic,
      { name: 'etcd-readiness', check: storage.check },
      { name: 'informer-sync', check: ok },
      ...postStartHooks,
      ...(options.readyChecks ?? []),
      {
        name: 'shutdown',
        check: async () => {
          if (lifecycle.shutdownRequested) throw new Error('process is shutting down');
        },
      },
    ],
  };
}

function objectLookup(context: ServerContext): ServiceAccountTokenLookup {
  return async (resource, namespace, name) => {
    const def = context.catalog.lookup('', 'v1', resource);
    if (!def) return null;
    try {
      const object = await context.storeFor(def).get(namespace, name);
      return { uid: object.metadata.uid ?? '', deletionTimestamp: object.metadata.deletionTimestamp };
    } catch (err) {
      if (isStatusError(err) && err.code === 404) return null;
      throw err;
    }
  };
}
