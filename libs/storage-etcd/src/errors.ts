// interpretEtcdError turns what etcd3 rejects with into a StorageError, the way
// k8s.io/apiserver/pkg/storage/etcd3 interprets clientv3 errors. Errors with no storage meaning
// are returned unchanged.
import {
  ClientClosedError,
  EtcdWatchStreamEnded,
  GRPCCancelledError,
  GRPCDeadlineExceededError,
  GRPCInvalidArgumentError,
  GRPCUnavailableError,
  castGrpcError,
} from 'etcd3';
import { StorageError, StorageErrorCode } from '@plinth/storage';

const compactedMessage = 'required revision has been compacted';
const futureRevisionMessage = 'required revision is a future revision';
// tooLargeMessages are etcd's refusals of a request over --max-request-bytes, and gRPC's of a
// message past etcd's receive limit (max-request-bytes plus 512 KiB).
const tooLargeMessages = /request is too large|received message larger than max|message larger than max/;

export function interpretEtcdError(err: unknown, key: string, revision = 0): unknown {
  if (!(err instanceof Error) || err instanceof StorageError) return err;
  const typed = castGrpcError(err);
  if (typed.message.includes(compactedMessage)) return compacted(key, revision);
  if (typed.message.includes(futureRevisionMessage)) {
    return StorageError.futureRevision(key, revision);
  }
  if (tooLargeMessages.test(typed.message)) return StorageError.requestTooLarge(key);
  // A request past its deadline is the storage call kube-apiserver's request context ended:
  // Timeout, which the API server answers as its finisher does (504, "context deadline
  // exceeded"), the same as a storage link's own deadline. etcd may still apply a write.
  if (typed instanceof GRPCDeadlineExceededError) return StorageError.timeout(`etcd did not answer in time: ${typed.message}`);
  if (isConnectionFailure(typed)) return StorageError.unreachable(typed.message);
  if (typed instanceof GRPCInvalidArgumentError) return StorageError.invalidArgument(typed.message);
  return typed;
}

// interpretWatchCancel interprets a watch that etcd cancelled after creating it. etcd 3.4 gives no
// cancel_reason when the start revision has been compacted, and etcd3 keeps only the reason.
export function interpretWatchCancel(err: Error, key: string, startRevision: number): unknown {
  const reason = err.message.replace(/^.*Watcher canceled:\s*/, '');
  if (reason === '' || reason.includes('compacted')) return compacted(key, startRevision);
  return interpretEtcdError(err, key, startRevision);
}

// isStreamTeardown reports how etcd3 sees the end of a watch stream it cancelled itself: a
// CANCELLED error, then the end of the stream.
export function isStreamTeardown(err: unknown): boolean {
  return err instanceof EtcdWatchStreamEnded || (err instanceof Error && castGrpcError(err) instanceof GRPCCancelledError);
}

function isConnectionFailure(err: Error): boolean {
  return (
    err instanceof GRPCUnavailableError ||
    err instanceof GRPCCancelledError ||
    err instanceof ClientClosedError ||
    err instanceof EtcdWatchStreamEnded
  );
}

// compacted is Expired without the compacted revision: etcd does not say which it is.
function compacted(key: string, requested: number): StorageError {
  return new StorageError(StorageErrorCode.Expired, key, `revision ${requested} has been compacted`);
}
