export { ApiServer, NonResourceRoute } from './server';
export { ApiServerMetrics, requestDurationBuckets } from './metrics';
export { ServerContext, ServerOptions, VersionInfo, defaultVersion } from './server-context';
export { HealthCheck, HealthEndpoint } from './health';
export { parseRequestInfo, RequestInfo } from './request-info';
export { assembleApiServer, AssembleOptions } from './assemble';
export { ensureSystemNamespaces, systemNamespaces } from './bootstrap';
export { listenHttps } from './https';
export { httpServerOptions, serveHttpAsGo } from './http/framing';
export { RequestBoundary } from './http/request-boundary';
export { ensureClusterPki, ensureServiceAccountKey, adminKubeconfig, controllerManagerKubeconfig, ClusterPki, KeyPairPem } from './pki';
export { parseServerFlags, defaultServerFlags, serverFlagSet, ServerFlags } from './flags';
export { FlagError } from '@plinth/config';
// The feature gates are libs/config's (the controller manager's worker thread parses them without
// loading the API server); the API server's users take them from here as well.
export { defaultFeatureGates, FeatureGateError, parseFeatureGates } from '@plinth/config';
export { openApiRoutes } from './openapi';
export { Authenticator, AuthenticationOutcome } from './auth/ports';
export type { Authorizer } from '@plinth/rbac';
export { DeferredAuthorizer } from './auth/deferred-authorizer';
export { ServerLifecycle, ShutdownTiming } from './http/lifecycle';
export { authenticationConfig, serviceAccountTokenSigning, defaultServiceAccountIssuer } from './auth/config';
