// managedFields on every write and server-side apply (PATCH application/apply-patch+yaml).
import { startTestApiServer } from '@plinth/testing-server';
import { client, suiteServer } from './http';
import { eventually } from '@plinth/testing';

const jobYaml = (parallelism: number, labels = 'app: web') => `
apiVersion: batch/v1
kind: Job
metadata:
  name: applied
  labels: {${labels}}
spec:
  parallelism: ${parallelism}
  suspend: true
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: main
        image: busybox
`;

describe('API server: managedFields and server-side apply', () => {
  const server = suiteServer();
  const { request } = server;
  const apply = (yaml: string, query = 'fieldManager=applier') =>
    request('PATCH', `/apis/batch/v1/namespaces/default/jobs/applied?${query}`, { raw: yaml, headers: { 'content-type': 'application/apply-patch+yaml' } });

  it('records an Update entry for the manager of a create, owning every field it set', async () => {
    const created = await request('POST', '/api/v1/namespaces?fieldManager=kubectl-create', { body: { metadata: { name: 'mf-1', labels: { a: 'b' } } } });
    expect(created.json.metadata.managedFields).toEqual([
      {
        manager: 'kubectl-create',
        operation: 'Update',
        apiVersion: 'v1',
        time: created.json.metadata.creationTimestamp,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {}, 'f:platform.io/metadata.name': {} } } },
      },
    ]);
    const patched = await request('PATCH', '/api/v1/namespaces/mf-1?fieldManager=labeller', {
      raw: JSON.stringify({ metadata: { labels: { c: 'd' } } }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    const managers = patched.json.metadata.managedFields.map((e: { manager: string }) => e.manager);
    expect(managers).toEqual(['kubectl-create', 'labeller']);
    expect(patched.json.metadata.managedFields[1].fieldsV1).toEqual({ 'f:metadata': { 'f:labels': { 'f:c': {} } } });
  });

  it('creates with apply, then removes what the applier no longer sets', async () => {
    const created = await apply(jobYaml(2, 'app: web, tier: front'));
    expect(created.status).toBe(201);
    const entry = created.json.metadata.managedFields.find((e: { manager: string }) => e.manager === 'applier');
    expect(entry).toMatchObject({ operation: 'Apply', apiVersion: 'batch/v1', fieldsType: 'FieldsV1' });
    expect(entry.fieldsV1['f:spec']['f:parallelism']).toEqual({});
    const reapplied = await apply(jobYaml(2));
    expect(reapplied.status).toBe(200);
    expect(reapplied.json.metadata.labels).toEqual({ app: 'web' });
  });

  it('reports a conflict with another manager, and takes the field when forced', async () => {
    const other = await request('PATCH', '/apis/batch/v1/namespaces/default/jobs/applied?fieldManager=scaler', {
      raw: JSON.stringify({ spec: { parallelism: 5 } }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(other.status).toBe(200);
    const conflict = await apply(jobYaml(3));
    expect(conflict.status).toBe(409);
    expect(conflict.json.reason).toBe('Conflict');
    expect(conflict.json.message).toBe('Apply failed with 1 conflict: conflict with "scaler" using batch/v1: .spec.parallelism');
    expect(conflict.json.details.causes).toEqual([{ reason: 'FieldManagerConflict', message: 'conflict with "scaler" using batch/v1', field: '.spec.parallelism' }]);
    const forced = await apply(jobYaml(3), 'fieldManager=applier&force=true');
    expect(forced.status).toBe(200);
    expect(forced.json.spec.parallelism).toBe(3);
  });

  it('requires a fieldManager for apply', async () => {
    const res = await apply(jobYaml(1), '');
    expect(res.status).toBe(422);
    expect(res.json.message).toBe('PatchOptions.meta.platform.io "" is invalid: fieldManager: Required value: is required for apply patch');
  });
});

describe('API server: apply authorization', () => {
  it('needs create as well as patch when apply creates the object', async () => {
    const server = await startTestApiServer();
    const admin = client(server.url);
    const alice = client(server.url, 'alice-token');
    try {
      await admin('POST', '/apis/rbac.authorization.platform.io/v1/namespaces/default/roles', {
        body: { metadata: { name: 'patcher' }, rules: [{ apiGroups: ['batch'], resources: ['jobs'], verbs: ['get', 'patch'] }] },
      });
      await admin('POST', '/apis/rbac.authorization.platform.io/v1/namespaces/default/rolebindings', {
        body: { metadata: { name: 'alice-patches' }, roleRef: { apiGroup: 'rbac.authorization.platform.io', kind: 'Role', name: 'patcher' }, subjects: [{ kind: 'User', name: 'alice' }] },
      });
      const res = await eventually(() => alice('PATCH', '/apis/batch/v1/namespaces/default/jobs/applied?fieldManager=alice', { raw: jobYaml(1), headers: { 'content-type': 'application/apply-patch+yaml' } }), {
        until: (answer) => answer.status !== 403 || answer.json.message.includes('cannot create'),
        what: "alice's patch rights reaching the authorizer",
      });
      expect(res.status).toBe(403);
      expect(res.json.message).toBe('jobs.batch "applied" is forbidden: User "alice" cannot create resource "jobs" in API group "batch" in the namespace "default"');
    } finally {
      await server.stop();
    }
  });
});
