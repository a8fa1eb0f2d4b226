// listenHttps serves an ApiServer over TLS, asking for (but not requiring) client
// certificates, which authentication reads. As kube-apiserver, it offers HTTP/2 by ALPN: kubectl
// and client-go multiplex their requests and watches on one connection (up to 1,000 streams
// each, kube-apiserver's --http2-max-streams-per-connection), so that thousands of watches
// share a few connections and each event costs a frame, not a TLS write of its own. A client
// that does not offer h2 is served HTTP/1.1, framed as Go's server frames it.
import { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { createSecureServer, Http2SecureServer, ServerHttp2Session } from 'node:http2';
import { AddressInfo } from 'node:net';
import { ApiServer } from './server';
import { ClusterPki } from './pki';
import { distinctHeaders, httpServerOptions, maxHeaderBytes, serveHttpAsGo } from './http/framing';
import { Listener } from './http/lifecycle';

// maxStreamsPerConnection is kube-apiserver's --http2-max-streams-per-connection default.
export const maxStreamsPerConnection = 1000;

// HttpsListener is the HTTP/2 server, with node:http's Server methods that close connections
// made to cover its HTTP/2 sessions too (a graceful GOAWAY for the idle ones).
export type HttpsListener = Http2SecureServer & Listener;

export async function listenHttps(server: ApiServer, clusterPki: ClusterPki, host: string, port: number): Promise<{ server: HttpsListener; port: number }> {
  const https = http2Server(server.handle, {
    cert: clusterPki.server.cert,
    key: clusterPki.server.key,
    ca: clusterPki.ca.cert,
    requestCert: true,
    rejectUnauthorized: false,
  });
  await new Promise<void>((resolve, reject) => {
    https.once('error', reject);
    https.listen(port, host, () => resolve());
  });
  return { server: https, port: (https.address() as AddressInfo).port };
}

interface TlsFiles {
  cert: string;
  key: string;
  ca: string;
  requestCert: boolean;
  rejectUnauthorized: boolean;
}

// http2Server is a TLS server speaking HTTP/2 and HTTP/1.1, both handed to `handle` (HTTP/2
// requests through node:http2's compatibility API, which has node:http's request and response
// shape, completed with the headersDistinct it lacks). Its HTTP/1.1 connections read the node:http options (header size, keep-alive) from
// the server, as node:http2 hands them to node:http's connection handling.
function http2Server(handle: (req: IncomingMessage, res: ServerResponse) => void, tls: TlsFiles): HttpsListener {
  const h2 = createSecureServer(
    {
      ...tls,
      allowHTTP1: true,
      // Go reads up to 1 MiB of header block whatever the number of fields.
      maxHeaderListPairs: 1 << 16,
      // What a session may hold in node:http2's buffers before it refuses new streams (10 MiB by
      // default): a thousand watches' events in flight on one connection.
      maxSessionMemory: 64,
      settings: { maxConcurrentStreams: maxStreamsPerConnection, maxHeaderListSize: maxHeaderBytes },
    },
    ((req: IncomingMessage, res: ServerResponse) => {
      if (req.httpVersionMajor >= 2) req.headersDistinct = distinctHeaders(req.rawHeaders);
      handle(req, res);
    }) as unknown as Parameters<typeof createSecureServer>[1],
  );
  Object.assign(h2, httpServerOptions, { keepAliveTimeout: 65_000 });
  serveHttpAsGo(h2 as unknown as HttpServer, handle);
  const sessions = new Set<ServerHttp2Session>();
  h2.on('session', (session: ServerHttp2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
    // A session's failure is its own (the streams on it end); it must not reach the process.
    session.on('error', () => session.destroy());
  });
  return Object.assign(h2, {
    closeIdleConnections(): void {
      HttpServer.prototype.closeIdleConnections.call(h2 as unknown as HttpServer);
      for (const session of sessions) session.close();
    },
    closeAllConnections(): void {
      HttpServer.prototype.closeAllConnections.call(h2 as unknown as HttpServer);
      for (const session of sessions) session.destroy();
    },
  });
}
