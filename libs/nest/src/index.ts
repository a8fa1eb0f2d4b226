// @plinth/nest: what every app's root module takes (tracing, metrics, last-resort logging, the
// object store's injection token). Each host has its own entry point, @plinth/nest/storage,
// /authz, /apiserver and /controllers, so that an app loads the libraries of its own part only
// (the storage service neither the API server nor the controllers, and so on).
export { OBJECT_STORE } from './storage/object-store.token';
export { clientSpans, syncSpans, withTracing } from './telemetry/tracing.module';
export { withMetrics, MetricsHost } from './telemetry/metrics.module';
export { installLastResortLogging } from './process/last-resort';
