// withMetrics makes an app's named work queues report to the process's metric registry and,
// given a bind address (host:port), serves that registry on plain HTTP at /metrics, with
// /healthz, as kube-controller-manager's former insecure port (10252) did. The all-in-one needs
// no address: its API server serves the same registry on /metrics.
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { DynamicModule, Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { setWorkQueueMetricsProvider } from '@plinth/client';
import { defaultRegistry, negotiateExposition, workQueueMetricsProvider } from '@plinth/metrics';

const METRICS_BIND_ADDRESS = Symbol('MetricsBindAddress');

@Injectable()
export class MetricsEndpoint implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('metrics');
  private server: Server | null = null;

  constructor(@Inject(METRICS_BIND_ADDRESS) private readonly bindAddress: string) {
    // Set before the other providers bootstrap, so the queues they create are measured.
    setWorkQueueMetricsProvider(workQueueMetricsProvider(defaultRegistry()));
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.bindAddress) return;
    const { host, port } = splitHostPort(this.bindAddress);
    const server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (req.method === 'GET' && path === '/metrics') {
        const { format, contentType } = negotiateExposition(req.headers.accept);
        res.writeHead(200, { 'content-type': contentType }).end(defaultRegistry().expose(format));
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
    this.server = server;
    const address = server.address() as AddressInfo;
    this.logger.log(`serving metrics on http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}/metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    setWorkQueueMetricsProvider(null);
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

@Module({})
class MetricsModule {}

export function withMetrics(root: DynamicModule, bindAddress = ''): DynamicModule {
  const metricsModule: DynamicModule = {
    module: MetricsModule,
    global: true,
    providers: [{ provide: METRICS_BIND_ADDRESS, useValue: bindAddress }, MetricsEndpoint],
  };
  return { ...root, imports: [...(root.imports ?? []), metricsModule] };
}

// splitHostPort reads "host:port", "[v6]:port" or ":port" (all interfaces).
function splitHostPort(address: string): { host: string | undefined; port: number } {
  const at = address.lastIndexOf(':');
  const host = address.slice(0, at).replace(/^\[(.*)\]$/, '$1');
  return { host: host || undefined, port: Number(address.slice(at + 1)) };
}
