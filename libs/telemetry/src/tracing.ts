// startTracing installs the OpenTelemetry SDK for one process when an OTLP endpoint is
// configured (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT): a tracer
// provider whose batch processor exports over OTLP/HTTP (JSON), the async-hooks context manager
// and the W3C trace-context and baggage propagators (export-sdk.ts). Without an endpoint it
// installs nothing and does not even load the SDK, so spans stay the API's no-op spans and no
// context crosses a process boundary.
//
// The SDK reads the standard variables itself: OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES
// (over the app's default service.name), OTEL_EXPORTER_OTLP_{,TRACES_}{ENDPOINT,HEADERS,TIMEOUT,
// COMPRESSION}, OTEL_TRACES_SAMPLER{,_ARG}, OTEL_BSP_* and the span limits; OTEL_SDK_DISABLED=true
// and OTEL_TRACES_EXPORTER=none turn export off. OTEL_LOG_LEVEL (error, warn, info, debug...)
// prints the SDK's own diagnostics, failed exports included, on the console.
import { DiagLogLevel } from '@opentelemetry/api';
import { tracingOn } from './span';

export interface Tracing {
  // enabled says whether spans are recorded and exported.
  readonly enabled: boolean;
  // shutdown exports the spans still queued and stops the provider; later spans are dropped.
  shutdown(): Promise<void>;
}

const tracingOff: Tracing = { enabled: false, shutdown: async () => undefined };

let installed = false;

// tracingEnabled says whether this process records spans (it exports them, or a tracer
// provider was registered otherwise), so a hot path can skip building a span's attributes when
// nobody will read them.
export function tracingEnabled(): boolean {
  return installed || tracingOn();
}

// exportConfigured decides from the environment whether a process exports traces.
export function exportConfigured(env: NodeJS.ProcessEnv): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return false;
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return false;
  return (env.OTEL_TRACES_EXPORTER ?? '').trim().toLowerCase() !== 'none';
}

// startTracing sets up export for the process named serviceName (plinth-gateway, ...), once.
export async function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): Promise<Tracing> {
  if (installed || !exportConfigured(env)) return tracingOff;
  installed = true;
  const { installExportSdk } = await import('./export-sdk');
  const stopSdk = installExportSdk(serviceName, diagLogLevel(env.OTEL_LOG_LEVEL));
  let stopped: Promise<void> | null = null;
  return {
    enabled: true,
    shutdown() {
      stopped ??= stopSdk().finally(() => {
        installed = false;
      });
      return stopped;
    },
  };
}

// diagLogLevel reads OTEL_LOG_LEVEL; null when unset or unknown (the SDK stays silent).
export function diagLogLevel(value: string | undefined): DiagLogLevel | null {
  const levels: Record<string, DiagLogLevel> = {
    none: DiagLogLevel.NONE,
    error: DiagLogLevel.ERROR,
    warn: DiagLogLevel.WARN,
    info: DiagLogLevel.INFO,
    debug: DiagLogLevel.DEBUG,
    verbose: DiagLogLevel.VERBOSE,
    all: DiagLogLevel.ALL,
  };
  return levels[(value ?? '').trim().toLowerCase()] ?? null;
}

