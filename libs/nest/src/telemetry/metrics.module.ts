// withMetrics makes an app's named work queues report to the process's metric registry and,
// given a bind address (host:port), serves that registry (@plinth/metrics' serveMetrics). The
// all-in-one needs no address: its API server serves the same registry on /metrics.
import { DynamicModule, Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { setWorkQueueMetricsProvider } from '@plinth/client';
import { defaultRegistry, MetricsEndpoint, serveMetrics, workQueueMetricsProvider } from '@plinth/metrics';

const METRICS_BIND_ADDRESS = Symbol('MetricsBindAddress');

@Injectable()
export class MetricsHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('metrics');
  private endpoint: MetricsEndpoint | null = null;

  constructor(@Inject(METRICS_BIND_ADDRESS) private readonly bindAddress: string) {
    // Set before the other providers bootstrap, so the queues they create are measured.
    setWorkQueueMetricsProvider(workQueueMetricsProvider(defaultRegistry()));
  }

  // url is where the metrics are served ('' without a bind address).
  get url(): string {
    return this.endpoint?.url ?? '';
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.bindAddress) return;
    this.endpoint = await serveMetrics(defaultRegistry(), this.bindAddress);
    this.logger.log(`serving metrics on ${this.endpoint.url}/metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    setWorkQueueMetricsProvider(null);
    await this.endpoint?.close();
  }
}

@Module({})
class MetricsModule {}

export function withMetrics(root: DynamicModule, bindAddress = ''): DynamicModule {
  const metricsModule: DynamicModule = {
    module: MetricsModule,
    global: true,
    providers: [{ provide: METRICS_BIND_ADDRESS, useValue: bindAddress }, MetricsHost],
  };
  return { ...root, imports: [...(root.imports ?? []), metricsModule] };
}
