// EtcdRequestMetrics are kube-apiserver's etcd request metrics (k8s.io/apiserver/pkg/storage/
// etcd3/metrics) as the storage service sees its requests to etcd: etcd_request_duration_seconds
// (its buckets; a request made in a sampled trace leaves it as its bucket's exemplar),
// etcd_requests_total and etcd_request_errors_total (etcd did not answer, or refused the
// request), by operation (get, list, create, update, delete, currentRevision, compact) and type
// (the key prefix of the resource: "/registry/core/pods/").
import { Counter, CounterChild, Histogram, HistogramChild, Registry } from '@plinth/metrics';
import { sampledTraceId } from '@plinth/telemetry';

const buckets = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

export type EtcdOperation = 'get' | 'list' | 'create' | 'update' | 'delete' | 'currentRevision' | 'compact';

interface Series {
  duration: HistogramChild;
  requests: CounterChild;
  errors: CounterChild;
}

export class EtcdRequestMetrics {
  private readonly duration: Histogram;
  private readonly requests: Counter;
  private readonly errors: Counter;
  private readonly series = new Map<string, Series>();

  constructor(registry: Registry) {
    const labelNames = ['operation', 'type'];
    this.duration = registry.shared(new Histogram({ name: 'etcd_request_duration_seconds', help: '[ALPHA] Etcd request latency in seconds for each operation and object type.', labelNames, buckets }));
    this.requests = registry.shared(new Counter({ name: 'etcd_requests_total', help: '[ALPHA] Etcd request counts for each operation and object type.', labelNames }));
    this.errors = registry.shared(new Counter({ name: 'etcd_request_errors_total', help: '[ALPHA] Etcd failed request counts for each operation and object type.', labelNames }));
  }

  async measure<T>(operation: EtcdOperation, key: string, call: () => Promise<T>): Promise<T> {
    const series = this.seriesOf(operation, keyType(key));
    const started = performance.now();
    try {
      return await call();
    } catch (err) {
      series.errors.inc();
      throw err;
    } finally {
      series.requests.inc();
      series.duration.observeInTrace((performance.now() - started) / 1000, sampledTraceId());
    }
  }

  private seriesOf(operation: string, type: string): Series {
    const id = `${operation} ${type}`;
    let series = this.series.get(id);
    if (!series) {
      series = { duration: this.duration.labels(operation, type), requests: this.requests.labels(operation, type), errors: this.errors.labels(operation, type) };
      this.series.set(id, series);
    }
    return series;
  }
}

// keyType is the resource prefix of a key, /registry/<group>/<resource>/, so that the series
// are one per resource, not per object; a key outside that layout is its own type.
export function keyType(key: string): string {
  let slash = -1;
  for (let found = 0; found < 4; found++) {
    slash = key.indexOf('/', slash + 1);
    if (slash < 0) return key;
  }
  return key.slice(0, slash + 1);
}
