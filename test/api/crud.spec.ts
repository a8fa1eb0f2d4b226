// HTTP-level behaviour of the API server: verbs, Status errors, generation and status
// handling, namespaces, finalizers, dryRun, field validation, limits.
import { startTestApiServer } from '@plinth/testing-server';
import { client, suiteServer } from './http';
import { gone } from '@plinth/testing';

const job = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name },
  spec: {
    template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
    ...extra,
  },
});

describe('API server: objects', () => {
  const server = suiteServer();
  const { request } = server;

  it('creates, reads and lists a Job with server-set metadata and defaults', async () => {
    const created = await request('POST', '/apis/batch/v1/namespaces/default/jobs', { body: job('create-1') });
    expect(created.status).toBe(201);
    expect(created.json.metadata).toMatchObject({ name: 'create-1', namespace: 'default', generation: 1 });
    expect(created.json.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.json.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Number(created.json.metadata.resourceVersion)).toBeGreaterThan(0);
    expect(created.json.spec.backoffLimit).toBe(6);
    expect(created.json.spec.completions).toBe(1);
    expect(created.json.spec.parallelism).toBe(1);

    const got = await request('GET', '/apis/batch/v1/namespaces/default/jobs/create-1');
    expect(got.status).toBe(200);
    expect(got.json).toEqual(created.json);

    const list = await request('GET', '/apis/batch/v1/namespaces/default/jobs');
    expect(list.json.kind).toBe('JobList');
    expect(list.json.apiVersion).toBe('batch/v1');
    expect(list.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toContain('create-1');
    expect(list.json.items[0].kind).toBeUndefined();
  });

  it('answers missing objects with a NotFound Status', async () => {
    const res = await request('GET', '/apis/batch/v1/namespaces/default/jobs/nope');
    expect(res.status).toBe(404);
    expect(res.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'jobs.batch "nope" not found',
      reason: 'NotFound',
      details: { name: 'nope', group: 'batch', kind: 'jobs' },
      code: 404,
    });
  });

  it('refuses a second create with AlreadyExists', async () => {
    await request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'dup' } } });
    const res = await request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'dup' } } });
    expect(res.status).toBe(409);
    expect(res.json.reason).toBe('AlreadyExists');
    expect(res.json.message).toBe('namespaces "dup" already exists');
  });

  it('refuses an update at a stale resourceVersion with Conflict', async () => {
    const created = await request('POST', '/apis/batch/v1/namespaces/default/jobs', { body: job('conflict-1') });
    const first = { ...created.json, metadata: { ...created.json.metadata, labels: { a: '1' } } };
    expect((await request('PUT', '/apis/batch/v1/namespaces/default/jobs/conflict-1', { body: first })).status).toBe(200);
    const stale = { ...created.json, metadata: { ...created.json.metadata, labels: { a: '2' } } };
    const res = await request('PUT', '/apis/batch/v1/namespaces/default/jobs/conflict-1', { body: stale });
    expect(res.status).toBe(409);
    expect(res.json.reason).toBe('Conflict');
    expect(res.json.message).toBe(
      'Operation cannot be fulfilled on jobs.batch "conflict-1": the object has been modified; please apply your changes to the latest version and try again',
    );
  });

  it('bumps generation on spec changes only, and keeps status and spec writes apart', async () => {
    const created = (await request('POST', '/apis/batch/v1/namespaces/default/jobs', { body: job('gen-1', { suspend: true }) })).json;
    const labelled = (await request('PUT', '/apis/batch/v1/namespaces/default/jobs/gen-1', { body: { ...created, metadata: { ...created.metadata, labels: { x: 'y' } } } })).json;
    expect(labelled.metadata.generation).toBe(1);
    const resumed = (await request('PUT', '/apis/batch/v1/namespaces/default/jobs/gen-1', { body: { ...labelled, spec: { ...labelled.spec, suspend: false }, status: { active: 9 } } })).json;
    expect(resumed.metadata.generation).toBe(2);
    expect(resumed.status?.active).toBeUndefined();

    const status = await request('PUT', '/apis/batch/v1/namespaces/default/jobs/gen-1/status', {
      body: { ...resumed, spec: { ...resumed.spec, suspend: true }, status: { active: 2 } },
    });
    expect(status.status).toBe(200);
    expect(status.json.status.active).toBe(2);
    expect(status.json.spec.suspend).toBe(false);
    expect(status.json.metadata.generation).toBe(2);
  });

  it('answers an unchanged update without a new resourceVersion', async () => {
    const created = (await request('POST', '/apis/batch/v1/namespaces/default/jobs', { body: job('noop-1') })).json;
    const again = await request('PUT', '/apis/batch/v1/namespaces/default/jobs/noop-1', { body: created });
    expect(again.status).toBe(200);
    expect(again.json.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
  });

  it('rejects invalid objects with 422 and one cause per field', async () => {
    const res = await request('POST', '/apis/batch/v1/namespaces/default/jobs', {
      body: { metadata: { name: 'Bad_Name' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] } } } },
    });
    expect(res.status).toBe(422);
    expect(res.json.reason).toBe('Invalid');
    expect(res.json.message).toMatch(/^Job\.batch "Bad_Name" is invalid: /);
    expect(res.json.details.causes).toContainEqual(expect.objectContaining({ field: 'metadata.name', reason: 'FieldValueInvalid' }));
  });

  it('names objects from generateName', async () => {
    const res = await request('POST', '/apis/batch/v1/namespaces/default/jobs', { body: { ...job(''), metadata: { generateName: 'gen-' } } });
    expect(res.status).toBe(201);
    expect(res.json.metadata.name).toMatch(/^gen-[a-z0-9]{5}$/);
  });

  it('answers 404 for a namespace that does not exist and 403 for one being terminated', async () => {
    const missing = await request('POST', '/apis/batch/v1/namespaces/nowhere/jobs', { body: job('j') });
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe('namespaces "nowhere" not found');

    await request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'ending', finalizers: ['example.com/hold'] } } });
    const deleting = await request('DELETE', '/api/v1/namespaces/ending');
    expect(deleting.status).toBe(200);
    const res = await request('POST', '/apis/batch/v1/namespaces/ending/jobs', { body: job('j') });
    expect(res.status).toBe(403);
    expect(res.json.reason).toBe('Forbidden');
    expect(res.json.message).toBe('jobs.batch "j" is forbidden: unable to create new content in namespace ending because it is being terminated');
  });

  it('holds a deletion with finalizers and completes it when the last one is removed', async () => {
    const created = (await request('POST', '/apis/batch/v1/namespaces/default/jobs', { body: { ...job('fin-1'), metadata: { name: 'fin-1', finalizers: ['example.com/keep'] } } })).json;
    const deleting = await request('DELETE', '/apis/batch/v1/namespaces/default/jobs/fin-1', { body: { propagationPolicy: 'Background' } });
    expect(deleting.status).toBe(200);
    expect(deleting.json.kind).toBe('Job');
    expect(deleting.json.metadata.deletionTimestamp).toBeDefined();
    expect(deleting.json.metadata.generation).toBe(created.metadata.generation + 1);
    const patched = await request('PATCH', '/apis/batch/v1/namespaces/default/jobs/fin-1', {
      raw: JSON.stringify({ metadata: { finalizers: null } }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(patched.status).toBe(200);
    expect((await request('GET', '/apis/batch/v1/namespaces/default/jobs/fin-1')).status).toBe(404);
  });

  it('deletes at once without finalizers and answers a Success Status', async () => {
    const created = (await request('POST', '/apis/batch/v1/namespaces/default/jobs', { body: job('del-1') })).json;
    const res = await request('DELETE', '/apis/batch/v1/namespaces/default/jobs/del-1?propagationPolicy=Background');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'del-1', group: 'batch', kind: 'jobs', uid: created.metadata.uid },
    });
  });

  it('orphans by default for batch/v1 Jobs, as Kubernetes does', async () => {
    await request('POST', '/apis/batch/v1/namespaces/default/jobs', { body: job('orphan-1') });
    const res = await request('DELETE', '/apis/batch/v1/namespaces/default/jobs/orphan-1');
    expect(res.status).toBe(200);
    expect(res.json.metadata.finalizers).toEqual(['orphan']);
    expect(res.headers.get('warning')).toBe(
      '299 - "child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning"',
    );
    await request('POST', '/apis/batch/v1/namespaces/default/jobs', { body: job('orphan-2') });
    const explicit = await request('DELETE', '/apis/batch/v1/namespaces/default/jobs/orphan-2?propagationPolicy=Orphan');
    expect(explicit.json.metadata.finalizers).toEqual(['orphan']);
    expect(explicit.headers.get('warning')).toBeNull();
    const collection = await request('DELETE', '/apis/batch/v1/namespaces/default/jobs?labelSelector=none%3Dmatches');
    expect(collection.status).toBe(200);
    expect(collection.headers.get('warning')).toContain('child pods are preserved by default');
  });

  it('checks delete preconditions', async () => {
    await request('POST', '/apis/batch/v1/namespaces/default/jobs', { body: job('pre-1') });
    const res = await request('DELETE', '/apis/batch/v1/namespaces/default/jobs/pre-1', { body: { preconditions: { uid: 'other' } } });
    expect(res.status).toBe(409);
    expect(res.json.message).toMatch(/^Operation cannot be fulfilled on Job.batch "pre-1": the UID in the precondition \(other\) does not match the UID in record \([0-9a-f-]+\)\. The object might have been deleted and then recreated$/);
    expect(res.json.details).toEqual({ name: 'pre-1', group: 'batch', kind: 'Job' });
  });

  it('runs dryRun=All through validation without storing', async () => {
    const res = await request('POST', '/apis/batch/v1/namespaces/default/jobs?dryRun=All', { body: job('dry-1') });
    expect(res.status).toBe(201);
    expect(res.json.spec.backoffLimit).toBe(6);
    expect((await request('GET', '/apis/batch/v1/namespaces/default/jobs/dry-1')).status).toBe(404);
    const bad = await request('POST', '/apis/batch/v1/namespaces/default/jobs?dryRun=Some', { body: job('dry-2') });
    expect(bad.status).toBe(422);
    expect(bad.json.message).toBe('CreateOptions.meta.platform.io "" is invalid: dryRun: Unsupported value: []string{"Some"}: supported values: "All"');
  });

  it('warns about unknown fields by default and rejects them with Strict', async () => {
    const body = { ...job('fv-1'), spec: { ...job('fv-1').spec, bogus: 1 } };
    const warned = await request('POST', '/apis/batch/v1/namespaces/default/jobs', { body });
    expect(warned.status).toBe(201);
    expect(warned.headers.get('warning')).toContain('unknown field \\"spec.bogus\\"');
    expect(warned.json.spec.bogus).toBeUndefined();
    const strict = await request('POST', '/apis/batch/v1/namespaces/default/jobs?fieldValidation=Strict', { body: { ...body, metadata: { name: 'fv-2' } } });
    expect(strict.status).toBe(400);
    expect(strict.json.message).toContain('unknown field "spec.bogus"');
    const dup = await request('POST', '/api/v1/namespaces?fieldValidation=Strict', { raw: '{"metadata":{"name":"dupf","name":"dupf"}}', headers: { 'content-type': 'application/json' } });
    expect(dup.status).toBe(400);
    expect(dup.json.message).toContain('duplicate field "metadata.name"');
  });

  it('answers 413 for a body over the limit and 415 for an unknown content type', async () => {
    const huge = await request('POST', '/api/v1/namespaces', { raw: `{"metadata":{"name":"x"},"pad":"${'a'.repeat(3 * 1024 * 1024)}"}`, headers: { 'content-type': 'application/json' } });
    expect(huge.status).toBe(413);
    expect(huge.json.reason).toBe('RequestEntityTooLarge');
    const odd = await request('POST', '/api/v1/namespaces', { raw: 'x', headers: { 'content-type': 'text/plain' } });
    expect(odd.status).toBe(415);
  });

  it('answers malformed JSON with 400, never a crash', async () => {
    const res = await request('POST', '/api/v1/namespaces', { raw: '{"metadata":', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.json.kind).toBe('Status');
    expect((await request('GET', '/api/v1/namespaces/default')).status).toBe(200);
  });

  it('answers values of the wrong JSON type as encoding/json words it (400; a patched object 422), in every fieldValidation mode', async () => {
    for (const mode of ['Ignore', 'Warn', 'Strict']) {
      const res = await request('POST', `/api/v1/namespaces?fieldValidation=${mode}`, { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 5 } } });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({
        reason: 'BadRequest',
        message: 'Namespace in version "v1" cannot be handled as a Namespace: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string',
      });
    }
    const job = await request('POST', '/apis/batch/v1/namespaces/default/jobs', { body: { metadata: { name: 'typed', labels: ['x'] }, spec: {} } });
    expect(job.status).toBe(400);
    expect(job.json.message).toBe('Job in version "v1" cannot be handled as a Job: json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string');
    const patched = await request('PATCH', '/apis/batch/v1/namespaces/default/jobs/create-1', {
      body: { spec: { parallelism: 'two' } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    // A merge patch's result is refused as kube-apiserver's jsonPatcher refuses it: 422 on "patch".
    expect(patched.status).toBe(422);
    expect(patched.json.message).toMatch(/^ "" is invalid: patch: Invalid value: ".*": json: cannot unmarshal string into Go struct field JobSpec\.spec\.parallelism of type int32$/);
    expect((await request('GET', '/apis/batch/v1/namespaces/default/jobs/create-1')).json.spec.parallelism).toBe(1);
  });

  it('answers 405 for a verb the resource does not allow and 404 for unknown resources', async () => {
    const unknown = await request('GET', '/apis/batch/v1/namespaces/default/widgets');
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toBe('the server could not find the requested resource');
    const notAllowed = await request('GET', '/apis/authorization.platform.io/v1/subjectaccessreviews');
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.json.reason).toBe('MethodNotAllowed');
  });

  it('patches with merge patch and JSON patch', async () => {
    await request('POST', '/apis/batch/v1/namespaces/default/jobs', { body: job('patch-1') });
    const merged = await request('PATCH', '/apis/batch/v1/namespaces/default/jobs/patch-1', {
      raw: JSON.stringify({ metadata: { labels: { team: 'a' } } }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(merged.status).toBe(200);
    expect(merged.json.metadata.labels.team).toBe('a');
    const jsonPatched = await request('PATCH', '/apis/batch/v1/namespaces/default/jobs/patch-1', {
      raw: JSON.stringify([{ op: 'replace', path: '/metadata/labels/team', value: 'b' }]),
      headers: { 'content-type': 'application/json-patch+json' },
    });
    expect(jsonPatched.status).toBe(200);
    expect(jsonPatched.json.metadata.labels.team).toBe('b');
    const wrong = await request('PATCH', '/apis/batch/v1/namespaces/default/jobs/patch-1', { raw: '{}', headers: { 'content-type': 'text/plain' } });
    expect(wrong.status).toBe(415);
  });
});

describe('API server: status on create', () => {
  it('keeps the status a Node registers with, and drops the one a Job is created with', async () => {
    const server = await startTestApiServer();
    const request = client(server.url);
    try {
      const node = await request('POST', '/api/v1/nodes', { body: { metadata: { name: 'n1' }, status: { capacity: { cpu: '4' } } } });
      expect(node.status).toBe(201);
      expect(node.json.status.capacity).toEqual({ cpu: '4' });
      const created = await request('POST', '/apis/batch/v1/namespaces/default/jobs', { body: { ...job('st-1'), status: { active: 3 } } });
      expect(created.json.status.active).toBeUndefined();
    } finally {
      await server.stop();
    }
  });
});

describe('API server: namespace deletion', () => {
  it('marks the namespace Terminating, deletes its content, then the namespace', async () => {
    const server = await startTestApiServer();
    const request = client(server.url);
    try {
      await request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'doomed' } } });
      const ns = (await request('GET', '/api/v1/namespaces/doomed')).json;
      expect(ns.spec.finalizers).toEqual(['kubernetes']);
      expect(ns.status.phase).toBe('Active');
      await request('POST', '/apis/batch/v1/namespaces/doomed/jobs', { body: job('inside') });
      const deleting = await request('DELETE', '/api/v1/namespaces/doomed');
      expect(deleting.status).toBe(200);
      expect(deleting.json.status.phase).toBe('Terminating');
      expect(deleting.json.metadata.deletionTimestamp).toBeDefined();
      await gone(() => request('GET', '/api/v1/namespaces/doomed'), { what: 'the namespace deleted' });
      expect((await request('GET', '/apis/batch/v1/namespaces/doomed/jobs/inside')).status).toBe(404);
      const immortal = await request('DELETE', '/api/v1/namespaces/default');
      expect(immortal.status).toBe(403);
    } finally {
      await server.stop();
    }
  });
});

describe('API server: reads with and without the watch cache', () => {
  for (const watchCache of [true, false]) {
    it(`reads its own writes at once (watch cache ${watchCache ? 'on' : 'off'})`, async () => {
      const server = await startTestApiServer({ watchCache });
      const request = client(server.url);
      try {
        for (let i = 0; i < 20; i++) {
          const created = await request('POST', '/apis/batch/v1/namespaces/default/jobs', { body: job(`ryw-${i}`) });
          const got = await request('GET', `/apis/batch/v1/namespaces/default/jobs/ryw-${i}`);
          expect(got.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
          const patched = await request('PATCH', `/apis/batch/v1/namespaces/default/jobs/ryw-${i}`, {
            raw: JSON.stringify({ metadata: { labels: { n: String(i) } } }),
            headers: { 'content-type': 'application/merge-patch+json' },
          });
          const list = await request('GET', '/apis/batch/v1/namespaces/default/jobs?labelSelector=n%3D' + i);
          expect(list.json.items.map((j: { metadata: { resourceVersion: string } }) => j.metadata.resourceVersion)).toEqual([patched.json.metadata.resourceVersion]);
          await request('DELETE', `/apis/batch/v1/namespaces/default/jobs/ryw-${i}?propagationPolicy=Background`);
          expect((await request('GET', `/apis/batch/v1/namespaces/default/jobs/ryw-${i}`)).status).toBe(404);
        }
      } finally {
        await server.stop();
      }
    });
  }
});

describe('API server: pods/binding', () => {
  it('binds a pod to a node once and marks it scheduled', async () => {
    const server = await startTestApiServer();
    const request = client(server.url);
    try {
      await request('POST', '/api/v1/namespaces/default/pods', { body: { metadata: { name: 'p1' }, spec: { containers: [{ name: 'c', image: 'i' }] } } });
      const bound = await request('POST', '/api/v1/namespaces/default/pods/p1/binding', { body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p1' }, target: { kind: 'Node', name: 'n1' } } });
      expect(bound.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
      const pod = (await request('GET', '/api/v1/namespaces/default/pods/p1')).json;
      expect(pod.spec.nodeName).toBe('n1');
      expect(pod.status.conditions).toContainEqual(expect.objectContaining({ type: 'PodScheduled', status: 'True' }));
      const again = await request('POST', '/api/v1/namespaces/default/pods/p1/binding', { body: { metadata: { name: 'p1' }, target: { kind: 'Node', name: 'n2' } } });
      expect(again.status).toBe(409);
      expect(again.json.message).toBe('Operation cannot be fulfilled on pods/binding "p1": pod p1 is already assigned to node "n1"');
      const otherName = await request('POST', '/api/v1/namespaces/default/pods/p1/binding', { body: { metadata: { name: 'p2' }, target: { kind: 'Node', name: 'n2' } } });
      expect([otherName.status, otherName.json.message]).toEqual([400, 'name in URL does not match name in Binding object']);
    } finally {
      await server.stop();
    }
  });
});
