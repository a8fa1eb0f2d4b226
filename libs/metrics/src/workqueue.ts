// The work queue metrics of client-go (k8s.io/client-go/util/workqueue, registered by
// component-base's workqueue metrics provider), per queue name.
import { Counter, CounterChild, exponentialBuckets, Gauge, GaugeChild, Histogram, HistogramChild, Registry } from './registry';

export interface WorkQueueMetrics {
  depth: GaugeChild;
  adds: CounterChild;
  retries: CounterChild;
  // workDuration observes how long processing one item took, in seconds.
  workDuration: HistogramChild;
}

export interface WorkQueueMetricsProvider {
  forQueue(name: string): WorkQueueMetrics;
}

export function workQueueMetricsProvider(registry: Registry): WorkQueueMetricsProvider {
  const depth = registry.shared(new Gauge({ name: 'workqueue_depth', help: '[ALPHA] Current depth of workqueue', labelNames: ['name'] }));
  const adds = registry.shared(new Counter({ name: 'workqueue_adds_total', help: '[ALPHA] Total number of adds handled by workqueue', labelNames: ['name'] }));
  const retries = registry.shared(new Counter({ name: 'workqueue_retries_total', help: '[ALPHA] Total number of retries handled by workqueue', labelNames: ['name'] }));
  const workDuration = registry.shared(
    new Histogram({
      name: 'workqueue_work_duration_seconds',
      help: '[ALPHA] How long in seconds processing an item from workqueue takes.',
      labelNames: ['name'],
      buckets: exponentialBuckets(10e-9, 10, 10),
    }),
  );
  return {
    forQueue: (name) => ({ depth: depth.labels(name), adds: adds.labels(name), retries: retries.labels(name), workDuration: workDuration.labels(name) }),
  };
}
