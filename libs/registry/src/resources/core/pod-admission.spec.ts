import { KubeObject, Toleration } from '@plinth/api';
import { addDefaultTolerations, admitPriority, admitRuntimeClass, keepPriority, mergeTolerations } from './pod-admission';

const specOf = (p: KubeObject): Record<string, unknown> => p.spec as Record<string, unknown>;
const pod = (spec: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x' }], ...spec } });
const notReady = { key: 'node.platform.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
const unreachable = { key: 'node.platform.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };

describe('addDefaultTolerations (DefaultTolerationSeconds)', () => {
  it('adds 300 s tolerations of the not-ready and unreachable taints after the pod\'s own', () => {
    const p = pod({ tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }] });
    addDefaultTolerations(p);
    expect(specOf(p).tolerations).toEqual([{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }, notReady, unreachable]);
  });

  it('adds none for a taint the pod already tolerates, by key or by an empty key, for NoExecute or any effect', () => {
    const own = pod({ tolerations: [{ key: 'node.platform.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }] });
    addDefaultTolerations(own);
    expect(specOf(own).tolerations).toEqual([{ key: 'node.platform.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }, unreachable]);
    const everything = pod({ tolerations: [{ operator: 'Exists' }] });
    addDefaultTolerations(everything);
    expect(specOf(everything).tolerations).toEqual([{ operator: 'Exists' }]);
  });
});

describe('admitPriority (Priority, no default PriorityClass)', () => {
  it('gives a pod without a class priority 0 and PreemptLowerPriority', () => {
    const p = pod();
    expect(admitPriority(p)).toBeNull();
    expect(p.spec).toMatchObject({ priority: 0, preemptionPolicy: 'PreemptLowerPriority' });
  });

  it('resolves the system classes and refuses unknown ones or a disagreeing priority', () => {
    const critical = pod({ priorityClassName: 'system-node-critical' });
    expect(admitPriority(critical)).toBeNull();
    expect(specOf(critical).priority).toBe(2000001000);
    expect(admitPriority(pod({ priorityClassName: 'high' }))).toBe('no PriorityClass with name high was found');
    expect(admitPriority(pod({ priority: 5 }))).toBe(
      'the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
    );
    expect(admitPriority(pod({ preemptionPolicy: 'Never' }))).toBe(
      'the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name',
    );
  });

  it('keeps the stored priority on update', () => {
    const updated = pod();
    keepPriority(updated, pod({ priority: 0, preemptionPolicy: 'PreemptLowerPriority' }));
    expect(updated.spec).toMatchObject({ priority: 0, preemptionPolicy: 'PreemptLowerPriority' });
  });
});

describe('admitRuntimeClass (RuntimeClass)', () => {
  const gvisor = (extra: Record<string, unknown>): KubeObject => ({ apiVersion: 'node.platform.io/v1', kind: 'RuntimeClass', metadata: { name: 'gvisor' }, handler: 'runsc', ...extra });

  it('sets the overhead of the class and refuses a pod with a different one, or one without a class', () => {
    const rc = gvisor({ overhead: { podFixed: { cpu: '250m', memory: '64Mi' } } });
    const p = pod({ runtimeClassName: 'gvisor' });
    expect(admitRuntimeClass(p, rc)).toBeNull();
    expect(specOf(p).overhead).toEqual({ cpu: '250m', memory: '64Mi' });
    expect(admitRuntimeClass(pod({ runtimeClassName: 'gvisor', overhead: { cpu: '0.25', memory: '64Mi' } }), rc)).toBeNull();
    expect(admitRuntimeClass(pod({ runtimeClassName: 'gvisor', overhead: { cpu: '1' } }), rc)).toBe("pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
    expect(admitRuntimeClass(pod({ overhead: { cpu: '1' } }), null)).toBe('pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
  });

  it('merges the node selector, refusing a conflict, and appends the tolerations the pod lacks', () => {
    const rc = gvisor({ scheduling: { nodeSelector: { sandbox: 'yes' }, tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }, notReady] } });
    const p = pod({ runtimeClassName: 'gvisor', nodeSelector: { zone: 'a' }, tolerations: [notReady] });
    expect(admitRuntimeClass(p, rc)).toBeNull();
    expect(specOf(p).nodeSelector).toEqual({ zone: 'a', sandbox: 'yes' });
    expect(specOf(p).tolerations).toEqual([notReady, { key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }]);
    expect(admitRuntimeClass(pod({ runtimeClassName: 'gvisor', nodeSelector: { sandbox: 'no' } }), rc)).toBe(
      'conflict: runtimeClass.scheduling.nodeSelector[sandbox] = yes; pod.spec.nodeSelector[sandbox] = no',
    );
  });
});

describe('mergeTolerations', () => {
  it('drops tolerations a broader one covers and keeps the first of equal ones', () => {
    const shortStay: Toleration = { key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 };
    const longStay: Toleration = { key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 };
    expect(mergeTolerations([shortStay], [longStay])).toEqual([longStay]);
    expect(mergeTolerations([{ key: 'k', operator: 'Equal', value: 'v' }], [{ key: 'k', operator: 'Exists' }])).toEqual([{ key: 'k', operator: 'Exists' }]);
    expect(mergeTolerations([{ key: 'a', operator: 'Exists' }], [{ key: 'a', operator: 'Exists' }])).toEqual([{ key: 'a', operator: 'Exists' }]);
    expect(mergeTolerations([{ key: 'a', operator: 'Exists' }], [{ operator: 'Exists' }])).toEqual([{ operator: 'Exists' }]);
  });
});
