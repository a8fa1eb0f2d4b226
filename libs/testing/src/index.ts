export { freePort } from './ports';
export { findBinary, etcdBinary, natsBinary, prometheusBinary, RequiredBinary } from './binaries';
export { startEtcd, EtcdServer, EtcdOptions } from './etcd';
export { startNats, NatsServer, NatsOptions } from './nats';
export { startPrometheus, PrometheusExemplars, PrometheusOptions, PrometheusServer, PrometheusQueryResult } from './prometheus';
export { startProcess, waitForPort, waitForOutput, RunningProcess } from './process';
export { FakeClock } from './fake-clock';
export { startOtlpReceiver, OtlpReceiver, ReceivedSpan } from './otlp-receiver';
export { makeLinkPki, LinkPki, LinkTls, NatsCredentials, storageServingFlags, etcdClientFlags, storageClientFlags, natsClientFlags } from './pki';
