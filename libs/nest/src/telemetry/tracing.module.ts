// withTracing adds the process's Tracing to an app's root module so that its queued spans are
// exported on shutdown. The module is global: Nest runs the shutdown hooks of global modules
// last, after the hosts whose own shutdown may still end spans.
import { DynamicModule, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { Tracing } from '@plinth/telemetry';

const TRACING = Symbol('Tracing');

@Injectable()
class TracingShutdown implements OnApplicationShutdown {
  constructor(@Inject(TRACING) private readonly tracing: Tracing) {}

  onApplicationShutdown(): Promise<void> {
    return this.tracing.shutdown();
  }
}

@Module({})
class TracingModule {}

export function withTracing(root: DynamicModule, tracing: Tracing): DynamicModule {
  if (!tracing.enabled) return root;
  const tracingModule: DynamicModule = {
    module: TracingModule,
    global: true,
    providers: [{ provide: TRACING, useValue: tracing }, TracingShutdown],
  };
  return { ...root, imports: [...(root.imports ?? []), tracingModule] };
}
