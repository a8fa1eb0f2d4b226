// Operations are the requests of storage.proto answered by a store, shared by the unary methods
// and the Exchange stream.
import { storagev1 } from '@plinth/proto';
import { CurrentRevisionReader, KeyValue, ObjectStore, StorageError } from '@plinth/storage';
import { MethodName } from './service';

export interface Operations {
  get(request: storagev1.GetRequest): Promise<storagev1.GetResponse>;
  list(request: storagev1.ListRequest): Promise<storagev1.ListResponse>;
  create(request: storagev1.CreateRequest): Promise<storagev1.CreateResponse>;
  update(request: storagev1.UpdateRequest): Promise<storagev1.UpdateResponse>;
  delete(request: storagev1.DeleteRequest): Promise<storagev1.DeleteResponse>;
  currentRevision(request: storagev1.CurrentRevisionRequest): Promise<storagev1.CurrentRevisionResponse>;
  compact(request: storagev1.CompactRequest): Promise<storagev1.CompactResponse>;
}

// storeOperations answers the calls from a store. Concurrent CurrentRevision calls (from every
// gateway and authz) share the store's revision reads by CurrentRevisionReader's rule: a call
// waits for the next read to start after it arrived, never for one already on its way.
export function storeOperations(store: ObjectStore): Operations {
  const revisions = new CurrentRevisionReader(() => store.currentRevision());
  return {
    get: async (r) => ({ kv: await store.get(r.key, r.revision === 0 ? undefined : { revision: r.revision }) }),
    list: async (r) => {
      const result = await store.list({ prefix: r.prefix, limit: r.limit, continue: r.continue || undefined, revision: r.revision });
      return {
        items: result.items,
        revision: result.revision,
        continue: result.continue ?? '',
        remainingItemCount: result.remainingItemCount,
      };
    },
    create: async (r) => ({ kv: written(await store.create(r.key, r.value), r.omitValue) }),
    update: async (r) => ({ kv: written(await store.update(r.key, r.value, r.expectedRevision), r.omitValue) }),
    delete: (r) => store.delete(r.key, r.preconditions),
    currentRevision: async () => ({ revision: await revisions.read() }),
    compact: async (r) => {
      await store.compact(r.revision);
      return {};
    },
  };
}

// exchangeMethod names the operation an Exchange request asks for.
export function exchangeMethod(r: storagev1.ExchangeRequest): MethodName {
  if (r.get) return 'Get';
  if (r.create) return 'Create';
  if (r.update) return 'Update';
  if (r.delete) return 'Delete';
  if (r.currentRevision) return 'CurrentRevision';
  if (r.compact) return 'Compact';
  return 'Exchange';
}

// performExchange answers one Exchange request with the response of its operation.
export async function performExchange(operations: Operations, r: storagev1.ExchangeRequest): Promise<storagev1.ExchangeResponse> {
  const id = r.id;
  if (r.get) return { id, batch: [], get: await operations.get(r.get) };
  if (r.create) return { id, batch: [], create: await operations.create(r.create) };
  if (r.update) return { id, batch: [], update: await operations.update(r.update) };
  if (r.delete) return { id, batch: [], delete: await operations.delete(r.delete) };
  if (r.currentRevision) return { id, batch: [], currentRevision: await operations.currentRevision(r.currentRevision) };
  if (r.compact) return { id, batch: [], compact: await operations.compact(r.compact) };
  throw StorageError.invalidArgument('exchange request without an operation');
}

// written is a written key as a create or update answers it: without its value when the
// caller asked (omit_value: it sent the value, GrpcObjectStore puts its own back), so that the
// object's bytes cross the link once; whole for a caller that did not ask (an older one).
function written(kv: KeyValue, omitValue: boolean): KeyValue {
  return omitValue ? { key: kv.key, value: noValue, revision: kv.revision, createRevision: kv.createRevision } : kv;
}

const noValue = new Uint8Array(0);
