import { simulatedNode, withoutNotReadyTaint } from './nodes';

const now = '2026-01-01T00:00:00Z';
const notReady = { key: 'node.platform.io/not-ready', effect: 'NoSchedule' };

describe('withoutNotReadyTaint', () => {
  it("lifts the not-ready NoSchedule taint a new node gets, and keeps the node's own", () => {
    const own = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
    const node = simulatedNode('a', now, { taints: [own, notReady] });
    expect(withoutNotReadyTaint(node)?.spec).toEqual({ taints: [own] });
    expect(JSON.parse(JSON.stringify(withoutNotReadyTaint(simulatedNode('b', now, { taints: [notReady] }))?.spec))).toEqual({});
  });

  it('has nothing to lift from an untainted node, or from a not-ready NoExecute taint', () => {
    expect(withoutNotReadyTaint(simulatedNode('a', now))).toBeNull();
    expect(withoutNotReadyTaint(simulatedNode('b', now, { taints: [{ ...notReady, effect: 'NoExecute' }] }))).toBeNull();
  });
});
