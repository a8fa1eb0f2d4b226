// writeAggregatedDiscovery answers the aggregated discovery document as kube-apiserver 1.28's
// aggregated.ServeHTTPWithETag does: cacheable by anyone (Cache-Control: public, Vary: Accept),
// with the SHA-512 of its JSON as ETag, and 304 Not Modified to a request whose If-None-Match
// is exactly that ETag.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DiscoveryMediaType } from './discovery';
import { ResponseOptions, serialize, writeEncoded } from './http/respond';

export function writeAggregatedDiscovery(req: IncomingMessage, res: ServerResponse, document: object, mediaType: DiscoveryMediaType, options: ResponseOptions): void {
  const etag = `"${createHash('sha512').update(JSON.stringify(document)).digest('hex').toUpperCase()}"`;
  const headers = { ETag: etag, Vary: 'Accept', 'Cache-Control': 'public' };
  if (req.headers['if-none-match'] === etag) {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.statusCode = 304;
    res.end();
    return;
  }
  const contentType = `application/json;g=${mediaType.group};v=${mediaType.version};as=APIGroupDiscoveryList`;
  writeEncoded(res, 200, serialize(document, { ...options, yaml: false }), options, contentType, headers);
}
