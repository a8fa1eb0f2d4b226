// openApiRoutes serves the OpenAPI documents as kube-apiserver does (kube-openapi handler and
// handler3): /openapi/v2 as JSON or gnostic protobuf, /openapi/v3 as the discovery root, and
// /openapi/v3/<group version path> per group version. A group version fetched with the hash its
// root entry names is immutable and cacheable for a year; a stale hash is redirected to the
// current one. ETag is the document hash, If-None-Match answers 304.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Clock, realClock } from '@plinth/machinery';
import { parseAccept } from '../negotiation';
import type { NonResourceRequestInfo } from '../request-info';
import type { NonResourceRoute } from '../server';
import { CatalogView, defaultInfo, OpenApiInfo } from './documents';
import { OpenApiDocuments } from './service';

export const v2ProtobufMediaType = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
// v2ProtobufMediaTypeDeprecated is the older spelling clients (client-go's OpenAPISchema) send.
export const v2ProtobufMediaTypeDeprecated = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

export interface OpenApiOptions {
  info?: OpenApiInfo;
  // aliases publishes the *.k8s.io aliases beside their platform groups (--k8s-aliases).
  aliases?: boolean;
  // clock dates the Expires header of immutable responses.
  clock?: Pick<Clock, 'now'>;
}

export type OpenApiRoute = NonResourceRoute & {
  // invalidate drops the cached documents; the next request rebuilds them.
  invalidate(): void;
  readonly documents: OpenApiDocuments;
};

interface Body {
  body: Buffer;
  hash: string;
  gzip(): Buffer;
}

const minGzipBytes = 1400;
const year = 365 * 24 * 3600 * 1000;

export function openApiRoutes(catalog: CatalogView, options: OpenApiOptions = {}): OpenApiRoute {
  const documents = new OpenApiDocuments(catalog, options.info ?? defaultInfo, options.aliases ?? false);
  const clock = options.clock ?? realClock;

  // Every method is answered as GET: kube-openapi's handlers sit on the mux, which routes by path.
  const route = async (req: IncomingMessage, res: ServerResponse, info: NonResourceRequestInfo, query: URLSearchParams): Promise<boolean> => {
    const [first, version, ...rest] = info.parts;
    if (first !== 'openapi') return false;
    if (version === 'v2' && rest.length === 0) {
      serveV2(req, res, documents);
      return true;
    }
    if (version !== 'v3') return false;
    if (rest.length === 0) {
      serveV3Root(req, res, documents);
      return true;
    }
    serveGroupVersion(req, res, documents, rest.join('/'), query.get('hash'), clock);
    return true;
  };
  return Object.assign(route, { invalidate: () => documents.invalidate(), documents });
}

function serveV2(req: IncomingMessage, res: ServerResponse, documents: OpenApiDocuments): void {
  // kube-apiserver sends two Vary headers here, its compression filter's and kube-openapi's.
  const headers = { Vary: ['Accept-Encoding', 'Accept'], 'Cache-Control': 'no-cache, private' };
  for (const clause of parseAccept(req.headers.accept)) {
    const mediaType = `${clause.type}/${clause.subtype}`;
    if (mediaType === v2ProtobufMediaType || mediaType === v2ProtobufMediaTypeDeprecated) {
      send(req, res, documents.v2Protobuf(), v2ProtobufMediaType, headers);
      return;
    }
    if (acceptsJson(clause.type, clause.subtype)) {
      send(req, res, documents.v2(), 'application/json', headers);
      return;
    }
  }
  notAcceptable(res, headers);
}

// serveV3Root answers the /openapi/v3 discovery document as kube-openapi's handler3 does, through
// Go's http.ServeContent: no ETag, and the Content-Type Go sniffs from its first bytes.
function serveV3Root(req: IncomingMessage, res: ServerResponse, documents: OpenApiDocuments): void {
  const body = documents.v3Root().body;
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, private');
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}

function serveGroupVersion(req: IncomingMessage, res: ServerResponse, documents: OpenApiDocuments, path: string, hash: string | null, clock: Pick<Clock, 'now'>): void {
  const doc = documents.v3(path);
  if (!doc) {
    // handler3 answers a group version it does not have with an empty 404.
    res.statusCode = 404;
    res.setHeader('Cache-Control', 'no-cache, private');
    res.setHeader('Content-Length', 0);
    res.end();
    return;
  }
  if (!parseAccept(req.headers.accept).some((c) => acceptsJson(c.type, c.subtype))) {
    notAcceptable(res, {});
    return;
  }
  if (hash && hash !== doc.hash) {
    res.statusCode = 301;
    res.setHeader('Cache-Control', 'no-cache, private');
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('ETag', `"${doc.hash}"`);
    res.setHeader('Location', `/openapi/v3/${path}?hash=${doc.hash}`);
    res.setHeader('Vary', 'Accept');
    res.setHeader('Content-Length', 0);
    res.end();
    return;
  }
  const cache: Record<string, string> = hash
    ? { 'Cache-Control': 'public, immutable', Expires: new Date(clock.now() + year).toUTCString() }
    : { 'Cache-Control': 'no-cache, private' };
  send(req, res, doc, 'application/json', { Vary: ['Accept'], ...cache });
}

function acceptsJson(type: string, subtype: string): boolean {
  return (type === '*' || type === 'application') && (subtype === '*' || subtype === 'json');
}

function notAcceptable(res: ServerResponse, headers: Record<string, string | string[]>): void {
  res.statusCode = 406;
  res.setHeader('Cache-Control', 'no-cache, private');
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.end();
}

// send writes a document with its ETag, answering 304 (without a Content-Type) to a matching
// If-None-Match and compressing for clients that accept gzip.
function send(req: IncomingMessage, res: ServerResponse, doc: Body, contentType: string, headers: Record<string, string | string[]>): void {
  const etag = `"${doc.hash}"`;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('ETag', etag);
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch && (ifNoneMatch === '*' || ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag))) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.setHeader('Content-Type', contentType);
  let body = doc.body;
  if (body.length >= minGzipBytes && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
    body = doc.gzip();
    res.setHeader('Content-Encoding', 'gzip');
    const vary = [headers['Vary'] ?? []].flat();
    res.setHeader('Vary', vary.includes('Accept-Encoding') ? vary : [...vary, 'Accept-Encoding']);
  }
  res.statusCode = 200;
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}
