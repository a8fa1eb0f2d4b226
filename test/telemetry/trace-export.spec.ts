// Trace export across the distributed processes: the gateway, the authz service and the
// storage service each export their spans over OTLP/HTTP to a receiver, and one request makes
// one trace: the gateway's request span (continuing the caller's traceparent) is the parent of
// its client span to authz and of the handler's span, which holds the client spans to storage;
// the client spans are the parents of those services' server spans, and the storage service's
// server span is the parent of its client span to etcd. The processes export only
// when they stop (the batch delay is longer than the test), so the spans arrive through each
// app's flush on SIGTERM.
import { randomBytes } from 'node:crypto';
import { OtlpReceiver, startOtlpReceiver, eventually } from '@plinth/testing';
import { DistributedPlinth, startDistributed } from '../distributed';

const SERVER = 2;
const CLIENT = 3;

describe('trace export over OTLP/HTTP', () => {
  let receiver: OtlpReceiver;
  let plinth: DistributedPlinth;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    plinth = await startDistributed({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '600000' });
  }, 120000);

  afterAll(async () => {
    await plinth?.stop();
    await receiver?.stop();
  });

  it('follows one request from the gateway to the authz and storage services', async () => {
    const binding = await plinth.request('POST', '/apis/rbac.authorization.platform.io/v1/namespaces/default/rolebindings', 'admin-token', {
      metadata: { name: 'alice-edit' },
      roleRef: { apiGroup: 'rbac.authorization.platform.io', kind: 'ClusterRole', name: 'edit' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.platform.io', name: 'alice' }],
    });
    expect(binding.status).toBe(201);

    // The caller's span: the gateway's request span must continue its trace.
    const callerSpanId = randomBytes(8).toString('hex');
    let last = '';
    const traceId = await eventually(async () => {
      const id = randomBytes(16).toString('hex');
      const created = await plinth.request('POST', '/api/v1/namespaces/default/serviceaccounts', 'alice-token', { metadata: { name: 'traced' } }, {
        traceparent: `00-${id}-${callerSpanId}-01`,
      });
      last = `${created.status} ${created.body}`;
      return created.status === 201 ? id : undefined;
    }, { what: () => `alice creates a ServiceAccount (last answer: ${last})` });

    expect(receiver.spans()).toEqual([]);
    await plinth.stop();
    const spans = receiver.spans().filter((s) => s.traceId === traceId);
    expect(new Set(spans.map((s) => s.service))).toEqual(new Set(['plinth-gateway', 'plinth-authz', 'plinth-storage']));

    const request = spans.find((s) => s.service === 'plinth-gateway' && s.kind === SERVER);
    expect(request).toMatchObject({
      name: 'POST /api/v1/namespaces/{:namespace}/serviceaccounts',
      parentSpanId: callerSpanId,
      attributes: expect.objectContaining({
        'http.method': 'POST',
        'http.route': '/api/v1/namespaces/{:namespace}/serviceaccounts',
        'http.target': '/api/v1/namespaces/default/serviceaccounts',
        'http.status_code': 201,
        'http.user_agent': 'plinth-e2e/1.0',
        verb: 'create',
        resource: 'serviceaccounts',
        namespace: 'default',
      }),
    });

    const gatewayClient = (name: string) => spans.find((s) => s.service === 'plinth-gateway' && s.kind === CLIENT && s.name === name);
    const authorizeCall = gatewayClient('plinth.authz/Authorize');
    expect(authorizeCall?.parentSpanId).toBe(request!.spanId);
    const authorized = spans.find((s) => s.service === 'plinth-authz' && s.name === 'plinth.authz/Authorize');
    expect(authorized).toMatchObject({ kind: SERVER, parentSpanId: authorizeCall!.spanId });

    // The handler's span, as kube-apiserver's create.go starts one, holds the storage calls.
    const handler = spans.find((s) => s.service === 'plinth-gateway' && s.name === 'Create');
    expect(handler).toMatchObject({
      parentSpanId: request!.spanId,
      attributes: expect.objectContaining({ verb: 'POST', resource: 'serviceaccounts', scope: 'resource', url: '/api/v1/namespaces/default/serviceaccounts', 'user-agent': 'plinth-e2e/1.0', protocol: 'HTTP/1.1' }),
    });
    const createCall = gatewayClient('plinth.storage.v1.ObjectStore/Create');
    expect(createCall?.parentSpanId).toBe(handler!.spanId);
    const stored = spans.find((s) => s.service === 'plinth-storage' && s.name === 'plinth.storage.v1.ObjectStore/Create');
    expect(stored).toMatchObject({ kind: SERVER, parentSpanId: createCall!.spanId });
    // The storage service's request to etcd, a client span with the key it wrote.
    const etcdCall = spans.find((s) => s.service === 'plinth-storage' && s.name === 'etcdserverpb.KV/Txn' && s.parentSpanId === stored!.spanId);
    expect(etcdCall).toMatchObject({
      kind: CLIENT,
      attributes: expect.objectContaining({ 'rpc.method': 'Txn', 'db.system': 'etcd', 'etcd.key': expect.stringMatching(/serviceaccounts\/default\/traced$/) }),
    });
    expect(etcdCall!.attributes['etcd.response.revision']).toBeGreaterThan(0);
  }, 90000);
});
