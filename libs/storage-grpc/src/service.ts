// The names the storage service goes by on the wire and in traces, shared by both ends.
import { StorageError, StorageErrorCode } from '@plinth/storage';

export const serviceName = 'plinth.storage.v1.ObjectStore';

export type MethodName = 'Get' | 'List' | 'Create' | 'Update' | 'Delete' | 'CurrentRevision' | 'Compact' | 'Watch' | 'Exchange';

// spanNames and spanAttributes are built once: a call reuses them instead of allocating. A
// request carried by the Exchange stream has the span of its own method, as if it were a call.
export const spanNames: Record<MethodName, string> = {
  Get: `${serviceName}/Get`,
  List: `${serviceName}/List`,
  Create: `${serviceName}/Create`,
  Update: `${serviceName}/Update`,
  Delete: `${serviceName}/Delete`,
  CurrentRevision: `${serviceName}/CurrentRevision`,
  Compact: `${serviceName}/Compact`,
  Watch: `${serviceName}/Watch`,
  Exchange: `${serviceName}/Exchange`,
};

export const spanAttributes: Record<MethodName, Readonly<Record<string, string>>> = {
  Get: rpcAttributes('Get'),
  List: rpcAttributes('List'),
  Create: rpcAttributes('Create'),
  Update: rpcAttributes('Update'),
  Delete: rpcAttributes('Delete'),
  CurrentRevision: rpcAttributes('CurrentRevision'),
  Compact: rpcAttributes('Compact'),
  Watch: rpcAttributes('Watch'),
  Exchange: rpcAttributes('Exchange'),
};

function rpcAttributes(method: MethodName): Readonly<Record<string, string>> {
  return Object.freeze({ 'rpc.system': 'grpc', 'rpc.service': serviceName, 'rpc.method': method });
}

// isFailure tells a failed call from an expected outcome for tracing: a missing key, an
// existing key, a lost compare-and-swap, a compacted revision or a bad argument is an answer
// of the store, not a fault of the service.
export function isFailure(err: unknown): boolean {
  return !(err instanceof StorageError) || err.code === StorageErrorCode.Unreachable || err.code === StorageErrorCode.Timeout || err.code === StorageErrorCode.InvalidObj;
}
