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
});
