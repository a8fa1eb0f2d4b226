// StorageLinkMetrics is how an API server or authz sees its link to the storage service:
// plinth_storage_request_duration_seconds, per operation (Get, List, Create, ...) and outcome
// (OK, or the StorageError code: KeyNotFound, Conflict, Timeout, Unreachable, ...), with the
// buckets of kube-apiserver's etcd_request_duration_seconds (its _count by code is the error
// rate; a call made in a sampled trace leaves that trace as its bucket's exemplar);
// plinth_storage_pending_calls, the calls sent and not yet answered (a storage service that
// stopped answering shows as a climb towards the link's cap); and
// plinth_storage_calls_refused_total, the calls refused at once because that cap was reached.
import { Counter, Gauge, Histogram, Registry } from '@plinth/metrics';
import { StorageError } from '@plinth/storage';
import { sampledTraceId } from '@plinth/telemetry';
import { CallObserver } from './transports';

const buckets = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

export class StorageLinkMetrics implements CallObserver {
  private readonly duration: Histogram;
  private readonly pendingCalls: Gauge;
  private readonly refusedCalls: Counter;

  constructor(registry: Registry) {
    this.duration = registry.shared(
      new Histogram({
        name: 'plinth_storage_request_duration_seconds',
        help: 'Latency of the calls to the storage service in seconds, by operation and outcome (OK or the storage error code).',
        labelNames: ['operation', 'code'],
        buckets,
      }),
    );
    this.pendingCalls = registry.shared(
      new Gauge({ name: 'plinth_storage_pending_calls', help: 'Calls to the storage service sent and awaiting their answers (watches and lists not counted).' }),
    );
    this.refusedCalls = registry.shared(
      new Counter({ name: 'plinth_storage_calls_refused_total', help: 'Calls to the storage service refused at once because the pending calls reached the link\'s cap.' }),
    );
    // Both series exist from the start: 0, not "no data", on a healthy link.
    this.pendingCalls.labels();
    this.refusedCalls.labels();
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

  pending(delta: number): void {
    this.pendingCalls.labels().inc(delta);
  }

  refused(): void {
    this.refusedCalls.inc();
  }
}
