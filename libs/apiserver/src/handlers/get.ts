// GET of one object (and of a subresource that shows the parent, like /status).
import { notFound } from '@plinth/machinery';
import { parseResourceVersion } from '../list-options';
import { namespaceOf, RequestScope } from '../scope';
import { writeResult } from '../output';

export async function getResource(scope: RequestScope): Promise<void> {
  if (scope.info.subresource && scope.info.subresource !== 'status') {
    throw notFound(scope.store.qualifiedResource, scope.info.name);
  }
  // A get's resourceVersion means "not older than": the latest state always satisfies it.
  parseResourceVersion(scope.query.get('resourceVersion') ?? '');
  const object = await scope.store.get(namespaceOf(scope), scope.info.name);
  writeResult(scope, 200, object);
}
