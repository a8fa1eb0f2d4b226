// traceRequest runs one API request in a server span shaped like kube-apiserver's (its
// WithTracing filter over otelhttp): named by the method and the path template of a resource
// request ("GET /api/v1/namespaces/{:namespace}/pods/{:name}"), or the method alone for a
// non-resource path, with the HTTP attributes of the semantic conventions kube-apiserver 1.28
// uses and the request's verb, group, version, resource, subresource and namespace. The span
// continues the trace of an incoming traceparent header.
import { IncomingMessage, ServerResponse } from 'node:http';
import { Attributes, Carrier, ROOT_CONTEXT, SpanKind, SpanStatusCode, extractContext, propagationFields, withSpan } from '@plinth/telemetry';
import { reportedVerb, requestScope } from '../metrics';
import { RequestInfo, ResourceRequestInfo } from '../request-info';

export async function traceRequest(req: IncomingMessage, res: ServerResponse, info: RequestInfo, serve: () => Promise<void>): Promise<void> {
  const method = req.method ?? 'GET';
  await withSpan(
    requestSpanName(method, info),
    requestSpanAttributes(req, info),
    async (span) => {
      await serve();
      span.setAttribute('http.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    },
    { kind: SpanKind.SERVER, parent: extractContext(incomingCarrier(req), ROOT_CONTEXT) },
  );
}

// operationNames name the span around a verb's handler as kube-apiserver's handlers name theirs
// (create.go's "Create", list.go's "List" for lists and watches, ...).
const operationNames: Record<string, string> = {
  get: 'Get',
  list: 'List',
  watch: 'List',
  create: 'Create',
  update: 'Update',
  patch: 'Patch',
  delete: 'Delete',
  deletecollection: 'Delete',
};

// traceOperation runs a resource request's handler in a child span with the attributes of
// kube-apiserver's traceFields: the storage calls it makes are its children.
export function traceOperation(req: IncomingMessage, info: ResourceRequestInfo, run: () => Promise<void>): Promise<void> {
  const attributes: Attributes = {
    accept: req.headers.accept ?? '',
    client: req.socket.remoteAddress ?? '',
    protocol: `HTTP/${req.httpVersion}`,
    resource: info.resource,
    scope: requestScope(info),
    url: info.path,
    'user-agent': req.headers['user-agent'] ?? '',
    verb: reportedVerb(req, info.verb),
  };
  return withSpan(operationNames[info.verb] ?? info.verb, attributes, run);
}

// requestSpanName is kube-apiserver's getSpanNameFromRequestInfo.
export function requestSpanName(method: string, info: RequestInfo): string {
  return info.isResourceRequest ? `${method} ${pathTemplate(info)}` : method;
}

export function pathTemplate(info: RequestInfo): string {
  if (!info.isResourceRequest) return info.path;
  let template = `/${info.apiPrefix}`;
  if (info.group) template += `/${info.group}`;
  template += `/${info.version}`;
  if (info.namespace) template += '/namespaces/{:namespace}';
  template += `/${info.resource}`;
  if (info.name) template += '/{:name}';
  if (info.subresource) template += `/${info.subresource}`;
  return template;
}

export function requestSpanAttributes(req: IncomingMessage, info: RequestInfo): Attributes {
  const attributes: Attributes = {
    'http.method': req.method ?? 'GET',
    'http.target': req.url ?? '/',
    'http.scheme': 'encrypted' in req.socket ? 'https' : 'http',
    'http.flavor': req.httpVersion,
    'net.host.name': String(req.headers.host ?? req.headers[':authority'] ?? '').replace(/:\d+$/, ''),
    'net.sock.peer.addr': req.socket.remoteAddress ?? '',
    verb: info.verb,
  };
  if (req.headers['user-agent']) attributes['http.user_agent'] = req.headers['user-agent'];
  if (!info.isResourceRequest) return attributes;
  attributes['http.route'] = pathTemplate(info);
  attributes.group = info.group;
  attributes.version = info.version;
  attributes.resource = info.resource;
  if (info.subresource) attributes.subresource = info.subresource;
  if (info.namespace) attributes.namespace = info.namespace;
  return attributes;
}

// incomingCarrier copies the propagation headers (traceparent, tracestate, baggage) out of the
// request.
function incomingCarrier(req: IncomingMessage): Carrier {
  const carrier: Carrier = {};
  for (const field of propagationFields()) {
    const value = req.headers[field];
    if (typeof value === 'string') carrier[field] = value;
  }
  return carrier;
}
