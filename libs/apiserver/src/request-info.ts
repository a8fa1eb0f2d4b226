// RequestInfo is what a request path and method mean to the API: a resource request (verb,
// group, version, namespace, resource, name, subresource) or a non-resource path, after
// k8s.io/apiserver/pkg/endpoints/request/requestinfo.go.

export interface ResourceRequestInfo {
  isResourceRequest: true;
  path: string;
  verb: string;
  apiPrefix: 'api' | 'apis';
  group: string;
  version: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
}

export interface NonResourceRequestInfo {
  isResourceRequest: false;
  path: string;
  verb: string;
  // parts are the path segments, for discovery routes (/api, /apis/{group}, ...).
  parts: string[];
}

export type RequestInfo = ResourceRequestInfo | NonResourceRequestInfo;

// namespaceSubresources are the subresources of a namespace itself (/namespaces/{name}/status).
const namespaceSubresources = new Set(['status', 'finalize']);

export function parseRequestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const parts = splitPath(path);
  const nonResource = (): NonResourceRequestInfo => ({ isResourceRequest: false, path, verb: method.toLowerCase(), parts });
  if (parts.length === 0 || (parts[0] !== 'api' && parts[0] !== 'apis')) return nonResource();
  const apiPrefix = parts[0] as 'api' | 'apis';
  let rest = parts.slice(1);
  let group = '';
  if (apiPrefix === 'apis') {
    if (rest.length < 3) return nonResource();
    group = rest[0];
    rest = rest.slice(1);
  } else if (rest.length < 2) {
    return nonResource();
  }
  const version = rest[0];
  rest = rest.slice(1);

  let verb = httpVerb(method);
  if (rest[0] === 'watch') {
    verb = 'watch';
    rest = rest.slice(1);
  }
  let namespace = '';
  if (rest[0] === 'namespaces') {
    if (rest.length > 1) {
      namespace = rest[1];
      if (rest.length > 2 && !namespaceSubresources.has(rest[2])) rest = rest.slice(2);
    }
  }
  const [resource = '', name = '', subresource = ''] = rest;
  if (rest.length > 3) return nonResource();

  if (verb === 'list' || verb === 'get') {
    // the watch verb is ListOptions.Watch as the query conversion reads it (queryBool)
    if (name === '') verb = queryBool(query, 'watch') ? 'watch' : 'list';
    else verb = 'get';
  }
  if (verb === 'delete' && name === '') verb = 'deletecollection';
  return { isResourceRequest: true, path, verb, apiPrefix, group, version, namespace, resource, subresource, name };
}

function httpVerb(method: string): string {
  switch (method.toUpperCase()) {
    case 'POST':
      return 'create';
    case 'GET':
    case 'HEAD':
      return 'get';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return 'delete';
    default:
      // No verb: no route takes the method, which then gets 405 once authorized.
      return '';
  }
}

// splitPath is requestinfo's splitPath: the path without its outer slashes, split on every
// slash, empty segments kept (so "/api/v1/namespaces//pods" names the empty namespace, as in
// kube-apiserver, rather than shifting the segments after it).
function splitPath(path: string): string[] {
  let start = 0;
  let end = path.length;
  while (start < end && path.charCodeAt(start) === 0x2f) start++;
  while (end > start && path.charCodeAt(end - 1) === 0x2f) end--;
  return start === end ? [] : path.slice(start, end).split('/');
}

// postSubresources are the subresources created with POST (connect subresources aside).
const postSubresources = new Set(['binding', 'eviction', 'token']);

// methodRouted says whether kube-apiserver has a route taking the request's method on its path
// (go-restful answers 405 otherwise): a collection takes GET, POST and DELETE, an object GET,
// PUT, PATCH and DELETE, a watch path GET, and a subresource POST only where it is made to be
// created (binding, eviction, token).
export function methodRouted(method: string, info: ResourceRequestInfo): boolean {
  if (info.verb === '') return false;
  if (info.verb === 'watch') return method === 'GET' || method === 'HEAD';
  if (info.verb === 'create') return info.name === '' || postSubresources.has(info.subresource);
  if (info.verb === 'update' || info.verb === 'patch') return info.name !== '';
  return true;
}

// queryBool reads a boolean option as Kubernetes' query conversion does: present and not
// "0" or "false" (any case) is true.
export function queryBool(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  return value !== null && value !== '0' && value.toLowerCase() !== 'false';
}
