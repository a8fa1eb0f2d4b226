// LIST of a collection: selectors, paging with limit and continue (a consistent snapshot,
// remainingItemCount without selectors), resourceVersion and resourceVersionMatch.
import { KubeList, KubeObject } from '@plinth/api';
import { badRequest, isStatusError, resourceExpired, StatusError } from '@plinth/machinery';
import { continueSyntaxError } from '../continue-syntax';
import { assertReachable, ListOptions, parseResourceVersion } from '../list-options';
import { writeList } from '../output';
import { namespaceOf, RequestScope } from '../scope';
import { buildPredicate } from '../selectors';
import { WatchCache } from '../cache/watch-cache';
import { ListPredicate } from '@plinth/registry';

export const inconsistentContinueMessage =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

export async function listResource(scope: RequestScope, options: ListOptions): Promise<void> {
  const list = await listObjects(scope, options);
  writeList(scope, list);
}

export async function listObjects(scope: RequestScope, requested: ListOptions): Promise<KubeList> {
  const options = pagingOptions(scope, requested);
  const predicate = buildPredicate(scope.def, options.labelSelector, options.fieldSelector);
  const tokenError = options.continue ? continueSyntaxError(options.continue) : null;
  if (tokenError) throw badRequest(`invalid continue token: ${tokenError}`);
  if (options.continue && options.resourceVersion !== '' && options.resourceVersion !== '0') {
    throw badRequest('specifying resource version is not allowed when using continue');
  }
  const exact = options.resourceVersionMatch === 'Exact' || (options.resourceVersionMatch === '' && options.limit > 0 && options.resourceVersion !== '' && options.resourceVersion !== '0');
  const minimum = parseResourceVersion(options.resourceVersion, options.limit > 0);
  const revision = exact && minimum > 0 ? minimum : undefined;
  const cache = revision === undefined ? scope.server.cacheFor(scope.def) : null;
  try {
    if (cache) {
      const page = options.continue
        ? await cachedContinuePage(scope, options.continue, predicate, options.limit)
        : await cachedPage(scope, cache, predicate, cachedLimit(options), options.resourceVersion, minimum);
      if (!options.continue) scope.server.countConsistentRead(scope.def, options.resourceVersion, page ? 'cache' : 'storage');
      if (page) return listOf(scope, page);
      if (!options.continue) assertReachable(options.resourceVersion, cache.currentRevision);
    }
    const page = await scope.store.list(namespaceOf(scope), {
      predicate,
      limit: options.limit,
      continue: options.continue || undefined,
      revision,
    });
    return listOf(scope, page);
  } catch (err) {
    if (options.continue && isStatusError(err) && err.reason === 'Expired') throw expiredContinue();
    throw err;
  }
}

// pagingOptions are the list options as served: with the APIListChunking feature gate off,
// limit and continue are ignored and the whole list is answered, as kube-apiserver's storage
// does without paging.
function pagingOptions(scope: RequestScope, options: ListOptions): ListOptions {
  return scope.server.gate('APIListChunking') ? options : { ...options, limit: 0, continue: '' };
}

// cachedContinuePage serves a continue token's page from the watch cache when the cached objects
// are the token's snapshot; the snapshot must still be in storage's history all the same (a
// token past its compaction is expired, 410 Gone, as kube-apiserver answers), which one key read
// at that revision proves.
async function cachedContinuePage(scope: RequestScope, token: string, predicate: ReturnType<typeof buildPredicate>, limit: number): Promise<Page | null> {
  const cache = scope.server.cacheFor(scope.def);
  const page = cache?.continuePage(namespaceOf(scope), predicate, limit, token) ?? null;
  if (page) await scope.store.assertRevisionKept(namespaceOf(scope), page.revision);
  return page;
}

// cachedPage serves a first page from the watch cache once it has seen what the read must see
// (for resourceVersion "", every write finished before it: ServerContext.readBound).
async function cachedPage(scope: RequestScope, cache: WatchCache, predicate: ListPredicate, limit: number, resourceVersion: string, minimum: number): Promise<Page | null> {
  const bound = await scope.server.readBound(scope.def, resourceVersion, minimum);
  return bound && cache.list(namespaceOf(scope), predicate, limit, bound);
}

// cachedLimit is the page size of a list the cache serves: a list at resourceVersion "0" is
// served whole, as kube-apiserver's watch cache serves it (no continue, the limit ignored).
function cachedLimit(options: ListOptions): number {
  return options.resourceVersion === '0' ? 0 : options.limit;
}

interface Page {
  items: KubeObject[];
  revision: number;
  continue?: string;
  remainingItemCount?: number;
}

function listOf(scope: RequestScope, page: Page): KubeList {
  const metadata: KubeList['metadata'] = { resourceVersion: String(page.revision) };
  // An unstructured list (custom resources) always carries continue, "" on the last page, as
  // kube-apiserver's UnstructuredList.SetContinue writes it.
  if (page.continue || scope.def.unstructured) metadata.continue = page.continue ?? '';
  if (page.remainingItemCount !== undefined) metadata.remainingItemCount = page.remainingItemCount;
  return { kind: scope.def.listKind, apiVersion: scope.store.apiVersion, metadata, items: page.items };
}

function expiredContinue(): StatusError {
  return resourceExpired(inconsistentContinueMessage);
}
