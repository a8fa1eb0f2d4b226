export { startApiServer, StartApiServerOptions, RunningApiServer, ApiServerLog, silentLog } from './start-api-server';
export { startAuthorization, Authorization, AuthorizationOptions, natsLinkOf } from './authorization';
