// inMemoryTracing gives a test the spans the code makes: install sets the AsyncLocalStorage
// context manager, W3C trace-context propagation and a tracer provider that keeps every span in
// the exporter, globally, as the apps' startTracing does; uninstall takes all three down.
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

export interface InMemoryTracing {
  exporter: InMemorySpanExporter;
  install(): void;
  uninstall(): void;
}

export function inMemoryTracing(): InMemoryTracing {
  const exporter = new InMemorySpanExporter();
  return {
    exporter,
    install() {
      context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
      propagation.setGlobalPropagator(new W3CTraceContextPropagator());
      trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    },
    uninstall() {
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}
