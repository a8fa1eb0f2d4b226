import { parseRequestInfo } from '../request-info';
import { pathTemplate, requestSpanName } from './request-span';

const info = (method: string, path: string) => parseRequestInfo(method, path, new URLSearchParams());

describe('requestSpanName', () => {
  it('names a resource request by its method and path template, as kube-apiserver does', () => {
    expect(requestSpanName('GET', info('GET', '/api/v1/namespaces/default/pods/web-0'))).toBe('GET /api/v1/namespaces/{:namespace}/pods/{:name}');
    expect(requestSpanName('PUT', info('PUT', '/apis/apps/v1/namespaces/a/daemonsets/d/status'))).toBe('PUT /apis/apps/v1/namespaces/{:namespace}/daemonsets/{:name}/status');
    expect(requestSpanName('GET', info('GET', '/api/v1/nodes'))).toBe('GET /api/v1/nodes');
    expect(requestSpanName('GET', info('GET', '/api/v1/watch/namespaces/x/pods'))).toBe('GET /api/v1/namespaces/{:namespace}/pods');
  });

  it('names a non-resource request by its method only', () => {
    expect(requestSpanName('GET', info('GET', '/metrics'))).toBe('GET');
    expect(pathTemplate(info('GET', '/readyz'))).toBe('/readyz');
  });
});
