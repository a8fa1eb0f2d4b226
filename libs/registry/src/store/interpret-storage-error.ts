// interpretStorageError is the one place a StorageError becomes a Status error, as
// k8s.io/apiserver/pkg/storage/errors.go and pkg/registry/generic/registry/store.go do.
import { alreadyExists, badRequest, conflict, internalError, notFound, resourceExpired, serviceUnavailable, timeout, unclassifiedError } from '@plinth/machinery';
import { isStorageError, StorageErrorCode } from '@plinth/storage';
import { QualifiedResource } from '../resource';

const futureRevisionMessage = 'etcdserver: mvcc: required revision is a future revision';

export const conflictDetail = 'the object has been modified; please apply your changes to the latest version and try again';

// requestedRevision names the resourceVersion a read asked for, for the Expired message.
export function interpretStorageError(err: unknown, qr: QualifiedResource, name: string, requestedRevision?: number): Error {
  if (!isStorageError(err)) return err instanceof Error ? err : new Error(String(err));
  switch (err.code) {
    case StorageErrorCode.KeyNotFound:
      return notFound(qr, name);
    case StorageErrorCode.KeyExists:
      return alreadyExists(qr, name);
    case StorageErrorCode.Conflict:
      return conflict(qr, name, err.message.includes('Precondition failed') ? err.message.replace(/^conflict on \S+: /, '') : conflictDetail);
    case StorageErrorCode.Expired:
      return resourceExpired(`too old resource version: ${requestedRevision ?? 0} (${err.revision})`);
    case StorageErrorCode.InvalidArgument:
      return badRequest(err.message);
    // A read past the store's revision is etcd's error as kube-apiserver passes it on
    // (reaching storage only for a paged or exact list): a 500 without a reason.
    case StorageErrorCode.FutureRevision:
      return unclassifiedError(futureRevisionMessage);
    case StorageErrorCode.Unreachable:
      return serviceUnavailable(err.message);
    // Timeout is the finisher's answer to a storage call that outlived its request's context.
    case StorageErrorCode.Timeout:
      return timeout('request did not complete within requested timeout - context deadline exceeded', 0);
    case StorageErrorCode.RequestTooLarge:
      return unclassifiedError(err.message);
    case StorageErrorCode.InvalidObj:
    default:
      return internalError(err.message);
  }
}
