// The namespace controller as an API client of the test server: it empties a terminating
// namespace through discovery and deletecollection, reports what remains in the namespace's
// conditions with Kubernetes' reasons and messages, and finalizes the namespace once empty.
import { suiteServer } from './http';
import { eventually, gone } from '@plinth/testing';

interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
}

describe('namespace controller', () => {
  const server = suiteServer();
  const { request } = server;

  const leases = (ns: string) => `/apis/coordination.platform.io/v1/namespaces/${ns}/leases`;
  const conditionsOf = async (ns: string): Promise<Condition[]> => (await request('GET', `/api/v1/namespaces/${ns}`)).json?.status?.conditions ?? [];

  it('starts with the system namespaces, written as kube-apiserver writes them (an Update by kube-apiserver)', async () => {
    for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      const ns = await request('GET', `/api/v1/namespaces/${name}`);
      expect(ns.status).toBe(200);
      expect(ns.json.metadata.managedFields.map(({ time: _, ...entry }: Record<string, unknown>) => entry)).toEqual([
        { manager: 'kube-apiserver', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:platform.io/metadata.name': {} } } } },
      ]);
    }
  });

  it('reports content held by finalizers, then removes the namespace once the finalizers are gone', async () => {
    await request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'held' } } });
    await request('POST', leases('held'), { body: { metadata: { name: 'kept', finalizers: ['example.com/hold'] }, spec: {} } });
    await request('POST', leases('held'), { body: { metadata: { name: 'free' }, spec: {} } });
    expect((await request('DELETE', '/api/v1/namespaces/held')).status).toBe(200);

    const conditions = await eventually(() => conditionsOf('held'), { until: (cs) => cs.some((c) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True'), what: 'the finalizers condition' });
    const byType = Object.fromEntries(conditions.map(({ type, status, reason, message }) => [type, { status, reason, message }]));
    expect(byType).toEqual({
      NamespaceDeletionDiscoveryFailure: { status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
      NamespaceDeletionGroupVersionParsingFailure: { status: 'False', reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
      NamespaceDeletionContentFailure: { status: 'False', reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
      NamespaceContentRemaining: { status: 'True', reason: 'SomeResourcesRemain', message: 'Some resources are remaining: leases.coordination.platform.io has 1 resource instances' },
      NamespaceFinalizersRemaining: {
        status: 'True',
        reason: 'SomeFinalizersRemain',
        message: 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
      },
    });
    // The lease without a finalizer is gone; the other waits for its finalizer.
    expect((await request('GET', `${leases('held')}/free`)).status).toBe(404);
    const kept = await request('GET', `${leases('held')}/kept`);
    expect(kept.json.metadata.deletionTimestamp).toBeDefined();
    const namespace = (await request('GET', '/api/v1/namespaces/held')).json;
    expect(namespace.status.phase).toBe('Terminating');
    expect(namespace.spec.finalizers).toEqual(['kubernetes']);
    // The controller wrote the conditions under its field manager.
    expect(namespace.metadata.managedFields).toContainEqual(expect.objectContaining({ manager: 'kube-controller-manager', operation: 'Update', subresource: 'status' }));

    await request('PATCH', `${leases('held')}/kept`, { body: { metadata: { finalizers: null } }, headers: { 'content-type': 'application/merge-patch+json' } });
    await gone(() => request('GET', '/api/v1/namespaces/held'), { what: 'the namespace going away' });
  }, 60000);

  it('removes only the kubernetes finalizer, leaving the namespace to the others', async () => {
    await request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'other-finalizer' }, spec: { finalizers: ['example.com/last', 'kubernetes'] } } });
    await request('POST', leases('other-finalizer'), { body: { metadata: { name: 'content' }, spec: {} } });
    await request('DELETE', '/api/v1/namespaces/other-finalizer');
    const namespace = await eventually(async () => (await request('GET', '/api/v1/namespaces/other-finalizer')).json, { until: (ns) => JSON.stringify(ns.spec.finalizers) === '["example.com/last"]', what: 'the kubernetes finalizer removed' });
    expect(namespace.status.conditions.find((c: Condition) => c.type === 'NamespaceContentRemaining')).toMatchObject({ status: 'False', reason: 'ContentRemoved', message: 'All content successfully removed' });
    expect((await request('GET', `${leases('other-finalizer')}/content`)).status).toBe(404);
  });
});
