import { KubeObject } from '@plinth/api';
import { simulatedNode } from './nodes';
import { chooseNode } from './scheduler';

const now = '2026-01-01T00:00:00Z';
const nodes = [
  simulatedNode('a', now, { labels: { disk: 'ssd' } }),
  simulatedNode('b', now),
  simulatedNode('c', now, { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }),
];
const pod = (spec: Record<string, unknown> = {}): KubeObject => ({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c' }], ...spec } });

describe('chooseNode', () => {
  it('spreads pods to the least loaded node that fits', () => {
    expect(chooseNode(pod(), nodes, new Map([['a', 3], ['b', 1]]))).toBe('b');
  });

  it('honours nodeSelector, taints and tolerations, and node affinity on metadata.name', () => {
    expect(chooseNode(pod({ nodeSelector: { disk: 'ssd' } }), nodes, new Map())).toBe('a');
    expect(chooseNode(pod({ nodeSelector: { disk: 'hdd' } }), nodes, new Map())).toBeNull();
    const onC = { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['c'] }] }] } } } };
    expect(chooseNode(pod(onC), nodes, new Map())).toBeNull();
    expect(chooseNode(pod({ ...onC, tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }] }), nodes, new Map())).toBe('c');
  });

  it('keeps pods off a cordoned node unless they tolerate node.platform.io/unschedulable', () => {
    const cordoned = [{ ...simulatedNode('d', now), spec: { unschedulable: true } }];
    expect(chooseNode(pod(), cordoned, new Map())).toBeNull();
    expect(chooseNode(pod({ tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] }), cordoned, new Map())).toBeNull();
    expect(chooseNode(pod({ tolerations: [{ key: 'node.platform.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] }), cordoned, new Map())).toBe('d');
  });

  it('selects nodes by the platform.io/ well-known labels a simulated node carries', () => {
    expect(chooseNode(pod({ nodeSelector: { 'platform.io/hostname': 'b', 'platform.io/os': 'linux', 'platform.io/arch': 'amd64' } }), nodes, new Map())).toBe('b');
    expect(chooseNode(pod({ nodeSelector: { 'kubernetes.io/hostname': 'b' } }), nodes, new Map())).toBeNull();
  });
});
