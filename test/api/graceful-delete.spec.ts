// What a delete leaves of an object being deleted: the grace period a Pod on a node gets, how a
// shorter one replaces it, and that a write may not change it (rest.BeforeDelete, BeforeUpdate).
import { suiteServer } from './http';

describe('API server: graceful deletion', () => {
  const server = suiteServer();
  const admin = server.request;
  const podPath = '/api/v1/namespaces/grace/pods/p1';

  beforeAll(async () => {
    await admin('POST', '/api/v1/namespaces', { body: { metadata: { name: 'grace' } } });
    await admin('POST', '/api/v1/namespaces/grace/serviceaccounts', { body: { metadata: { name: 'default' } } });
  });

  it('shortens the grace period of a Pod on a node, and a delete of grace 0 answers with 0 as it removes it', async () => {
    const made = await admin('POST', '/api/v1/namespaces/grace/pods', { body: { metadata: { name: 'p1' }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'busybox' }] } } });
    expect(made.status).toBe(201);
    const first = await admin('DELETE', podPath);
    expect(first.json.metadata.deletionGracePeriodSeconds).toBe(30);
    const shorter = await admin('DELETE', `${podPath}?gracePeriodSeconds=10`);
    expect(shorter.json.metadata.deletionGracePeriodSeconds).toBe(10);
    const longer = await admin('DELETE', `${podPath}?gracePeriodSeconds=45`);
    expect(longer.json.metadata.deletionGracePeriodSeconds).toBe(10);
    const now = await admin('DELETE', `${podPath}?gracePeriodSeconds=0`);
    expect(now.status).toBe(200);
    expect(now.json.metadata.deletionGracePeriodSeconds).toBe(0);
    expect(Date.parse(now.json.metadata.deletionTimestamp)).toBe(Date.parse(shorter.json.metadata.deletionTimestamp) - 10_000);
    expect((await admin('GET', podPath)).status).toBe(404);
  });

  it('refuses a write that changes the deletion grace period, and keeps it when a write leaves it out', async () => {
    const leases = '/apis/coordination.platform.io/v1/namespaces/grace/leases';
    await admin('POST', leases, { body: { metadata: { name: 'held', finalizers: ['example.com/hold'] } } });
    expect((await admin('DELETE', `${leases}/held`)).json.metadata.deletionGracePeriodSeconds).toBe(0);
    const merge = { 'content-type': 'application/merge-patch+json' };
    const changed = await admin('PATCH', `${leases}/held`, { headers: merge, body: { metadata: { deletionGracePeriodSeconds: 5 } } });
    expect(changed.status).toBe(422);
    expect(changed.json.message).toBe('Lease.coordination.platform.io "held" is invalid: metadata.deletionGracePeriodSeconds: Invalid value: 5: field is immutable');
    const current = (await admin('GET', `${leases}/held`)).json;
    delete current.metadata.deletionGracePeriodSeconds;
    const kept = await admin('PUT', `${leases}/held`, { body: current });
    expect(kept.status).toBe(200);
    expect(kept.json.metadata.deletionGracePeriodSeconds).toBe(0);
    expect((await admin('PATCH', `${leases}/held`, { headers: merge, body: { metadata: { finalizers: null } } })).status).toBe(200);
  });
});
