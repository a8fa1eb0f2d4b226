// StorageErrorCode names every way a storage operation can fail; the gateway turns each into a
// Status error at one boundary (interpretStorageError), as Kubernetes does in
// k8s.io/apiserver/pkg/storage/errors.go.
export enum StorageErrorCode {
  KeyNotFound = 'KeyNotFound',
  KeyExists = 'KeyExists',
  Conflict = 'Conflict',
  Expired = 'Expired',
  InvalidObj = 'InvalidObj',
  InvalidArgument = 'InvalidArgument',
  // FutureRevision is a read at a revision the store has not reached (etcd's ErrFutureRev).
  FutureRevision = 'FutureRevision',
  Unreachable = 'Unreachable',
  // Timeout is a call that got no answer by its deadline: the service may still carry it out.
  Timeout = 'Timeout',
  RequestTooLarge = 'RequestTooLarge',
}

// maxRequestBytes is etcd's default --max-request-bytes (1.5 MiB): a write whose key and value
// together exceed it is refused by etcd, and so by every backend, so that what the all-in-one
// stores is what a kube-apiserver on etcd would store.
export const maxRequestBytes = 1.5 * 1024 * 1024;

// StorageError is the only error a store throws for an expected failure. `revision` is the
// current revision when the store knows it (a conflict, an expired revision).
export class StorageError extends Error {
  override readonly name = 'StorageError';

  constructor(
    readonly code: StorageErrorCode,
    readonly key: string,
    message: string,
    readonly revision = 0,
  ) {
    super(message);
  }

  static keyNotFound(key: string, revision = 0): StorageError {
    return new StorageError(StorageErrorCode.KeyNotFound, key, `key not found: ${key}`, revision);
  }

  static keyExists(key: string, revision = 0): StorageError {
    return new StorageError(StorageErrorCode.KeyExists, key, `key exists: ${key}`, revision);
  }

  static conflict(key: string, detail: string, revision = 0): StorageError {
    return new StorageError(StorageErrorCode.Conflict, key, `conflict on ${key}: ${detail}`, revision);
  }

  static expired(key: string, requested: number, compacted: number): StorageError {
    return new StorageError(
      StorageErrorCode.Expired,
      key,
      `revision ${requested} has been compacted (compacted revision ${compacted})`,
      compacted,
    );
  }

  static invalidObj(key: string, detail: string): StorageError {
    return new StorageError(StorageErrorCode.InvalidObj, key, `invalid object at ${key}: ${detail}`);
  }

  static invalidArgument(detail: string): StorageError {
    return new StorageError(StorageErrorCode.InvalidArgument, '', detail);
  }

  // futureRevision is a read at a revision newer than the store's, in etcd's words.
  static futureRevision(key: string, requested: number): StorageError {
    return new StorageError(StorageErrorCode.FutureRevision, key, `etcdserver: mvcc: required revision is a future revision (${requested})`);
  }

  // requestTooLarge is etcd's refusal of a write over maxRequestBytes (or past its gRPC message
  // limit), in etcd's words.
  static requestTooLarge(key: string): StorageError {
    return new StorageError(StorageErrorCode.RequestTooLarge, key, 'etcdserver: request is too large');
  }

  static timeout(detail: string): StorageError {
    return new StorageError(StorageErrorCode.Timeout, '', `storage timeout: ${detail}`);
  }

  static unreachable(detail: string): StorageError {
    return new StorageError(StorageErrorCode.Unreachable, '', `storage unreachable: ${detail}`);
  }
}

export function isStorageError(err: unknown, code?: StorageErrorCode): err is StorageError {
  return err instanceof StorageError && (code === undefined || err.code === code);
}
