// GET of one object (and of a subresource that shows the parent, like /status).
import { notFound } from '@plinth/machinery';
import { assertReachable, parseResourceVersion } from '../list-options';
import { namespaceOf, RequestScope } from '../scope';
import { writeResult } from '../output';

export async function getResource(scope: RequestScope): Promise<void> {
  if (scope.info.subresource && scope.info.subresource !== 'status') {
    throw notFound(scope.store.qualifiedResource, scope.info.name);
  }
  // A get's resourceVersion means "not older than": the watch cache serves it once it has seen
  // that revision and this server's own writes (without one, every write finished before it:
  // ServerContext.readBound); storage serves it otherwise.
  const resourceVersion = scope.query.get('resourceVersion') ?? '';
  const requested = parseResourceVersion(resourceVersion);
  const cache = scope.server.cacheFor(scope.def);
  const bound = cache && (await scope.server.readBound(scope.def, resourceVersion, requested));
  if (cache && bound) {
    const cached = await cache.get(namespaceOf(scope), scope.info.name, bound);
    if (cached !== null) scope.server.countConsistentRead(scope.def, resourceVersion, 'cache');
    if (cached === undefined) throw notFound(scope.store.qualifiedResource, scope.info.name);
    if (cached !== null) return writeResult(scope, 200, cached);
    assertReachable(resourceVersion, cache.currentRevision);
  }
  if (cache) scope.server.countConsistentRead(scope.def, resourceVersion, 'storage');
  const object = await scope.store.get(namespaceOf(scope), scope.info.name);
  writeResult(scope, 200, object);
}
