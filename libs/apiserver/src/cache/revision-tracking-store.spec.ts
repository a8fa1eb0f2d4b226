import { resourcePrefixOf } from './revision-tracking-store';

describe('resourcePrefixOf', () => {
  it.each([
    ['/registry/core/namespaces/c-1', '/registry/core/namespaces/'],
    ['/registry/core/pods/default/p', '/registry/core/pods/'],
    ['/registry/apps/deployments/ns/a/b', '/registry/apps/deployments/'],
    ['/registry/core/namespaces/', '/registry/core/namespaces/'],
    ['/registry/core/namespaces', '/registry/core/namespaces'],
    ['/registry', '/registry'],
    ['', ''],
  ])('cuts %j to %j', (key, prefix) => {
    expect(resourcePrefixOf(key)).toBe(prefix);
  });
});
