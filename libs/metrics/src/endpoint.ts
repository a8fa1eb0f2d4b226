// serveMetrics serves a registry on plain HTTP at /metrics (OpenMetrics when the scraper asks
// for it), with /healthz, as kube-controller-manager's former insecure port (10252) did: what
// an app without an API server of its own is scraped on.
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { negotiateExposition, Registry } from './registry';

export interface MetricsEndpoint {
  // url is http://host:port of the listener, as bound (the port chosen when :0 was asked).
  readonly url: string;
  close(): Promise<void>;
}

export async function serveMetrics(registry: Registry, bindAddress: string): Promise<MetricsEndpoint> {
  const { host, port } = splitHostPort(bindAddress);
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/metrics') {
      const { format, contentType } = negotiateExposition(req.headers.accept);
      void registry.scrape(format).then((text) => res.writeHead(200, { 'content-type': contentType }).end(text));
    } else if (req.method === 'GET' && path === '/healthz') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('ok');
    } else {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('404 page not found\n');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return { url: urlOf(server), close: () => close(server) };
}

function urlOf(server: Server): string {
  const address = server.address() as AddressInfo;
  return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
}

// splitHostPort reads "host:port", "[v6]:port" or ":port" (all interfaces), as Go's
// net.SplitHostPort; anything else is refused by name.
export function splitHostPort(address: string): { host: string | undefined; port: number } {
  const at = address.lastIndexOf(':');
  const portText = address.slice(at + 1);
  if (at < 0 || !/^\d+$/.test(portText) || Number(portText) > 65535) throw new Error(`address ${JSON.stringify(address)}: want host:port`);
  const host = address.slice(0, at).replace(/^\[(.*)\]$/, '$1');
  return { host: host || undefined, port: Number(portText) };
}
