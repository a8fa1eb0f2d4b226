import { UserInfo } from '@plinth/rbac';
import { parseRequestInfo } from '../request-info';
import { isLongRunning, MaxInflightLimit } from './max-inflight';

const alice: UserInfo = { name: 'alice', uid: '', groups: ['system:authenticated'], extra: {} };
const admin: UserInfo = { name: 'admin', uid: '', groups: ['system:masters', 'system:authenticated'], extra: {} };
const info = (method: string, path: string, query = '') => parseRequestInfo(method, path, new URLSearchParams(query));

describe('MaxInflightLimit', () => {
  const create = info('POST', '/api/v1/namespaces/default/pods');
  const list = info('GET', '/api/v1/namespaces/default/pods');

  it('gives mutating and read-only requests their own seats, and a seat back once', () => {
    const limit = new MaxInflightLimit(1, 2);
    const first = limit.admit(create, alice);
    const second = limit.admit(create, alice);
    expect(first && second).toBeTruthy();
    expect(limit.admit(create, alice)).toBeNull();
    expect(limit.admit(list, alice)).not.toBeNull();
    expect(limit.admit(list, alice)).toBeNull();
    first?.();
    first?.();
    expect(limit.mutatingInFlight).toBe(1);
    expect(limit.admit(create, alice)).not.toBeNull();
    expect(limit.admit(create, alice)).toBeNull();
  });

  it('never refuses system:masters, long-running requests and health checks, and takes no seat for them', () => {
    const limit = new MaxInflightLimit(1, 1);
    limit.admit(create, alice);
    limit.admit(list, alice);
    expect(limit.admit(create, admin)).not.toBeNull();
    expect(limit.admit(info('GET', '/api/v1/pods', 'watch=true'), alice)).not.toBeNull();
    expect(limit.admit(info('GET', '/readyz'), alice)).not.toBeNull();
    expect(limit.admit(info('GET', '/livez/ping'), alice)).not.toBeNull();
    expect([limit.readOnlyInFlight, limit.mutatingInFlight]).toEqual([1, 1]);
  });

  it('leaves a kind of request unbounded with a limit of 0', () => {
    const limit = new MaxInflightLimit(0, 0);
    for (let i = 0; i < 1000; i++) expect(limit.admit(create, alice)).not.toBeNull();
  });

  it('counts watches and the exec, attach, log, proxy and portforward subresources as long-running', () => {
    expect(isLongRunning(info('GET', '/api/v1/pods', 'watch=1'))).toBe(true);
    for (const sub of ['exec', 'attach', 'log', 'proxy', 'portforward']) expect(isLongRunning(info('GET', `/api/v1/namespaces/d/pods/p/${sub}`))).toBe(true);
    expect(isLongRunning(info('GET', '/api/v1/namespaces/d/pods/p/status'))).toBe(false);
  });
});
