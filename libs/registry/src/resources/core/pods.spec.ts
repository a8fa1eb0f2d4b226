import { KubeObject } from '@plinth/api';
import { field } from '@plinth/machinery';
import { podDefinition, podGracePeriodSeconds, podSelectableFields } from './pods';
import { podQOSClass } from './pod-status';
import { ResourceStrategy, TableDefinition } from '../../resource';
const table = podDefinition.table as TableDefinition;

// hook returns a strategy hook the definition must have.
function hook<K extends keyof ResourceStrategy>(name: K): NonNullable<ResourceStrategy[K]> {
  const fn = podDefinition.strategy[name];
  if (!fn) throw new Error(`missing ${String(name)}`);
  return fn as NonNullable<ResourceStrategy[K]>;
}

const ctx = { featureGates: new Map<string, boolean>(), now: Date.parse('2024-01-01T00:10:00Z') };
const created = '2024-01-01T00:00:00Z';

function pod(spec: Record<string, unknown> = {}, status: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): KubeObject {
  return {
    metadata: { name: 'web', namespace: 'default', creationTimestamp: created, ...meta },
    spec: { containers: [{ name: 'app', image: 'nginx:1.25' }], ...spec },
    status,
  };
}

function row(p: KubeObject): unknown[] {
  return table.row(p, ctx.now);
}

describe('pod definition', () => {
  it('has the flags of pods', () => {
    expect(podDefinition).toMatchObject({
      group: '',
      version: 'v1',
      resource: 'pods',
      kind: 'Pod',
      namespaced: true,
      shortNames: ['po'],
      categories: ['all'],
      subresources: ['status', 'binding'],
      deleteReturnsObject: true,
      tracksGeneration: false,
    });
    expect(table.columns.map((c) => [c.name, c.priority])).toEqual([
      ['Name', 0],
      ['Ready', 0],
      ['Status', 0],
      ['Restarts', 0],
      ['Age', 0],
      ['IP', 1],
      ['Node', 1],
      ['Nominated Node', 1],
      ['Readiness Gates', 1],
    ]);
  });

  it('defaults, then sets phase Pending and the QoS class on create', () => {
    const p = pod({ containers: [{ name: 'app', image: 'nginx', resources: { limits: { cpu: '1', memory: '1Gi' } } }] }, { phase: 'Running' });
    hook('defaults')(p, ctx);
    delete p.status;
    hook('prepareForCreate')(p, ctx);
    expect(p.status).toEqual({ phase: 'Pending', qosClass: 'Guaranteed' });
    expect(p.spec).toMatchObject({ enableServiceLinks: true, restartPolicy: 'Always', terminationGracePeriodSeconds: 30 });
    expect(podDefinition.strategy.validate(p, ctx)).toEqual([]);
  });

  it('adds the SchedulingGated condition for gated pods', () => {
    const p = pod({ schedulingGates: [{ name: 'example.com/wait' }] });
    hook('prepareForCreate')(p, ctx);
    expect((p.status as Record<string, unknown>).conditions).toEqual([
      { type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: null, reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' },
    ]);
  });

  it('reports a pod without containers', () => {
    const p = pod({ containers: [] });
    hook('defaults')(p, ctx);
    expect(field.toAggregate(podDefinition.strategy.validate(p, ctx))).toBe('spec.containers: Required value');
  });
});

describe('podQOSClass', () => {
  it.each([
    [{ containers: [{}] }, 'BestEffort'],
    [{ containers: [{ resources: { requests: { cpu: '100m' } } }] }, 'Burstable'],
    [{ containers: [{ resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1000m', memory: '1Gi' } } }] }, 'Guaranteed'],
    [{ containers: [{ resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '2', memory: '1Gi' } } }] }, 'Burstable'],
    [{ containers: [{ resources: { requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '1' } } }] }, 'BestEffort'],
  ])('%j is %s', (spec, qos) => {
    expect(podQOSClass(spec as Record<string, unknown>)).toBe(qos);
  });
});

describe('pod grace period', () => {
  it('uses terminationGracePeriodSeconds for a scheduled pod', () => {
    expect(podGracePeriodSeconds(pod({ nodeName: 'n1', terminationGracePeriodSeconds: 30 }), undefined)).toBe(30);
  });
  it('lets the request override', () => {
    expect(podGracePeriodSeconds(pod({ nodeName: 'n1', terminationGracePeriodSeconds: 30 }), 5)).toBe(5);
    expect(podGracePeriodSeconds(pod({ nodeName: 'n1', terminationGracePeriodSeconds: 30 }), 0)).toBe(0);
  });
  it('is 0 for unscheduled or terminated pods', () => {
    expect(podGracePeriodSeconds(pod({ terminationGracePeriodSeconds: 30 }), 10)).toBe(0);
    expect(podGracePeriodSeconds(pod({ nodeName: 'n1', terminationGracePeriodSeconds: 30 }, { phase: 'Succeeded' }), undefined)).toBe(0);
    expect(podGracePeriodSeconds(pod({ nodeName: 'n1', terminationGracePeriodSeconds: 30 }, { phase: 'Failed' }), undefined)).toBe(0);
  });
  it('turns a negative period into 1', () => {
    expect(podGracePeriodSeconds(pod({ nodeName: 'n1', terminationGracePeriodSeconds: -5 }), undefined)).toBe(1);
  });
});

describe('pod selectable fields', () => {
  it('lists the pod fields', () => {
    const p = pod({ nodeName: 'n1', restartPolicy: 'Always', schedulerName: 'default-scheduler', hostNetwork: true }, { phase: 'Running', podIPs: [{ ip: '10.1.2.3' }] });
    expect(podSelectableFields(p)).toEqual({
      'metadata.name': 'web',
      'metadata.namespace': 'default',
      'spec.nodeName': 'n1',
      'spec.restartPolicy': 'Always',
      'spec.schedulerName': 'default-scheduler',
      'spec.serviceAccountName': '',
      'spec.hostNetwork': 'true',
      'status.phase': 'Running',
      'status.podIP': '10.1.2.3',
      'status.nominatedNodeName': '',
    });
  });
});

describe('pod table', () => {
  it('prints a pending pod', () => {
    expect(row(pod({}, { phase: 'Pending' }))).toEqual(['web', '0/1', 'Pending', '0', '10m', '<none>', '<none>', '<none>', '<none>']);
  });

  it('prints a running pod', () => {
    const p = pod(
      { nodeName: 'node-1', readinessGates: [{ conditionType: 'example.com/ready' }] },
      {
        phase: 'Running',
        podIPs: [{ ip: '10.0.0.5' }],
        conditions: [{ type: 'Ready', status: 'True' }, { type: 'example.com/ready', status: 'True' }],
        containerStatuses: [{ name: 'app', ready: true, restartCount: 2, state: { running: {} }, lastState: { terminated: { exitCode: 1, finishedAt: '2024-01-01T00:05:00Z' } } }],
      },
    );
    expect(row(p)).toEqual(['web', '1/1', 'Running', '2 (5m ago)', '10m', '10.0.0.5', 'node-1', '<none>', '1/1']);
  });

  it('prints ContainerCreating, Completed and Error reasons', () => {
    expect(row(pod({ nodeName: 'n' }, { phase: 'Pending', containerStatuses: [{ name: 'app', ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } }] }))[2]).toBe(
      'ContainerCreating',
    );
    expect(row(pod({}, { phase: 'Succeeded', containerStatuses: [{ name: 'app', state: { terminated: { exitCode: 0, reason: 'Completed' } } }] }))[2]).toBe('Completed');
    expect(row(pod({}, { phase: 'Failed', containerStatuses: [{ name: 'app', state: { terminated: { exitCode: 2 } } }] }))[2]).toBe('ExitCode:2');
    expect(row(pod({}, { phase: 'Failed', containerStatuses: [{ name: 'app', state: { terminated: { exitCode: 0, signal: 9 } } }] }))[2]).toBe('Signal:9');
  });

  it('prints init container progress', () => {
    const spec = { initContainers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'x' }] };
    expect(row(pod(spec, { phase: 'Pending', initContainerStatuses: [{ name: 'a', state: { waiting: { reason: 'PodInitializing' } } }] }))[2]).toBe('Init:0/2');
    expect(
      row(pod(spec, { phase: 'Pending', initContainerStatuses: [{ name: 'a', state: { terminated: { exitCode: 0 } } }, { name: 'b', state: { running: {} } }] }))[2],
    ).toBe('Init:1/2');
    expect(row(pod(spec, { phase: 'Pending', initContainerStatuses: [{ name: 'a', state: { waiting: { reason: 'CrashLoopBackOff' } } }] }))[2]).toBe(
      'Init:CrashLoopBackOff',
    );
    expect(row(pod(spec, { phase: 'Failed', initContainerStatuses: [{ name: 'a', state: { terminated: { exitCode: 3 } } }] }))[2]).toBe('Init:ExitCode:3');
  });

  it('counts started sidecars as ready containers', () => {
    const spec = { initContainers: [{ name: 'side', image: 'x', restartPolicy: 'Always' }] };
    const status = {
      phase: 'Running',
      conditions: [{ type: 'Initialized', status: 'True' }],
      initContainerStatuses: [{ name: 'side', started: true, ready: true, restartCount: 0, state: { running: {} } }],
      containerStatuses: [{ name: 'app', ready: true, restartCount: 0, state: { running: {} } }],
    };
    expect(row(pod(spec, status)).slice(0, 3)).toEqual(['web', '2/2', 'Running']);
  });

  it('prints Terminating, Unknown and SchedulingGated', () => {
    expect(row(pod({}, { phase: 'Running' }, { deletionTimestamp: '2024-01-01T00:11:00Z' }))[2]).toBe('Terminating');
    expect(row(pod({}, { phase: 'Running', reason: 'NodeLost' }, { deletionTimestamp: '2024-01-01T00:11:00Z' }))[2]).toBe('Unknown');
    expect(row(pod({}, { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] }))[2]).toBe('SchedulingGated');
  });

  it('prints NotReady when a completed container leaves another running', () => {
    const status = {
      phase: 'Running',
      containerStatuses: [
        { name: 'a', ready: true, state: { running: {} } },
        { name: 'b', ready: false, state: { terminated: { exitCode: 0, reason: 'Completed' } } },
      ],
    };
    expect(row(pod({ containers: [{ name: 'a' }, { name: 'b' }] }, status)).slice(1, 3)).toEqual(['1/2', 'NotReady']);
  });
});
