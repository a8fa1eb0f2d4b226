// installExportSdk installs the OpenTelemetry SDK for one process: a tracer provider whose batch
// processor exports over OTLP/HTTP (JSON), the async-hooks context manager and the W3C
// trace-context and baggage propagators. tracing.ts loads this module only when export is
// configured: the SDK and its exporter are about 260 modules (some 10 MiB of a process's
// memory) that a process which exports nothing never needs.
import { context, diag, DiagConsoleLogger, DiagLogLevel, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';

// installExportSdk returns the function that exports the queued spans, stops the provider and
// takes every global it set back.
export function installExportSdk(serviceName: string, logLevel: DiagLogLevel | null): () => Promise<void> {
  if (logLevel !== null) diag.setLogger(new DiagConsoleLogger(), logLevel);
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': serviceName }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
  trace.setGlobalTracerProvider(provider);
  return () =>
    provider.shutdown().finally(() => {
      diag.disable();
      trace.disable();
      propagation.disable();
      context.disable();
    });
}
