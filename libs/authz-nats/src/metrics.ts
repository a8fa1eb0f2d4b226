// AuthzLinkMetrics is how an API server sees its authorizer over NATS:
// plinth_authz_decisions_total by source (privileged: system:masters, allowed without asking;
// cache: a decision kept; authz: asked), whose cache share is the cache hit ratio, and
// plinth_authz_request_duration_seconds per operation (Authorize, RulesReview, RbacWrite) and
// result (OK, Unavailable when no authz replica answered, Error), which also tells when authz
// is unreachable. A question asked in a sampled trace leaves that trace as its bucket's exemplar.
import { Counter, CounterChild, Histogram, Registry } from '@plinth/metrics';
import { sampledTraceId } from '@plinth/telemetry';

const buckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export class AuthzLinkMetrics {
  readonly privileged: CounterChild;
  readonly cached: CounterChild;
  readonly asked: CounterChild;
  private readonly duration: Histogram;

  constructor(registry: Registry) {
    const decisions = registry.shared(
      new Counter({ name: 'plinth_authz_decisions_total', help: 'Authorization decisions by where they came from: privileged, cache or authz.', labelNames: ['source'] }),
    );
    this.privileged = decisions.labels('privileged');
    this.cached = decisions.labels('cache');
    this.asked = decisions.labels('authz');
    this.duration = registry.shared(
      new Histogram({
        name: 'plinth_authz_request_duration_seconds',
        help: 'Latency of the questions to the authz service over NATS in seconds, retries included, by operation and result (OK, Unavailable or Error).',
        labelNames: ['operation', 'result'],
        buckets,
      }),
    );
  }

  observe(operation: string, result: 'OK' | 'Unavailable' | 'Error', seconds: number): void {
    this.duration.labels(operation, result).observeInTrace(seconds, sampledTraceId());
  }
}
