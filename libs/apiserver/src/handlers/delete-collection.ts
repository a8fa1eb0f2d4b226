// DELETE of a collection, as kube-apiserver's Store.DeleteCollection does it: the objects the
// selectors pick are listed in pages (of 10,000 when no limit is set; only the first page when
// one is) and deleted by --delete-collection-workers at once, each with the same options as a
// DELETE of it would take (finalizers, grace periods, preconditions, dryRun), an object gone
// meanwhile skipped. The answer is the list as it was read: the first page's metadata and every
// item listed, not their deleted states. The first error a delete meets stops the deletes not
// yet started and is the answer once those under way have ended. So does the end of the
// request's context (its timeout, answered 504, or the client gone): as kube's workers, whose
// deletes fail at once on a done context, and its lister, which checks the context before each
// page, only the deletes under way then finish.
import { KubeList, KubeObject } from '@plinth/api';
import { isStatusError, timeout } from '@plinth/machinery';
import { DeleteOptions } from '@plinth/registry';
import { parseDeleteOptions, warnOfDefaultOrphaning } from '../delete-options';
import { ListOptions, parseResourceVersion } from '../list-options';
import { writeList } from '../output';
import { namespaceOf, RequestScope } from '../scope';
import { listObjects } from './list';

// deleteCollectionPageSize is the page a deletecollection without a limit lists at a time.
export const deleteCollectionPageSize = 10_000;

export async function deleteCollection(scope: RequestScope, listOptions: ListOptions): Promise<void> {
  const options = await parseDeleteOptions(scope);
  warnOfDefaultOrphaning(scope, options);
  // A malformed resourceVersion is refused as a paged list refuses it: 400, not the plain
  // list's 500.
  parseResourceVersion(listOptions.resourceVersion, true);
  const paged = listOptions.limit <= 0;
  const first = await listObjects(scope, paged ? { ...listOptions, limit: deleteCollectionPageSize } : listOptions);
  const items = [...first.items];
  let page: KubeList = first;
  for (;;) {
    const token = paged && !scope.context.done ? page.metadata.continue : undefined;
    // The next page is read while this one is deleted.
    const next = token ? listObjects(scope, { ...listOptions, limit: deleteCollectionPageSize, continue: token, resourceVersion: '', resourceVersionMatch: '' }) : null;
    next?.catch(() => undefined);
    await deleteEach(scope, page.items, options);
    if (!next) break;
    page = await next;
    items.push(...page.items);
  }
  writeList(scope, { ...first, items });
}

// deleteEach deletes the listed objects with scope.server's deleteCollectionWorkers at once.
async function deleteEach(scope: RequestScope, objects: KubeObject[], options: DeleteOptions): Promise<void> {
  const namespace = namespaceOf(scope);
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (failure === null && next < objects.length) {
      if (scope.context.done) {
        failure = { error: contextDone() };
        break;
      }
      const object = objects[next++];
      try {
        await scope.store.delete(namespace, object.metadata.name ?? '', options, object);
      } catch (err) {
        if (isStatusError(err) && err.code === 404) continue;
        failure ??= { error: err };
      }
    }
  };
  const workers = Math.max(1, Math.min(scope.server.options.deleteCollectionWorkers ?? 1, objects.length));
  await Promise.all(Array.from({ length: workers }, worker));
  if (failure !== null) throw (failure as { error: unknown }).error;
}

// contextDone is the finisher's answer to a request whose context ended (the client has had its
// 504 already, or is gone).
function contextDone(): Error {
  return timeout('request did not complete within requested timeout - context deadline exceeded', 0);
}
