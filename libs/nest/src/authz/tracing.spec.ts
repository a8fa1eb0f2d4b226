// A trace started in the gateway continues in the authz replica that answers: the client span
// travels in the NATS headers and becomes the parent of the server span.
import { SpanKind, trace } from '@opentelemetry/api';
import { connect, NatsConnection } from 'nats';
import { nonResourceAttributes } from '@plinth/rbac';
import { NatsServer, startNats, inMemoryTracing } from '@plinth/testing';
import { NatsAuthorizer } from '@plinth/authz-nats';
import { AuthorizerService, serveAuthorizer } from './serve-authorizer';

describe('tracing over NATS', () => {
  const tracing = inMemoryTracing();
  const { exporter } = tracing;
  let nats: NatsServer;
  let connections: NatsConnection[];
  let service: AuthorizerService;
  let remote: NatsAuthorizer;

  beforeAll(async () => {
    tracing.install();
    nats = await startNats();
    connections = [await connect({ servers: nats.url }), await connect({ servers: nats.url })];
    service = await serveAuthorizer(connections[0], {
      authorize: async () => ({ decision: 'Allow', reason: '', evaluationError: '', resolutionErrors: [] }),
      rulesReview: async () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
      checkRbacWrite: async () => null,
    });
    remote = new NatsAuthorizer(connections[1], { allowedTtlMs: 0 });
  });

  afterAll(async () => {
    remote?.close();
    await service?.stop();
    await Promise.all((connections ?? []).map((nc) => nc.close()));
    await nats?.stop();
    tracing.uninstall();
  });

  it.each([
    ['Authorize', () => remote.authorize(nonResourceAttributes({ user: { name: 'a', uid: '', groups: [], extra: {} }, verb: 'get', path: '/healthz' }))],
    ['RulesReview', () => remote.rulesReview({ name: 'a', uid: '', groups: [], extra: {} }, 'default')],
  ])('makes the client span of %s the parent of the server span', async (operation, ask) => {
    exporter.reset();
    await trace.getTracer('test').startActiveSpan('request', async (root) => {
      await ask();
      root.end();
    });
    const spans = exporter.getFinishedSpans();
    const root = spans.find((s) => s.name === 'request');
    const client = spans.find((s) => s.name === `plinth.authz/${operation}` && s.kind === SpanKind.CLIENT);
    const server = spans.find((s) => s.name === `plinth.authz/${operation}` && s.kind === SpanKind.SERVER);
    expect(client?.parentSpanContext?.spanId).toBe(root?.spanContext().spanId);
    expect(server?.parentSpanContext?.spanId).toBe(client?.spanContext().spanId);
    expect(server?.spanContext().traceId).toBe(root?.spanContext().traceId);
    expect(server?.attributes).toMatchObject({ 'messaging.system': 'nats' });
  });
});
