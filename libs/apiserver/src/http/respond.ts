// Writing responses: objects in the negotiated representation, pretty-printed when asked (or
// for curl and wget, as kube-apiserver does), gzip-compressed above 128 KiB when the client
// accepts it, and every error as a Status.
import { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { stringify as yamlStringify } from 'yaml';
import { encodeProtobufStatus, goQuote, internalError, isStatusError, Status, StatusError, stringifyJson, withBigInts } from '@plinth/machinery';
import { isAscii, warningHeaderValues } from './warning-header';

export const gzipThresholdBytes = 128 * 1024;

// responseGone tells whether a response can no longer reach its client: the connection (HTTP/1.1)
// or the stream (HTTP/2, whose compatibility response has no `destroyed` of its own) is
// destroyed, as when the client went away or reset its stream.
export function responseGone(res: ServerResponse): boolean {
  return res.destroyed === true || (res as { stream?: { destroyed: boolean } }).stream?.destroyed === true;
}

// cancelCode is HTTP/2's CANCEL error code (RFC 9113 7).
const cancelCode = 0x8;

// resetResponse abandons a response its client does not take: an HTTP/2 stream is reset with
// CANCEL, an HTTP/1.1 connection closed.
export function resetResponse(res: ServerResponse): void {
  const stream = (res as { stream?: { close(code: number): void } }).stream;
  if (stream) stream.close(cancelCode);
  else res.destroy();
}

export interface ResponseOptions {
  pretty: boolean;
  gzip: boolean;
  yaml: boolean;
  // protobuf: the request negotiated protobuf, so errors answer a protobuf Status too
  // (undefined until negotiation).
  protobuf?: boolean;
  warnings: string[];
}

export const protobufContentType = 'application/vnd.kubernetes.protobuf';

export function responseOptions(req: IncomingMessage, query: URLSearchParams, compression: boolean): ResponseOptions {
  const agent = req.headers['user-agent'] ?? '';
  const prettyParam = query.get('pretty');
  const pretty = prettyParam !== null ? prettyParam !== '0' && prettyParam.toLowerCase() !== 'false' : /curl|Wget/.test(agent);
  const encodings = String(req.headers['accept-encoding'] ?? '');
  return { pretty, gzip: compression && /\bgzip\b/.test(encodings), yaml: false, warnings: [] };
}

// serialize encodes a body as JSON (pretty when asked) or YAML. It stays a string, so that the
// response goes out in one write with its headers.
export function serialize(body: unknown, options: Pick<ResponseOptions, 'pretty' | 'yaml'>): string {
  if (options.yaml) return yamlStringify(withBigInts(body));
  return `${stringifyJson(body, body, options.pretty ? 2 : undefined)}\n`;
}

// writeWarnings sets the response's Warning headers and says whether one of them carries bytes
// beyond ASCII: Node then must not send the header block with a string body, which it would
// encode together with the body as UTF-8.
export function writeWarnings(res: ServerResponse, warnings: string[]): boolean {
  if (warnings.length === 0 || res.headersSent) return false;
  const values = warningHeaderValues(warnings);
  if (values.length === 0) return false;
  res.setHeader('Warning', values);
  return !values.every(isAscii);
}

export function writeBody(res: ServerResponse, code: number, body: unknown, options: ResponseOptions, contentType?: string): void {
  writeEncoded(res, code, serialize(body, options), options, contentType ?? (options.yaml ? 'application/yaml' : 'application/json'));
}

// writeEncoded answers with an already encoded body (JSON or YAML text, or protobuf bytes). A
// text body goes out with the headers in one write (one TLS record), as Node sends a string
// body together with the header block.
// headers, when given, are set after the defaults (a cacheable document's Cache-Control, ETag
// and Vary).
export function writeEncoded(res: ServerResponse, code: number, encoded: string | Uint8Array, options: ResponseOptions, contentType: string, headers: Record<string, string> = {}): void {
  let data = encoded;
  if (writeWarnings(res, options.warnings) && typeof data === 'string') data = Buffer.from(data);
  res.setHeader('Content-Type', contentType);
  res.setHeader('Cache-Control', 'no-cache, private');
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  let length = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
  if (options.gzip && length > gzipThresholdBytes) {
    data = gzipSync(data);
    length = data.length;
    res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Vary', [...(headers['Vary'] ? [headers['Vary']] : []), 'Accept-Encoding']);
  }
  res.setHeader('Content-Length', length);
  res.statusCode = code;
  res.end(res.req?.method === 'HEAD' ? undefined : data);
}

export function toStatusError(err: unknown): StatusError {
  if (isStatusError(err)) return err;
  return internalError(err instanceof Error ? err.message : String(err));
}

export function writeError(res: ServerResponse, err: unknown, options: ResponseOptions): void {
  const statusError = toStatusError(err);
  const status: Status = statusError.errStatus;
  // An answer already given (the request timed out meanwhile) stays as it was.
  if (res.writableEnded) return;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (statusError.errStatus.details?.retryAfterSeconds) res.setHeader('Retry-After', String(statusError.errStatus.details.retryAfterSeconds));
  if (options.protobuf) writeEncoded(res, status.code || 500, encodeProtobufStatus(status), options, protobufContentType);
  else writeBody(res, status.code || 500, status, options);
}

// writeText answers plain text. nosniff is false for what Go writes without http.Error or a
// handler's own headers (a single health check's "ok"), which carries no X-Content-Type-Options.
export function writeText(res: ServerResponse, code: number, text: string, contentType = 'text/plain; charset=utf-8', nosniff = true): void {
  res.statusCode = code;
  res.setHeader('Content-Type', contentType);
  if (nosniff) res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'no-cache, private');
  res.end(text);
}

// writeInternalServerError is responsewriters.InternalError, how kube-apiserver's filters answer
// a failure outside the API (no Status): Go's http.Error with the request URI quoted and the
// text's &, < and > escaped.
export function writeInternalServerError(res: ServerResponse, requestUri: string, message: string): void {
  const text = `Internal Server Error: ${goQuote(requestUri)}: ${message}`.replace(/[&<>]/g, (c) => htmlEscapes[c]);
  writeText(res, 500, `${text}\n`);
}

const htmlEscapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

// writePageNotFound is Go's http.NotFound, what kube-apiserver answers for a path no handler
// claims (an unknown group or version included).
export function writePageNotFound(res: ServerResponse): void {
  writeText(res, 404, '404 page not found\n');
}
