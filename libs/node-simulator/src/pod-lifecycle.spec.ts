import { KubeObject } from '@plinth/api';
import { simAnnotations } from './annotations';
import { nextPodStatus } from './pod-lifecycle';

const t0 = Date.UTC(2026, 0, 1, 0, 0, 0);

function pod(restartPolicy: string, annotations: Record<string, string> = {}, status?: Record<string, unknown>): KubeObject {
  return { metadata: { name: 'p', uid: 'u1', annotations }, spec: { restartPolicy, nodeName: 'n1', containers: [{ name: 'main', image: 'busybox' }] }, status };
}

function step(p: KubeObject, now: number): KubeObject {
  const next = nextPodStatus(p, '10.0.0.1', now);
  return next.status ? { ...p, status: next.status } : p;
}

describe('nextPodStatus', () => {
  it('runs a Never pod for a second by default, then succeeds with exit code 0', () => {
    const started = step(pod('Never'), t0);
    expect(started.status).toMatchObject({ phase: 'Running', startTime: '2026-01-01T00:00:00Z' });
    expect(nextPodStatus(started, '10.0.0.1', t0 + 500).status).toBeNull();
    expect(nextPodStatus(started, '10.0.0.1', t0 + 500).recheckAfterMs).toBe(500);
    const done = step(started, t0 + 1000);
    expect(done.status).toMatchObject({ phase: 'Succeeded' });
    expect((done.status as { containerStatuses: { state: { terminated: { exitCode: number } } }[] }).containerStatuses[0].state.terminated.exitCode).toBe(0);
    // lastState is always there, as the kubelet reports it (a struct held by value).
    expect((started.status as { containerStatuses: { lastState: unknown }[] }).containerStatuses[0].lastState).toEqual({});
    expect((done.status as { containerStatuses: { lastState: unknown }[] }).containerStatuses[0].lastState).toEqual({});
    expect(nextPodStatus(done, '10.0.0.1', t0 + 5000)).toEqual({ status: null, recheckAfterMs: null });
  });

  it('fails with the annotated exit code and reports the annotated condition', () => {
    const p = pod('Never', { [simAnnotations.exitCode]: '42', [simAnnotations.runSeconds]: '2', [simAnnotations.condition]: 'DisruptionTarget' });
    const done = step(step(p, t0), t0 + 2000);
    expect(done.status).toMatchObject({ phase: 'Failed' });
    const status = done.status as { conditions: { type: string; status: string }[]; containerStatuses: { state: { terminated: { exitCode: number; reason: string } } }[] };
    expect(status.containerStatuses[0].state.terminated).toMatchObject({ exitCode: 42, reason: 'Error' });
    expect(status.conditions).toContainEqual(expect.objectContaining({ type: 'DisruptionTarget', status: 'True' }));
  });

  it('keeps an Always pod Running and becomes Ready after the ready delay', () => {
    const started = step(pod('Always', { [simAnnotations.readySeconds]: '3' }), t0);
    const ready = (s: KubeObject) => (s.status as { conditions: { type: string; status: string }[] }).conditions.find((c) => c.type === 'Ready')?.status;
    expect(ready(started)).toBe('False');
    expect(nextPodStatus(started, '10.0.0.1', t0).recheckAfterMs).toBe(3000);
    const later = step(started, t0 + 3000);
    expect(ready(later)).toBe('True');
    expect(nextPodStatus(later, '10.0.0.1', t0 + 1e9)).toEqual({ status: null, recheckAfterMs: null });
  });

  it('reports conditions as the kubelet does: unready containers by name, PodCompleted once succeeded', () => {
    const twoContainers = (p: KubeObject): KubeObject => ({ ...p, spec: { ...(p.spec as object), containers: [{ name: 'app', image: 'a' }, { name: 'sidecar', image: 'b' }] } });
    const byType = (s: KubeObject) => Object.fromEntries((s.status as { conditions: { type: string }[] }).conditions.map((c) => [c.type, c]));
    const starting = step(twoContainers(pod('Always', { [simAnnotations.readySeconds]: '3' })), t0);
    expect(byType(starting)['Ready']).toMatchObject({ status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [app sidecar]' });
    expect(byType(starting)['ContainersReady']).toMatchObject({ status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [app sidecar]' });
    const done = step(step(twoContainers(pod('Never')), t0), t0 + 1000);
    expect(byType(done)['Ready']).toEqual(expect.objectContaining({ status: 'False', reason: 'PodCompleted' }));
    expect(byType(done)['Ready']).not.toHaveProperty('message');
    expect(byType(done)['Initialized']).toMatchObject({ status: 'True', reason: 'PodCompleted' });
    const failed = step(step(twoContainers(pod('Never', { [simAnnotations.exitCode]: '3' })), t0), t0 + 1000);
    expect(byType(failed)['Ready']).toMatchObject({ status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [app sidecar]' });
  });

  it('restarts the container of an OnFailure pod that fails', () => {
    const p = pod('OnFailure', { [simAnnotations.exitCode]: '1' });
    const restarted = step(step(p, t0), t0 + 1000);
    expect(restarted.status).toMatchObject({ phase: 'Running' });
    expect((restarted.status as { containerStatuses: { restartCount: number }[] }).containerStatuses[0].restartCount).toBe(1);
  });

  it('gives every pod a valid IPv4 address', () => {
    for (const uid of ['u1', 'a-long-uid-0000-1111-2222-333344445555', 'zzzzzzzzzzzz', '9f8e7d6c']) {
      const status = nextPodStatus({ ...pod('Always'), metadata: { name: 'p', uid } }, '10.0.0.1', t0).status as { podIP: string };
      expect(status.podIP).toMatch(/^10\.244\.(\d{1,3})\.(\d{1,3})$/);
      expect(status.podIP.split('.').map(Number).every((n) => n >= 0 && n <= 255)).toBe(true);
    }
  });
});
