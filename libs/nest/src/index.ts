export { OBJECT_STORE } from './storage/object-store.token';
export { ApiServerHost, SERVER_FLAGS } from './apiserver/api-server.host';
export { controllerManagerSettings } from './controllers/controller-manager-settings';
export { ControllersHost, CONTROLLER_CREDENTIALS, CONTROLLER_MANAGER_SETTINGS, ControllerCredentials, LEADER_MIGRATION } from './controllers/controllers.host';
export { inProcessCredentials } from './controllers/in-process-credentials';
export { kubeconfigCredentials } from './controllers/kubeconfig-credentials';
export { withTracing } from './telemetry/tracing.module';
export { withMetrics, MetricsHost } from './telemetry/metrics.module';
export { installLastResortLogging } from './process/last-resort';
