export { ApiServer, NonResourceRoute } from './server';
export { ServerContext, ServerOptions, VersionInfo, defaultVersion } from './server-context';
export { HealthCheck, HealthEndpoint } from './health';
export { parseRequestInfo, RequestInfo } from './request-info';
