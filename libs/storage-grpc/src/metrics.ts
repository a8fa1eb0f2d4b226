// StorageLinkMetrics is how an API server or authz sees its link to the storage service:
// plinth_storage_request_duration_seconds, per operation (Get, List, Create, ...) and outcome
// (OK, or the StorageError code: KeyNotFound, Conflict, Unreachable, ...), with the buckets of
// kube-apiserver's etcd_request_duration_seconds. Its _count by code is the error rate. A call
// made in a sampled trace leaves that trace as its bucket's exemplar.
import { Histogram, Registry } from '@plinth/metrics';
import { StorageError } from '@plinth/storage';
import { sampledTraceId } from '@plinth/telemetry';

const buckets = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

export class StorageLinkMetrics {
  private readonly duration: Histogram;

  constructor(registry: Registry) {
    this.duration = registry.shared(
      new Histogram({
        name: 'plinth_storage_request_duration_seconds',
        help: 'Latency of the calls to the storage service in seconds, by operation and outcome (OK or the storage error code).',
        labelNames: ['operation', 'code'],
        buckets,
      }),
    );
  }

  async measure<T>(operation: string, call: () => Promise<T>): Promise<T> {
    const started = performance.now();
    let code = 'OK';
    try {
      return await call();
    } catch (err) {
      code = err instanceof StorageError ? err.code : 'Unknown';
      throw err;
    } finally {
      this.duration.labels(operation, code).observeInTrace((performance.now() - started) / 1000, sampledTraceId());
    }
  }
}
