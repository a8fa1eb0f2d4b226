// ApiServer is the HTTP surface of Plinth: one request handler running the stages of
// kube-apiserver in order (resolve → negotiate → dispatch to a verb handler), answering every
// failure with a Status. It is plain node:http so that the same handler runs inside the Nest
// gateway app and the all-in-one process.
import { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest, goQuote, hasProtobufCodec, isStatusError, isValidPathSegmentName, methodNotAllowed, methodNotSupported, notAcceptable, notFound, parseFieldSelector, StatusError } from '@plinth/machinery';
import { ImpersonationWithoutUserError } from '@plinth/authn';
import { ResourceDefinition } from '@plinth/registry';
import { servedGroupOf } from './aliases';
import { aggregatedDiscovery, apiGroup, apiGroupList, apiResourceList, apiVersions, coreResourceList, discoveryRepresentation } from './discovery';
import { writeAggregatedDiscovery } from './discovery-response';
import { createResource } from './handlers/create';
import { createReview } from './handlers/reviews';
import { createToken } from './handlers/token-request';
import { createBinding } from './handlers/binding';
import { deleteCollection } from './handlers/delete-collection';
import { deleteResource } from './handlers/delete';
import { getResource } from './handlers/get';
import { listResource } from './handlers/list';
import { patchResource } from './handlers/patch';
import { updateResource } from './handlers/update';
import { watchResource } from './handlers/watch';
import { serveScale } from './handlers/scale';
import { HealthCheck, HealthEndpoint, runHealthChecks } from './health';
import { sampledTraceId, tracingEnabled } from '@plinth/telemetry';
import { traceOperation, traceRequest } from './http/request-span';
import { ApiServerMetrics, RequestObservation } from './metrics';
import { responseGone, responseOptions, ResponseOptions, writeBody, writeError, writeInternalServerError, writePageNotFound, writeText } from './http/respond';
import { parseRequestTarget, RequestTarget, RequestTargetError } from './http/request-target';
import { checkFraming, writeFramingError } from './http/framing';
import { RequestBoundary } from './http/request-boundary';
import { RequestContext } from './http/request-context';
import { ListOptions, parseListOptions } from './list-options';
import { acceptedMediaTypes, acceptsProtobuf, errorPrefersProtobuf, negotiate, routeAccepts, routeProduces } from './negotiation';
import { methodRouted, NonResourceRequestInfo, parseRequestInfo, RequestInfo, ResourceRequestInfo } from './request-info';
import { UserInfo } from '@plinth/rbac';
import { authenticateAndImpersonate, AuthorizerError, authorizeRequest } from './auth/filter';
import { inClientGroup, RequestScope } from './scope';
import { ServerContext } from './server-context';
import { ServerLifecycle } from './http/lifecycle';
import { isLongRunning, MaxInflightLimit, writeTooManyRequests } from './http/max-inflight';
import { finisherBoundMs, finishWithin, requestTimeoutMs, serveWithTimeout, writeRequestTimeout } from './http/request-timeout';

const healthEndpoints = new Set<string>(['healthz', 'livez', 'readyz']);

// ServingLimits are the filters kube-apiserver runs around every handler: the in-flight
// limit, the request timeout and the graceful-termination lifecycle.
export interface ServingLimits {
  inflight: MaxInflightLimit;
  requestTimeoutMs: number;
  lifecycle: ServerLifecycle;
}

export class ApiServer {
  constructor(
    readonly context: ServerContext,
    private readonly healthChecks: Record<HealthEndpoint, HealthCheck[]>,
    private readonly extraRoutes: NonResourceRoute[] = [],
    // metrics measures each request for /metrics; absent in pipeline unit tests.
    readonly metrics: ApiServerMetrics | null = null,
    readonly limits: ServingLimits = { inflight: new MaxInflightLimit(0, 0), requestTimeoutMs: 60_000, lifecycle: new ServerLifecycle(context.clock) },
    // boundary keeps what one request throws to that request.
    readonly boundary: RequestBoundary = new RequestBoundary(metrics?.registry ?? null),
  ) {
    context.endWatchesWith(limits.lifecycle);
  }

  // close stops the watch caches; the HTTP listener is its owner's to close.
  close(): void {
    this.context.stopCaches();
  }

  // terminated are the responses refused in self-defense, for
  // apiserver_request_terminations_total.
  private readonly terminated = new WeakSet<ServerResponse>();

  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    if (this.limits.lifecycle.refuse(req, res)) return;
    this.limits.lifecycle.track(res);
    this.boundary.run(req, res, () => this.serve(req, res));
  };

  // serve answers one request, measured for /metrics and, when this process exports traces, in
  // a server span.
  serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const framing = checkFraming(method, req.httpVersion, req.rawHeaders);
    if (framing) {
      writeFramingError(res, framing.code, framing.reason);
      return Promise.resolve();
    }
    let target: RequestTarget;
    try {
      target = parseRequestTarget(method, req.url ?? '/');
    } catch (err) {
      if (!(err instanceof RequestTargetError)) throw err;
      writeFramingError(res, 400, 'Bad Request');
      return Promise.resolve();
    }
    const query = new URLSearchParams(target.rawQuery);
    const info = parseRequestInfo(method, target.path, query);
    const observation = this.metrics?.start(req, info, query, info.isResourceRequest && this.servesResource(info));
    const serveRequest = () => this.serveRequestInTime(req, res, query, info);
    const served = tracingEnabled() ? traceRequest(req, res, info, () => observeTrace(observation, serveRequest)) : serveRequest();
    if (!observation) return served;
    return served.then(() => this.metrics?.finish(observation, res.statusCode, this.terminated.has(res)));
  }

  // serveRequestInTime bounds a request that is not long-running by its deadline (its ?timeout=,
  // at most --request-timeout) and answers the timeout filter's 504 when it has no answer by then.
  // Its handler sees that as kube-apiserver's handlers see their request's context: done once
  // the deadline passed or the response closed (the client went away, or the answer was
  // written), so that work it would go on with is not started.
  private serveRequestInTime(req: IncomingMessage, res: ServerResponse, query: URLSearchParams, info: RequestInfo): Promise<void> {
    const context = new RequestContext();
    res.once('close', () => context.end());
    if (isLongRunning(info)) return this.serveRequest(req, res, query, info, context, undefined);
    let timeoutMs: number;
    try {
      timeoutMs = requestTimeoutMs(query, this.limits.requestTimeoutMs);
    } catch (err) {
      writeError(res, err, { ...responseOptions(req, query, this.context.gate('APIResponseCompression')), protobuf: errorPrefersProtobuf(req.headers.accept) });
      return Promise.resolve();
    }
    return serveWithTimeout(
      () => this.serveRequest(req, res, query, info, context, finisherBoundMs(info, timeoutMs)),
      timeoutMs,
      this.context.clock,
      () => {
        context.end();
        this.terminated.add(res);
        writeRequestTimeout(res);
      },
      (status) => this.metrics?.postTimeouts.labels('timeout-handler', status).inc(),
    );
  }

  // finisherMs bounds the verb handler's work (create, update, patch, delete) as kube-apiserver's
  // finisher does, when the request's deadline is later.
  private async serveRequest(req: IncomingMessage, res: ServerResponse, query: URLSearchParams, info: RequestInfo, context: RequestContext, finisherMs: number | undefined): Promise<void> {
    const response = responseOptions(req, query, this.context.gate('APIResponseCompression'));
    let release: (() => void) | null = null;
    try {
      const user = await this.authenticate(req, info, response).catch(refusalWithoutSniffing(res));
      release = this.limits.inflight.admit(info, user);
      if (!release) {
        this.terminated.add(res);
        return writeTooManyRequests(res);
      }
      await this.authorize(info, user).catch(refusalWithoutSniffing(res));
      if (info.isResourceRequest) await finishWithin(this.serveResource(req, res, info, query, response, user, context), finisherMs, this.context.clock);
      else await this.serveNonResource(req, res, info, query, response);
    } catch (err) {
      if (err instanceof ImpersonationWithoutUserError || err instanceof AuthorizerError) return writeInternalServerError(res, req.url ?? '', err.message);
      // An error that is not a Status is a fault of the server, which kube-apiserver would have
      // panicked on; a client that went away is not.
      if (!isStatusError(err) && !responseGone(res)) this.boundary.report(req, err);
      // An error before the resource's negotiation (authentication, unknown paths) is a Status
      // in what the client accepts, protobuf included, as kube-apiserver negotiates errors.
      response.protobuf ??= errorPrefersProtobuf(req.headers.accept);
      writeError(res, err, response);
    } finally {
      release?.();
    }
  }

  private async serveNonResource(req: IncomingMessage, res: ServerResponse, info: NonResourceRequestInfo, query: URLSearchParams, response: ResponseOptions): Promise<void> {
    const [first, second] = info.parts;
    const { catalog } = this.context;
    // Health checks answer any method, as kube-apiserver's mux handlers do.
    if (healthEndpoints.has(first) && info.parts.length <= 2) {
      const result = await runHealthChecks(first as HealthEndpoint, this.healthChecks[first as HealthEndpoint], query, second);
      writeText(res, result.code, result.body, undefined, result.nosniff);
      return;
    }
    for (const route of this.extraRoutes) {
      if (await route(req, res, info, query, response)) return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD' && this.onlyReadsDiscovery(info.parts)) throw methodNotAllowed();
    if (first === 'version' && info.parts.length === 1) return writeBody(res, 200, this.context.options.version, response);
    const body = this.discoveryDocument(req, info.parts);
    if (body === undefined) return this.pathNotFound(res, info.parts);
    const wanted = discoveryRepresentation(req.headers.accept, info.parts.length === 1 && (first === 'api' || first === 'apis'));
    if (!wanted) throw notAcceptable(acceptedMediaTypes(true));
    if (wanted.aggregated) return writeAggregatedDiscovery(req, res, aggregatedDiscovery(catalog, first === 'api', wanted.aggregated, this.context.options.aliases), wanted.aggregated, response);
    writeBody(res, 200, body, { ...response, yaml: wanted.yaml });
  }

  // discoveryDocument is the legacy discovery document of a path (/api, /api/v1, /apis, a group, a
  // group version), or undefined when the path is none.
  private discoveryDocument(req: IncomingMessage, parts: string[]): object | undefined {
    const [first, second, third] = parts;
    const { catalog } = this.context;
    if (first === 'api' && parts.length === 1) return apiVersions(String(req.headers.host ?? req.headers[':authority'] ?? ''));
    if (first === 'api' && second === 'v1' && parts.length === 2) return coreResourceList(catalog);
    if (first === 'apis' && parts.length === 1) return apiGroupList(catalog, this.context.options.aliases);
    if (first === 'apis' && parts.length === 2) {
      const group = this.servedGroup(second);
      const body = apiGroup(catalog, group);
      if (body) return second === group ? body : aliasGroup(body, second);
    }
    if (first === 'apis' && parts.length === 3) {
      const group = this.servedGroup(second);
      if (catalog.hasGroupVersion(group, third)) {
        const list = apiResourceList(catalog, group, third);
        return second === group ? list : { ...list, groupVersion: `${second}/${third}` };
      }
    }
    return undefined;
  }

  // pathNotFound answers a path nothing serves as kube-apiserver does: a path under /api or
  // under a built-in group, which go-restful's web services claim, is their NotFound Status; any
  // other (an unknown group, a custom resources' group, no API path at all) falls through every
  // handler to Go's plain-text 404.
  private pathNotFound(res: ServerResponse, parts: string[]): void {
    const [first, second] = parts;
    if (first === 'api' || first === 'version' || (first === 'apis' && second !== undefined && this.servesBuiltinGroup(this.servedGroup(second)))) throw notFoundPath();
    writePageNotFound(res);
  }

  // onlyReadsDiscovery tells the discovery paths whose go-restful routes take GET alone (/version,
  // /api, /api/v1, a built-in group version), so that another method is 405. /apis, a group and a
  // custom resources' group version are served by handlers that answer any method, and an
  // unknown path stays a 404.
  private onlyReadsDiscovery(parts: string[]): boolean {
    const [first, second, third] = parts;
    if (parts.length === 1) return first === 'version' || first === 'api';
    if (first === 'api' && parts.length === 2) return second === 'v1';
    if (first !== 'apis' || parts.length !== 3) return false;
    const group = this.servedGroup(second);
    return this.context.catalog.resources(group, third).some((def) => !def.unstructured);
  }

  private servesBuiltinGroup(group: string): boolean {
    return this.context.catalog.all().some((def) => def.group === group && !def.unstructured);
  }

  // servesResource says whether a resource request names a resource this server serves (under its
  // group or the group's alias), and a subresource of it when it names one.
  private servesResource(info: ResourceRequestInfo): boolean {
    const def = this.context.catalog.lookup(this.servedGroup(info.group), info.version, info.resource);
    return def !== undefined && servesSubresource(def, info.subresource);
  }

  // authenticate runs authentication and impersonation; without an auth context (pipeline
  // unit tests only) every request acts as a privileged user.
  private async authenticate(req: IncomingMessage, info: RequestInfo, response: ResponseOptions): Promise<UserInfo> {
    const auth = this.context.auth;
    if (!auth) return { name: 'system:apiserver', uid: '', groups: ['system:masters', 'system:authenticated'], extra: {} };
    return authenticateAndImpersonate(req, auth, response.warnings);
  }

  // authorize runs after the in-flight limit, as kube-apiserver's filters do.
  private async authorize(info: RequestInfo, user: UserInfo): Promise<void> {
    const auth = this.context.auth;
    if (auth) await authorizeRequest(info, user, info.isResourceRequest ? this.servedGroup(info.group) : '', auth);
  }

  private async serveResource(req: IncomingMessage, res: ServerResponse, info: ResourceRequestInfo, query: URLSearchParams, response: ResponseOptions, user: UserInfo, context: RequestContext): Promise<void> {
    const group = this.servedGroup(info.group);
    const def = this.context.catalog.lookup(group, info.version, info.resource);
    if (!def) return this.pathNotFound(res, info.group === '' ? ['api'] : ['apis', info.group]);
    if (def.unstructured) {
      if (!fitsScope(def, info)) return writePageNotFound(res);
      if (!servesSubresource(def, info.subresource)) throw notFound({ group: def.group, resource: def.resource }, info.name);
    }
    checkScope(def, info);
    if (!methodRouted(req.method ?? 'GET', info)) throw methodNotAllowed();
    // A virtual type (a review) has only a POST route: go-restful answers any other method.
    if (def.virtual && req.method !== 'POST') throw methodNotAllowed();
    checkNameSegment(info.name);
    if (def.deprecationWarning) response.warnings.push(def.deprecationWarning);
    const streaming = info.verb === 'watch';
    // A built-in resource's route refuses an Accept it cannot produce before its handler runs.
    const produces = routeProduces(req.method ?? 'GET');
    if (!def.unstructured && !routeAccepts(req.headers.accept, produces)) throw routeNotAcceptable(produces);
    const groupVersion = def.group ? `${def.group}/${def.version}` : def.version;
    const representation = negotiate(req.headers.accept, {
      tableAllowed: ['get', 'list', 'watch'].includes(info.verb) && !def.virtual,
      yamlAllowed: !streaming,
      // Custom resources have no protobuf message: a protobuf clause is skipped for them.
      protobufAllowed: acceptsProtobuf(req.headers.accept) && hasProtobufCodec(groupVersion, def.kind),
    });
    response.protobuf = representation?.type === 'protobuf';
    // An error of a request negotiated as YAML is answered in YAML too.
    response.yaml = representation?.type === 'yaml';
    if (!representation) throw notAcceptable(acceptedMediaTypes(hasProtobufCodec(groupVersion, def.kind)));
    const scope: RequestScope = {
      req,
      res,
      query,
      info,
      def,
      store: this.context.storeFor(def),
      clientGroup: info.group,
      representation,
      response,
      server: this.context,
      user,
      context,
    };
    const dispatched = tracingEnabled() ? traceOperation(req, info, () => this.dispatch(scope)) : this.dispatch(scope);
    await dispatched.catch((err: unknown) => {
      throw inClientGroup(scope, err);
    });
  }

  private async dispatch(scope: RequestScope): Promise<void> {
    const { info, def } = scope;
    // The token and binding subresources have only a POST route: go-restful answers any other method.
    if (isPostOnlySubresource(def, info.subresource) && info.verb !== 'create') throw methodNotAllowed();
    if (info.subresource === 'token' && def.group === '' && def.resource === 'serviceaccounts' && info.verb === 'create') return createToken(scope);
    if (info.subresource === 'binding' && def.group === '' && def.resource === 'pods' && info.verb === 'create') return createBinding(scope);
    if (info.subresource === 'scale' && def.scale && ['get', 'update', 'patch'].includes(info.verb)) return serveScale(scope);
    const subresourceVerb = (info.subresource === 'status' && ['get', 'update', 'patch'].includes(info.verb)) || (info.subresource === 'finalize' && info.verb === 'update');
    if (info.subresource && !subresourceVerb) throw methodNotSupported(scope.store.qualifiedResource, info.verb);
    if (!def.verbs.includes(info.verb as never) && !subresourceVerb) {
      throw methodNotSupported(scope.store.qualifiedResource, info.verb);
    }
    if (def.terminating && info.verb === 'create') {
      const err = methodNotSupported({ group: info.group, resource: info.resource }, info.verb);
      err.errStatus.message = 'create not allowed while custom resource definition is terminating';
      throw err;
    }
    if (def.virtual) {
      if (info.verb !== 'create') throw methodNotSupported(scope.store.qualifiedResource, info.verb);
      return createReview(scope);
    }
    switch (info.verb) {
      case 'get':
        return getResource(scope);
      case 'list':
        return listResource(scope, parseListOptions(scope.query, false, this.context.gate('WatchList')));
      case 'watch':
        return watchResource(scope, withPathName(parseListOptions(scope.query, true, this.context.gate('WatchList')), info.name));
      case 'create':
        return createResource(scope);
      case 'update':
        return updateResource(scope);
      case 'patch':
        return patchResource(scope);
      case 'delete':
        return deleteResource(scope);
      case 'deletecollection':
        return deleteCollection(scope, parseListOptions(scope.query, false, this.context.gate('WatchList')));
      default:
        throw methodNotSupported(scope.store.qualifiedResource, info.verb);
    }
  }

  // servedGroup maps a *.k8s.io alias onto its *.platform.io twin when aliases are on.
  private servedGroup(group: string): string {
    return servedGroupOf(group, this.context.options.aliases);
  }
}

// NonResourceRoute serves a non-resource path (OpenAPI, metrics, ...) and says whether it did.
export type NonResourceRoute = (
  req: IncomingMessage,
  res: ServerResponse,
  info: NonResourceRequestInfo,
  query: URLSearchParams,
  response: ResponseOptions,
) => Promise<boolean>;

// routeNotAcceptable is go-restful's 406, which names the route's produced media types.
function routeNotAcceptable(produces: readonly string[]): StatusError {
  const err = notAcceptable([]);
  err.errStatus.message = `406: Not Acceptable\n\nAvailable representations: ${produces.join(', ')}`;
  err.errStatus.details = {};
  return err;
}

// notFoundPath is go-restful's answer for a path no route of a web service takes, with the
// empty details kube-apiserver's NewGenericServerResponse leaves.
function notFoundPath(): StatusError {
  const err = notFound({ group: '', resource: '' }, '');
  err.errStatus.message = 'the server could not find the requested resource';
  err.errStatus.details = {};
  return err;
}

// checkScope rejects paths that do not fit the resource's scope: a cluster-scoped resource
// under a namespace, or a namespaced object without one.
function checkScope(def: ResourceDefinition, info: ResourceRequestInfo): void {
  if (!fitsScope(def, info)) throw notFoundPath();
  if (!servesSubresource(def, info.subresource)) throw notFoundPath();
}

// fitsScope says whether a path fits the resource's scope: no namespace for a cluster-scoped
// resource, a namespace for a namespaced object. A custom resource's path that does not is
// passed on by apiextensions-apiserver's handler, to Go's plain-text 404; its unserved
// subresources are the resource's NotFound.
function fitsScope(def: ResourceDefinition, info: ResourceRequestInfo): boolean {
  if (!def.namespaced && info.namespace !== '' && !(def.group === '' && def.resource === 'namespaces')) return false;
  if (def.namespaced && info.namespace === '' && !['list', 'watch'].includes(info.verb)) {
    if (info.name !== '' || info.verb === 'create' || info.verb === 'deletecollection') return false;
  }
  return true;
}

// withPathName narrows a watch of a path naming one object (/watch/.../leases/a) to that name,
// as the list handler does: a field selector must then select exactly that name.
function withPathName(options: ListOptions, name: string): ListOptions {
  if (name === '') return options;
  if (options.fieldSelector === '') return { ...options, fieldSelector: `metadata.name=${name}` };
  let requirements;
  try {
    requirements = parseFieldSelector(options.fieldSelector).requirements();
  } catch {
    return options; // the watch's own parsing answers a selector that does not parse
  }
  const selected = requirements.find((r) => r.field === 'metadata.name' && r.operator === '=');
  if (selected?.value !== name) throw badRequest("fieldSelector metadata.name doesn't match requested name");
  return options;
}

// servesSubresource says whether a path's subresource ('' for the resource itself) is served.
function servesSubresource(def: ResourceDefinition, subresource: string): boolean {
  return subresource === '' || (def.subresources ?? []).includes(subresource);
}

// checkNameSegment refuses a name that cannot be one path segment, as the store's key functions
// (NamespaceKeyFunc, NoNamespaceKeyFunc) do.
function checkNameSegment(name: string): void {
  if (name === '') return;
  const problems = isValidPathSegmentName(name);
  if (problems.length > 0) throw badRequest(`Name parameter invalid: ${goQuote(name)}: ${problems.join(';')}`);
}

function aliasGroup(body: ReturnType<typeof apiGroup> & object, alias: string) {
  const versions = body.versions.map((v) => ({ groupVersion: `${alias}/${v.version}`, version: v.version }));
  return { ...body, name: alias, versions, preferredVersion: versions[0] };
}

// observeTrace keeps the request span's trace for the latency's exemplar, then serves.
function observeTrace(observation: RequestObservation | null | undefined, serve: () => Promise<void>): Promise<void> {
  if (observation) observation.traceId = sampledTraceId();
  return serve();
}

// isPostOnlySubresource says whether a resource's subresource is served on a POST route alone.
function isPostOnlySubresource(def: ResourceDefinition, subresource: string): boolean {
  if (def.group !== '') return false;
  return (def.resource === 'serviceaccounts' && subresource === 'token') || (def.resource === 'pods' && subresource === 'binding');
}

// refusalWithoutSniffing passes an error on, after marking a 403 of authorization or
// impersonation with X-Content-Type-Options: nosniff, as responsewriters.Forbidden writes it
// (a 401 and other 403s go without).
function refusalWithoutSniffing(res: ServerResponse): (err: unknown) => never {
  return (err) => {
    if (isStatusError(err) && err.code === 403) res.setHeader('X-Content-Type-Options', 'nosniff');
    throw err;
  };
}
