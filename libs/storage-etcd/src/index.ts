export { EtcdObjectStore } from './etcd-object-store';
export { EtcdObjectStoreOptions, EtcdTls } from './client';
export { EndpointDbSize, EtcdDbSizeMonitor, defaultDbMetricPollIntervalMs, observeDbSize } from './db-size';
export { EtcdOperation, EtcdRequestMetrics, keyType } from './request-metrics';
