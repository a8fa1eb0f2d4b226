// The default pod admission plugins through HTTP: DefaultTolerationSeconds, Priority and
// RuntimeClass (overhead, node selector, tolerations), with kube-apiserver's 403 messages.
import { podManifest, suiteServer } from './http';

describe('API server: pod admission', () => {
  const server = suiteServer();
  const { request } = server;

  it('gives every new pod priority 0, PreemptLowerPriority and the 300 s not-ready and unreachable tolerations', async () => {
    const created = await request('POST', '/api/v1/namespaces/default/pods', { body: podManifest('plain') });
    expect(created.status).toBe(201);
    expect(created.json.spec).toMatchObject({ priority: 0, preemptionPolicy: 'PreemptLowerPriority' });
    expect(created.json.spec.tolerations).toEqual([
      { key: 'node.platform.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.platform.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
    const relabelled = await request('PATCH', '/api/v1/namespaces/default/pods/plain', {
      body: { metadata: { labels: { a: 'b' } } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(relabelled.status).toBe(200);
    expect(relabelled.json.spec.priority).toBe(0);
  });

  it('refuses an unknown priority class and a pod that sets its own priority', async () => {
    const unknown = await request('POST', '/api/v1/namespaces/default/pods', { body: podManifest('unknown-class', { priorityClassName: 'gold' }) });
    expect(unknown.status).toBe(403);
    expect(unknown.json).toMatchObject({ reason: 'Forbidden', message: 'pods "unknown-class" is forbidden: no PriorityClass with name gold was found' });
    const own = await request('POST', '/api/v1/namespaces/default/pods', { body: { ...podManifest(''), metadata: { generateName: 'own-' }, spec: { ...podManifest('').spec, priority: 7 } } });
    expect(own.status).toBe(403);
    expect(own.json.message).toBe(
      'pods "own-" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
    );
  });

  it('applies a RuntimeClass: overhead, merged node selector and tolerations; refuses a missing class', async () => {
    const rc = {
      apiVersion: 'node.platform.io/v1',
      kind: 'RuntimeClass',
      metadata: { name: 'sandboxed' },
      handler: 'runsc',
      overhead: { podFixed: { cpu: '250m' } },
      scheduling: { nodeSelector: { sandbox: 'true' }, tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }] },
    };
    expect((await request('POST', '/apis/node.platform.io/v1/runtimeclasses', { body: rc })).status).toBe(201);
    const created = await request('POST', '/api/v1/namespaces/default/pods', { body: podManifest('sandboxed', { runtimeClassName: 'sandboxed', nodeSelector: { zone: 'a' } }) });
    expect(created.status).toBe(201);
    expect(created.json.spec.overhead).toEqual({ cpu: '250m' });
    expect(created.json.spec.nodeSelector).toEqual({ zone: 'a', sandbox: 'true' });
    expect(created.json.spec.tolerations.map((t: { key: string }) => t.key)).toEqual(['node.platform.io/not-ready', 'node.platform.io/unreachable', 'sandbox']);

    const conflict = await request('POST', '/api/v1/namespaces/default/pods', { body: podManifest('conflict', { runtimeClassName: 'sandboxed', nodeSelector: { sandbox: 'false' } }) });
    expect(conflict.status).toBe(403);
    expect(conflict.json.message).toBe('pods "conflict" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[sandbox] = true; pod.spec.nodeSelector[sandbox] = false');

    const missing = await request('POST', '/api/v1/namespaces/default/pods', { body: podManifest('missing', { runtimeClassName: 'kata' }) });
    expect(missing.status).toBe(403);
    expect(missing.json.message).toBe('pods "missing" is forbidden: pod rejected: RuntimeClass "kata" not found');
    expect((await request('GET', '/api/v1/namespaces/default/pods/missing')).status).toBe(404);
  });
});
