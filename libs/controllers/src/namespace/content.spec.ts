import { KubeObject } from '@plinth/api';
import { finalizedFinalizers, finalizerEstimateSeconds, leftoverOutcome, podsTerminationEstimate, recheckAfterMs } from './content';

const pod = (phase: string, grace?: number): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: grace === undefined ? {} : { terminationGracePeriodSeconds: grace }, status: { phase } });
const resource = { group: 'apps', version: 'v1', resource: 'deployments' };
const T0 = Date.parse('2026-01-01T00:00:00Z');

describe('namespace content', () => {
  it('estimates the longest grace period of running pods, less the time since deletion', () => {
    expect(podsTerminationEstimate([pod('Running', 30), pod('Running', 10), pod('Succeeded', 90)], T0, T0 + 5_000)).toBe(25);
    expect(podsTerminationEstimate([pod('Running', 30)], T0, T0 + 60_000)).toBe(0);
    expect(podsTerminationEstimate([pod('Pending', 30)], NaN, T0)).toBe(30);
    expect(podsTerminationEstimate([pod('Running')], T0, T0)).toBe(0);
  });

  it('expects terminating pods and finalized objects, and reports any other leftover', () => {
    const held: KubeObject = { metadata: { name: 'a', finalizers: ['example.com/hold', 'example.com/hold'] } };
    const plain: KubeObject = { metadata: { name: 'b' } };
    expect(leftoverOutcome(resource, 'team', [plain], 12)).toEqual({ estimate: 12, remaining: 1, finalizers: new Map() });
    expect(leftoverOutcome(resource, 'team', [held, plain], 0)).toEqual({ estimate: finalizerEstimateSeconds, remaining: 2, finalizers: new Map([['example.com/hold', 2]]) });
    expect(leftoverOutcome(resource, 'team', [], 0)).toEqual({ estimate: 0, remaining: 0, finalizers: new Map() });
    expect(leftoverOutcome(resource, 'team', [plain], 0).error).toBe('unexpected items still remain in namespace: team for gvr: {apps v1 deployments}');
  });

  it('looks again after about half the estimate, and finalizes without its own finalizer', () => {
    expect(recheckAfterMs(15)).toBe(8000);
    expect(recheckAfterMs(0)).toBe(1000);
    expect(finalizedFinalizers(['kubernetes', 'b.io/x', 'a.io/y', 'a.io/y'], 'kubernetes')).toEqual(['a.io/y', 'b.io/x']);
  });
});
