import { DiagLogLevel } from '@opentelemetry/api';
import { diagLogLevel, exportConfigured, startTracing, tracingEnabled, withSpan } from './index';

describe('exportConfigured', () => {
  it('exports when an OTLP endpoint is set, unless the SDK or the exporter is turned off', () => {
    expect(exportConfigured({})).toBe(false);
    expect(exportConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(exportConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(exportConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'TRUE' })).toBe(false);
    expect(exportConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
  });
});

describe('diagLogLevel', () => {
  it('reads OTEL_LOG_LEVEL, ignoring what it does not know', () => {
    expect(diagLogLevel('warn')).toBe(DiagLogLevel.WARN);
    expect(diagLogLevel(' DEBUG ')).toBe(DiagLogLevel.DEBUG);
    expect(diagLogLevel(undefined)).toBeNull();
    expect(diagLogLevel('loud')).toBeNull();
  });
});

describe('startTracing', () => {
  // Export itself is tested on the real apps (test/telemetry/trace-export.spec.ts): the
  // exporter loads node:http with a dynamic import, which Jest's module system refuses.
  it('installs nothing without an endpoint', async () => {
    const tracing = await startTracing('plinth-test', {});
    expect(tracing.enabled).toBe(false);
    expect(tracingEnabled()).toBe(false);
    await withSpan('unrecorded', {}, (span) => expect(span.isRecording()).toBe(false));
  });
});
