// ApiServerMetrics are kube-apiserver's request metrics (k8s.io/apiserver/pkg/endpoints/metrics)
// under their Kubernetes names and labels: apiserver_request_total, the
// apiserver_request_duration_seconds histogram with its buckets, the in-flight and long-running
// gauges, apiserver_storage_objects (set by observeObjectCounts) and apiserver_terminated_watchers_total. A request costs two cached
// child lookups and a few additions; the text is built when /metrics is scraped.
import { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Counter, Gauge, GaugeChild, Histogram, negotiateExposition, Registry } from '@plinth/metrics';
import { writeText } from './http/respond';
import { RequestInfo } from './request-info';
import { NonResourceRoute } from './server';

// requestDurationBuckets are apiserver_request_duration_seconds' buckets in Kubernetes 1.28.
export const requestDurationBuckets = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

const requestLabels = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'];

// instrumentedPaths are the non-resource roots counted (as kube-apiserver instruments its health
// and discovery handlers); other paths are not, so that a scan of random URLs adds no series.
const instrumentedPaths = new Set(['api', 'apis', 'healthz', 'livez', 'readyz', 'metrics', 'version', 'openapi']);

// reportedVerbs are kube-apiserver's validRequestMethods; any other verb is reported as "other".
const reportedVerbs = new Set(['APPLY', 'CONNECT', 'CREATE', 'DELETE', 'DELETECOLLECTION', 'GET', 'LIST', 'PATCH', 'POST', 'PROXY', 'PUT', 'UPDATE', 'WATCH', 'WATCHLIST']);

// RequestObservation is one request being measured.
export interface RequestObservation {
  labels: string[];
  started: number;
  gauge: GaugeChild;
  // resource says the request names a served resource; a non-resource request is counted only
  // when something serves its path (not 404).
  resource: boolean;
  // traceId is the request's sampled trace, kept as the latency's exemplar.
  traceId?: string | null;
}

export class ApiServerMetrics {
  readonly requests: Counter;
  readonly duration: Histogram;
  readonly inflight: Gauge;
  readonly longRunning: Gauge;
  readonly storageObjects: Gauge;
  readonly terminations: Counter;
  readonly terminatedWatchers: Counter;
  readonly consistentReads: Counter;
  readonly postTimeouts: Counter;
  private readonly readOnly: GaugeChild;
  private readonly mutating: GaugeChild;

  constructor(readonly registry: Registry) {
    this.requests = registry.shared(
      new Counter({
        name: 'apiserver_request_total',
        help: '[STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
        labelNames: [...requestLabels, 'code'],
      }),
    );
    this.duration = registry.shared(
      new Histogram({
        name: 'apiserver_request_duration_seconds',
        help: '[STABLE] Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
        labelNames: requestLabels,
        buckets: requestDurationBuckets,
      }),
    );
    this.inflight = registry.shared(
      new Gauge({ name: 'apiserver_current_inflight_requests', help: '[STABLE] Maximal number of currently used inflight request limit of this apiserver per request kind in last second.', labelNames: ['request_kind'] }),
    );
    this.readOnly = this.inflight.labels('readOnly');
    this.mutating = this.inflight.labels('mutating');
    this.longRunning = registry.shared(
      new Gauge({
        name: 'apiserver_longrunning_requests',
        help: '[STABLE] Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
        labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'],
      }),
    );
    this.storageObjects = registry.shared(
      new Gauge({ name: 'apiserver_storage_objects', help: '[STABLE] Number of stored objects at the time of last check split by kind.', labelNames: ['resource'] }),
    );
    this.terminations = registry.shared(
      new Counter({
        name: 'apiserver_request_terminations_total',
        help: '[ALPHA] Number of requests which apiserver terminated in self-defense.',
        labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component', 'code'],
      }),
    );
    this.terminatedWatchers = registry.shared(
      new Counter({
        name: 'apiserver_terminated_watchers_total',
        help: '[ALPHA] Counter of watchers closed due to unresponsiveness broken by resource type.',
        labelNames: ['resource'],
      }),
    );
    this.postTimeouts = registry.shared(
      new Counter({
        name: 'apiserver_request_post_timeout_total',
        help: '[ALPHA] Tracks the activity of the request handlers after the associated requests have been timed out by the apiserver',
        labelNames: ['source', 'status'],
      }),
    );
    this.consistentReads = registry.shared(
      new Counter({
        name: 'plinth_watch_cache_consistent_reads_total',
        help: 'Consistent reads (a GET, LIST or watch\'s initial list at resourceVersion "") by resource and by what served them: the watch cache, or storage when the cache had not caught up.',
        labelNames: ['resource', 'source'],
      }),
    );
  }

  // start counts a request in flight; null for a path that is not instrumented. served says
  // whether a resource request names a resource (and subresource) this server serves: as
  // kube-apiserver instruments only the routes it installed, one that names none is not
  // counted, so that the labels a client writes into its path add no series.
  start(req: IncomingMessage, info: RequestInfo, query: URLSearchParams, served: boolean): RequestObservation | null {
    if (info.isResourceRequest && !served) return null;
    const labels = requestLabelValues(req, info, query);
    if (!labels) return null;
    const longRunning = labels[0] === 'WATCH';
    const gauge = longRunning
      ? this.longRunning.labels(labels[0], labels[2], labels[3], labels[4], labels[5], labels[6], labels[7])
      : info.verb === 'get' || info.verb === 'list'
        ? this.readOnly
        : this.mutating;
    gauge.inc();
    return { labels, started: performance.now(), gauge, resource: info.isResourceRequest };
  }

  // finish measures the answered request; terminated says the server refused it in
  // self-defense (the in-flight limit's 429, the request timeout's 504).
  finish(observation: RequestObservation, code: number, terminated = false): void {
    observation.gauge.dec();
    if (!observation.resource && code === 404) return;
    const { labels } = observation;
    this.duration.labels(...labels).observeInTrace((performance.now() - observation.started) / 1000, observation.traceId);
    this.requests.labels(...labels, String(code)).inc();
    if (terminated) this.terminations.labels(labels[0], ...labels.slice(2), String(code)).inc();
  }

}

// requestLabelValues are the labels of requestLabels for a request, as kube-apiserver's
// MonitorRequest cleans them: the reported verb (LIST, WATCH, APPLY, POST...), dryRun, the scope.
export function requestLabelValues(req: IncomingMessage, info: RequestInfo, query: URLSearchParams): string[] | null {
  if (!info.isResourceRequest) {
    if (!instrumentedPaths.has(info.parts[0] ?? '')) return null;
    return [cleanVerb((req.method ?? 'GET').toUpperCase()), '', '', '', '', info.path, '', ''];
  }
  return [cleanVerb(reportedVerb(req, info.verb)), dryRunValue(query), info.group, info.version, info.resource, info.subresource, requestScope(info), 'apiserver'];
}

// cleanVerb is kube-apiserver's: a verb outside validRequestMethods (HEAD, a method Node does
// not know) is reported as "other".
function cleanVerb(verb: string): string {
  return reportedVerbs.has(verb) ? verb : 'other';
}

// reportedVerb is the verb kube-apiserver reports for a resource request (CleanVerb).
export function reportedVerb(req: IncomingMessage, verb: string): string {
  switch (verb) {
    case 'create':
      return 'POST';
    case 'update':
      return 'PUT';
    case 'patch':
      return req.headers['content-type']?.startsWith('application/apply-patch+yaml') ? 'APPLY' : 'PATCH';
    default:
      return verb.toUpperCase();
  }
}

// dryRunValue is kube-apiserver's cleanDryRun: the distinct values sorted, or "invalid".
function dryRunValue(query: URLSearchParams): string {
  const values = query.getAll('dryRun');
  if (values.length === 0) return '';
  if (values.some((v) => v !== 'All')) return 'invalid';
  return 'All';
}

// requestScope is kube-apiserver's CleanScope.
export function requestScope(info: RequestInfo & { isResourceRequest: true }): string {
  if (info.name !== '' || info.verb === 'create') return 'resource';
  if (info.namespace !== '') return 'namespace';
  return 'cluster';
}

// metricsRoute serves GET /metrics from the registry, in OpenMetrics (with exemplars) to a
// scraper that asks for it; the pipeline has authorized the request (nonResourceURL /metrics,
// verb get) before.
export function metricsRoute(registry: Registry): NonResourceRoute {
  return async (req: IncomingMessage, res: ServerResponse, info) => {
    if (info.path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    const { format, contentType } = negotiateExposition(req.headers.accept);
    writeText(res, 200, await registry.scrape(format), contentType);
    return true;
  };
}
