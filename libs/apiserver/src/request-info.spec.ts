// The verb of a GET of a collection: a watch when ?watch is anything but "0" or "false" (the
// query conversion of ListOptions.Watch), a list otherwise; a GET naming one object is a get.
import { parseRequestInfo } from './request-info';

const verbOf = (path: string, query: string) => {
  const info = parseRequestInfo('GET', path, new URLSearchParams(query));
  return info.isResourceRequest ? info.verb : 'non-resource';
};

describe('request info', () => {
  it.each([
    ['watch=1', 'watch'],
    ['watch=true', 'watch'],
    ['watch=maybe', 'watch'],
    ['watch=', 'watch'],
    ['watch=0', 'list'],
    ['watch=FALSE', 'list'],
    ['', 'list'],
  ])('reads ?%s of a collection as a %s', (query, verb) => {
    expect(verbOf('/apis/coordination.k8s.io/v1/namespaces/a/leases', query)).toBe(verb);
  });

  it('reads a GET of one object as a get, whatever ?watch says, and a /watch/ path as a watch', () => {
    expect(verbOf('/apis/coordination.k8s.io/v1/namespaces/a/leases/l1', 'watch=1')).toBe('get');
    expect(verbOf('/apis/coordination.k8s.io/v1/watch/namespaces/a/leases/l1', '')).toBe('watch');
  });
});
