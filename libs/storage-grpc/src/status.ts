// A StorageError crosses the wire as a gRPC status: the code says what kind of failure it is
// to any gRPC client, and the trailing metadata carries the StorageError code, key and
// revision, so a GrpcObjectStore rebuilds the exact error the backend threw. On the Exchange
// stream the same fields travel as a Failure message.
import { Metadata, ServiceError, StatusObject, status } from '@grpc/grpc-js';
import { storagev1 } from '@plinth/proto';
import { StorageError, StorageErrorCode } from '@plinth/storage';

const codeHeader = 'plinth-storage-code';
// keyHeader is binary (-bin) because keys need not be printable ASCII.
const keyHeader = 'plinth-storage-key-bin';
const revisionHeader = 'plinth-storage-revision';

const grpcStatusOf: Record<StorageErrorCode, status> = {
  [StorageErrorCode.KeyNotFound]: status.NOT_FOUND,
  [StorageErrorCode.KeyExists]: status.ALREADY_EXISTS,
  // ABORTED is gRPC's code for a lost compare-and-swap: retry from a fresh read.
  [StorageErrorCode.Conflict]: status.ABORTED,
  [StorageErrorCode.Expired]: status.OUT_OF_RANGE,
  [StorageErrorCode.InvalidObj]: status.FAILED_PRECONDITION,
  [StorageErrorCode.InvalidArgument]: status.INVALID_ARGUMENT,
  // OUT_OF_RANGE is etcd's own code for ErrFutureRev.
  [StorageErrorCode.FutureRevision]: status.OUT_OF_RANGE,
  [StorageErrorCode.Unreachable]: status.UNAVAILABLE,
  [StorageErrorCode.Timeout]: status.DEADLINE_EXCEEDED,
  [StorageErrorCode.RequestTooLarge]: status.RESOURCE_EXHAUSTED,
};

const storageErrorCodes = new Set<string>(Object.values(StorageErrorCode));

// toStatus turns what a store threw into the status a call ends with. Anything but a
// StorageError is a bug in the service and ends as INTERNAL.
export function toStatus(err: unknown): Partial<StatusObject> {
  if (!(err instanceof StorageError)) {
    return { code: status.INTERNAL, details: err instanceof Error ? err.message : String(err) };
  }
  const metadata = new Metadata();
  metadata.set(codeHeader, err.code);
  if (err.key !== '') metadata.set(keyHeader, Buffer.from(err.key, 'utf8'));
  if (err.revision !== 0) metadata.set(revisionHeader, String(err.revision));
  return { code: grpcStatusOf[err.code], details: err.message, metadata };
}

// toStorageError rebuilds the StorageError a failed call carries. A failure without one is
// Timeout when the call's deadline passed, else Unreachable (the connection broke, the service
// crashed): the caller could not get an answer from storage.
export function toStorageError(err: ServiceError): StorageError {
  const code = headerString(err.metadata, codeHeader);
  if ((code === undefined || !storageErrorCodes.has(code)) && err.code === status.DEADLINE_EXCEEDED) return StorageError.timeout(err.details);
  if (code === undefined || !storageErrorCodes.has(code)) {
    return StorageError.unreachable(`${status[err.code] ?? err.code}: ${err.details}`);
  }
  const [key] = err.metadata.get(keyHeader);
  const revision = Number(headerString(err.metadata, revisionHeader) ?? 0);
  return new StorageError(
    code as StorageErrorCode,
    key === undefined ? '' : key.toString(),
    err.details,
    Number.isSafeInteger(revision) ? revision : 0,
  );
}

function headerString(metadata: Metadata | undefined, name: string): string | undefined {
  const [value] = metadata?.get(name) ?? [];
  return typeof value === 'string' ? value : undefined;
}

// toFailure is toStatus for the Exchange stream.
export function toFailure(err: unknown): storagev1.Failure {
  if (!(err instanceof StorageError)) {
    return { code: '', key: '', message: err instanceof Error ? err.message : String(err), revision: 0 };
  }
  return { code: err.code, key: err.key, message: err.message, revision: err.revision };
}

// fromFailure is toStorageError for the Exchange stream.
export function fromFailure(failure: storagev1.Failure): StorageError {
  if (!storageErrorCodes.has(failure.code)) return StorageError.unreachable(`INTERNAL: ${failure.message}`);
  return new StorageError(failure.code as StorageErrorCode, failure.key, failure.message, failure.revision);
}
