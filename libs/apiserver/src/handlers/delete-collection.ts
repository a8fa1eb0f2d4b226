// DELETE of a collection: every object the selectors pick (one page when limit is set) is
// deleted with the same options; the answer is the list of what was deleted.
import { isStatusError } from '@plinth/machinery';
import { parseDeleteOptions, warnOfDefaultOrphaning } from '../delete-options';
import { ListOptions, parseResourceVersion } from '../list-options';
import { writeList } from '../output';
import { namespaceOf, RequestScope } from '../scope';
import { listObjects } from './list';

export async function deleteCollection(scope: RequestScope, listOptions: ListOptions): Promise<void> {
  const options = await parseDeleteOptions(scope);
  warnOfDefaultOrphaning(scope, options);
  // Kubernetes lists what it deletes in pages (of 10000 when no limit is set), so a malformed
  // resourceVersion is refused as a paged list refuses it: 400, not the plain list's 500.
  parseResourceVersion(listOptions.resourceVersion, true);
  const list = await listObjects(scope, listOptions);
  const deleted = [];
  for (const object of list.items) {
    try {
      const result = await scope.store.delete(namespaceOf(scope), object.metadata.name ?? '', options);
      deleted.push(result.object);
    } catch (err) {
      if (isStatusError(err) && err.code === 404) continue;
      throw err;
    }
  }
  writeList(scope, { ...list, items: deleted });
}
