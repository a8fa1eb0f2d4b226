// ownerReferences are validated as ValidateOwnerReferences does (422, nothing stored), and the
// garbage collector skips a malformed one already in storage, reporting it once, instead of
// failing the object's sync in a loop.
import { KubeObject } from '@plinth/api';
import { ApiClient } from '@plinth/client';
import { GarbageCollector } from '@plinth/controller-manager';
import { realClock } from '@plinth/machinery';
import { testTokens } from '@plinth/testing-server';
import { suiteServer } from './http';
import { gone } from '@plinth/testing';

const accounts = '/api/v1/namespaces/default/serviceaccounts';

describe('API server: ownerReferences', () => {
  const server = suiteServer();
  const { request } = server;

  async function expectInvalid(name: string, ownerReferences: string, causes: Array<{ field: string; message: string }>) {
    const res = await request('POST', accounts, { raw: `{"metadata":{"name":"${name}","ownerReferences":${ownerReferences}}}`, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(422);
    expect(res.json.reason).toBe('Invalid');
    expect(res.json.details.causes).toEqual(causes.map((c) => ({ reason: 'FieldValueInvalid', ...c })));
    expect(res.json.message).toBe(`ServiceAccount "${name}" is invalid: ${causes.length > 1 ? '[' : ''}${causes.map((c) => `${c.field}: ${c.message}`).join(', ')}${causes.length > 1 ? ']' : ''}`);
    expect((await request('GET', `${accounts}/${name}`)).status).toBe(404);
  }

  const allEmpty = [
    { field: 'metadata.ownerReferences.apiVersion', message: 'Invalid value: "": version must not be empty' },
    { field: 'metadata.ownerReferences.kind', message: 'Invalid value: "": kind must not be empty' },
    { field: 'metadata.ownerReferences.name', message: 'Invalid value: "": name must not be empty' },
    { field: 'metadata.ownerReferences.uid', message: 'Invalid value: "": uid must not be empty' },
  ];

  it('refuses a null reference (an empty one once decoded) and an empty one', async () => {
    await expectInvalid('owner-null', '[null]', allEmpty);
    await expectInvalid('owner-empty', '[{}]', allEmpty);
  });

  it('refuses a reference without a uid, or with an apiVersion without a version', async () => {
    await expectInvalid('owner-no-uid', '[{"apiVersion":"v1","kind":"Pod","name":"p"}]', [allEmpty[3]]);
    await expectInvalid('owner-bad-version', '[{"apiVersion":"a/b/c","kind":"Pod","name":"p","uid":"u"}]', [{ field: 'metadata.ownerReferences.apiVersion', message: 'Invalid value: "a/b/c": version must not be empty' }]);
  });

  it('refuses an Event as an owner and two controllers', async () => {
    await expectInvalid('owner-event', '[{"apiVersion":"v1","kind":"Event","name":"e","uid":"u"}]', [
      {
        field: 'metadata.ownerReferences',
        message: 'Invalid value: v1.OwnerReference{APIVersion:"v1", Kind:"Event", Name:"e", UID:"u", Controller:(*bool)(nil), BlockOwnerDeletion:(*bool)(nil)}: /v1, Kind=Event is disallowed from being an owner',
      },
    ]);
    const two = await request('POST', accounts, {
      body: { metadata: { name: 'owner-two', ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'a', uid: '1', controller: true }, { apiVersion: 'v1', kind: 'Pod', name: 'b', uid: '2', controller: true }] } },
    });
    expect(two.status).toBe(422);
    expect(two.json.details.causes[0].message).toMatch(/: Only one reference can have Controller set to true. Found "true" in references for Pod\/a and Pod\/b$/);
  });

  it('the garbage collector skips malformed stored references, reports them once, and keeps collecting', async () => {
    // a dependent whose stored references are malformed (written around the API)
    const bad = await request('POST', accounts, { body: { metadata: { name: 'gc-malformed' } } });
    expect(bad.status).toBe(201);
    const rewrite = async (change: (metadata: Record<string, unknown>) => void) => {
      const key = '/registry/core/serviceaccounts/default/gc-malformed';
      const stored = await server.store.get(key);
      const object = JSON.parse(Buffer.from(stored.value).toString('utf8')) as KubeObject;
      change(object.metadata as Record<string, unknown>);
      await server.store.update(key, Buffer.from(JSON.stringify(object)), stored.revision);
    };
    await rewrite((metadata) => (metadata.ownerReferences = [null, {}, { apiVersion: 'v1' }]));
    // a dependent whose owner is gone
    const orphan = await request('POST', accounts, {
      body: { metadata: { name: 'gc-orphan', ownerReferences: [{ apiVersion: 'v1', kind: 'ServiceAccount', name: 'gone', uid: '00000000-0000-0000-0000-000000000000' }] } },
    });
    expect(orphan.status).toBe(201);

    const errors: string[] = [];
    const apiClient = new ApiClient({ server: server.url, caPem: '', token: testTokens.admin });
    const collector = new GarbageCollector(apiClient, realClock, { workers: 2, onError: (err) => errors.push(String(err)) });
    try {
      await collector.start();
      await gone(() => request('GET', `${accounts}/gc-orphan`), { what: 'the orphan was collected' });
      // the malformed one is still there, and was reported once
      expect((await request('GET', `${accounts}/gc-malformed`)).status).toBe(200);
      // another event of the same object is no new report
      await rewrite((metadata) => (metadata.labels = { touched: 'yes' }));
      const second = await request('POST', accounts, {
        body: { metadata: { name: 'gc-orphan-2', ownerReferences: [{ apiVersion: 'v1', kind: 'ServiceAccount', name: 'gone', uid: '00000000-0000-0000-0000-000000000000' }] } },
      });
      expect(second.status).toBe(201);
      await gone(() => request('GET', `${accounts}/gc-orphan-2`), { what: 'the second orphan was collected' });
    } finally {
      await collector.stop();
      apiClient.close();
    }
    expect(errors.filter((e) => e.includes('gc-malformed'))).toEqual([`Error: garbage collector: ignoring 3 malformed ownerReferences of default/gc-malformed (uid ${bad.json.metadata.uid})`]);
    expect(errors.filter((e) => !e.includes('gc-malformed'))).toEqual([]);
  });
});
