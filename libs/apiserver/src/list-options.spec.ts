import { isStatusError } from '@plinth/machinery';
import { assertReachable, ListOptions, validateListOptions } from './list-options';

function options(overrides: Partial<ListOptions>): ListOptions {
  return { labelSelector: '', fieldSelector: '', resourceVersion: '', resourceVersionMatch: '', limit: 0, continue: '', watch: false, allowWatchBookmarks: false, sendInitialEvents: undefined, timeoutSeconds: undefined, ...overrides };
}

function messages(list: ListOptions, watchListEnabled = false): string[] {
  return validateListOptions(list, watchListEnabled).map((err) => `${err.field}: ${err.errorBody()}`);
}

describe('validateListOptions', () => {
  it('refuses sendInitialEvents on a list, whatever the WatchList gate', () => {
    expect(messages(options({ sendInitialEvents: true }))).toEqual(['sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list']);
    expect(messages(options({ sendInitialEvents: true }), true)).toEqual(['sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list']);
  });

  it('gives every reason a watch with resourceVersionMatch is refused', () => {
    expect(messages(options({ watch: true, resourceVersion: '5', resourceVersionMatch: 'Exact' }))).toEqual([
      'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
      'resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"',
    ]);
  });

  it('refuses sendInitialEvents on a watch without the gate, after checking its resourceVersionMatch', () => {
    expect(messages(options({ watch: true, sendInitialEvents: true }))).toEqual([
      'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
      'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
    ]);
    expect(messages(options({ watch: true, sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true }), true)).toEqual([]);
  });

  it('lists every fault of a list resourceVersionMatch', () => {
    expect(messages(options({ resourceVersionMatch: 'Sometime' as ListOptions['resourceVersionMatch'], continue: 'x' }))).toEqual([
      'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
      'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided',
      'resourceVersionMatch: Unsupported value: "Sometime": supported values: "Exact", "NotOlderThan", ""',
    ]);
  });
});

describe('assertReachable', () => {
  it('answers a revision the ready cache did not reach with the 504 kube-apiserver gives', () => {
    let thrown: unknown;
    try {
      assertReachable(999, 40);
    } catch (err) {
      thrown = err;
    }
    expect(isStatusError(thrown) && thrown.errStatus).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Timeout: Too large resource version: 999, current: 40',
      reason: 'Timeout',
      details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
      code: 504,
    });
  });

  it('lets storage serve when the cache is not ready or has the revision', () => {
    expect(() => assertReachable(999, 0)).not.toThrow();
    expect(() => assertReachable(40, 40)).not.toThrow();
  });
});
