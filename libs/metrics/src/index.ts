export { Counter, CounterChild, Exemplar, ExpositionFormat, FamilySnapshot, Gauge, GaugeChild, Histogram, HistogramChild, HistogramOptions, Label, Metric, MetricOptions, MetricsSource, MetricType, Registry, Sample, contentType, exponentialBuckets, formatNumber, negotiateExposition, openMetricsContentType } from './registry';
export { ProcessState, currentProcess, defaultRegistry, procReadings, registerProcessMetrics } from './process';
export { WorkQueueMetrics, WorkQueueMetricsProvider, workQueueMetricsProvider } from './workqueue';
export { leaderElectionStatus } from './leader-election';
export { Link, registerLinkMetric } from './link-up';
export { MetricsEndpoint, serveMetrics, splitHostPort } from './endpoint';
export { ControllerPodMetrics, controllerPodMetrics } from './controller-pods';
export { JobSyncAction, JobSyncMetrics, JobSyncResult, jobSyncMetrics } from './job-controller';
