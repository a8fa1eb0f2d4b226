// startOpenApiTestServer serves legacy discovery and the OpenAPI route of a catalog over plain
// HTTP on a free loopback port: enough for HTTP-level specs and for kubectl explain, without
// storage. Resource requests go to the spec's handler (404 without one); every request path is
// recorded, so a spec can tell which documents a client fetched.
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import type { ResourceCatalog } from '@plinth/registry';
import { apiGroupList, apiResourceList, apiVersions } from '../discovery';
import { parseRequestInfo } from '../request-info';
import { openApiRoutes, OpenApiRoute } from './routes';

export interface OpenApiTestServer {
  url: string;
  route: OpenApiRoute;
  // requests are "METHOD path" of every request served.
  requests: string[];
  stop(): Promise<void>;
}

export type ResourceHandler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => boolean;

export async function startOpenApiTestServer(catalog: ResourceCatalog, onResource: ResourceHandler = () => false): Promise<OpenApiTestServer> {
  const route = openApiRoutes(catalog);
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const url = new URL(req.url ?? '/', 'http://openapi.invalid');
      requests.push(`${req.method} ${url.pathname}`);
      const info = parseRequestInfo(req.method ?? 'GET', url.pathname, url.searchParams);
      if (!info.isResourceRequest && (await route(req, res, info, url.searchParams, { pretty: false, gzip: false, yaml: false, warnings: [] }))) return;
      if (info.isResourceRequest && onResource(req, res, Buffer.concat(chunks))) return;
      const parts = url.pathname.split('/').filter((p) => p !== '');
      let body: unknown = null;
      if (parts.length === 1 && parts[0] === 'api') body = apiVersions(String(req.headers.host ?? ''));
      else if (parts.length === 2 && parts[0] === 'api') body = apiResourceList(catalog, '', parts[1]);
      else if (parts.length === 1 && parts[0] === 'apis') body = apiGroupList(catalog);
      else if (parts.length === 3 && parts[0] === 'apis' && catalog.hasGroupVersion(parts[1], parts[2])) body = apiResourceList(catalog, parts[1], parts[2]);
      res.statusCode = body ? 200 : 404;
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(body ?? { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 }));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    route,
    requests,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
