// createObjectStoreServiceImpl serves an ObjectStore over gRPC. Each call continues the
// caller's trace in a server span, and a StorageError ends the call with a status that
// GrpcObjectStore turns back into the same StorageError.
import { Metadata, ServerWritableStream, handleUnaryCall } from '@grpc/grpc-js';
import { storagev1 } from '@plinth/proto';
import { ObjectStore, StorageError } from '@plinth/storage';
import { Carrier, Context, SpanKind, extractContext, propagationFields, withSpan } from '@plinth/telemetry';
import { toWatchOptions, toWireEvent } from './convert';
import { MethodName, isFailure, spanAttributes, spanNames } from './service';
import { toStatus } from './status';

export interface ObjectStoreServiceOptions {
  // signal, once aborted, ends every running watch with UNAVAILABLE: a server shutting down
  // aborts it so that the open watch streams let it drain.
  signal?: AbortSignal;
}

type WatchCall = ServerWritableStream<storagev1.WatchRequest, storagev1.WatchResponse>;

export function createObjectStoreServiceImpl(store: ObjectStore, options: ObjectStoreServiceOptions = {}): storagev1.ObjectStoreServer {
  return {
    get: unary('Get', async (r: storagev1.GetRequest) => ({
      kv: await store.get(r.key, r.revision === 0 ? undefined : { revision: r.revision }),
    })),
    list: unary('List', async (r: storagev1.ListRequest) => {
      const result = await store.list({ prefix: r.prefix, limit: r.limit, continue: r.continue || undefined, revision: r.revision });
      return {
        items: result.items,
        revision: result.revision,
        continue: result.continue ?? '',
        remainingItemCount: result.remainingItemCount,
      };
    }),
    create: unary('Create', async (r: storagev1.CreateRequest) => ({ kv: await store.create(r.key, detach(r.value)) })),
    update: unary('Update', async (r: storagev1.UpdateRequest) => ({
      kv: await store.update(r.key, detach(r.value), r.expectedRevision),
    })),
    delete: unary('Delete', (r: storagev1.DeleteRequest) => store.delete(r.key, r.preconditions)),
    currentRevision: unary('CurrentRevision', async () => ({ revision: await store.currentRevision() })),
    compact: unary('Compact', async (r: storagev1.CompactRequest) => {
      await store.compact(r.revision);
      return {};
    }),
    watch: (call: WatchCall) => {
      withSpan(spanNames.Watch, spanAttributes.Watch, () => streamWatch(store, call, options.signal), {
        kind: SpanKind.SERVER,
        parent: remoteContext(call.metadata),
        isFailure,
      }).catch((err: unknown) => {
        if (!call.cancelled) call.emit('error', toStatus(err));
      });
    },
  };
}

function unary<Req, Res>(method: MethodName, handle: (request: Req) => Promise<Res>): handleUnaryCall<Req, Res> {
  const name = spanNames[method];
  const attributes = spanAttributes[method];
  return (call, callback) => {
    withSpan(name, attributes, () => handle(call.request), { kind: SpanKind.SERVER, parent: remoteContext(call.metadata), isFailure }).then(
      (response) => callback(null, response),
      (err: unknown) => callback(toStatus(err)),
    );
  };
}

// streamWatch writes the store's watch events to the call until the client cancels it. It
// stops reading the store while grpc's send buffer is full (the store's watch queues the
// events meanwhile) and throws, for the caller to end the call with a status, when the store's
// watch fails or ends on its own.
async function streamWatch(store: ObjectStore, call: WatchCall, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) throw shuttingDown();
  const watch = store.watch(toWatchOptions(call.request));
  const stop = () => watch.close();
  call.on('cancelled', stop);
  signal?.addEventListener('abort', stop);
  try {
    if (call.cancelled) return;
    for await (const event of watch) {
      if (!call.write({ events: [toWireEvent(event)] })) await writable(call);
      if (call.cancelled) return;
    }
  } finally {
    call.off('cancelled', stop);
    signal?.removeEventListener('abort', stop);
    watch.close();
  }
  if (call.cancelled) return;
  throw signal?.aborted ? shuttingDown() : StorageError.unreachable('the store ended the watch');
}

// writable resolves when the call can take more messages, or will take none.
function writable(call: WatchCall): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      call.off('drain', done);
      call.off('cancelled', done);
      call.off('close', done);
      resolve();
    };
    call.on('drain', done);
    call.on('cancelled', done);
    call.on('close', done);
  });
}

function shuttingDown(): StorageError {
  return StorageError.unreachable('the storage service is shutting down');
}

// detach copies a value out of the request message: the message's buffer can be a slice of a
// shared pool, which a store keeping the value would otherwise hold on to whole.
function detach(value: Uint8Array): Uint8Array {
  return new Uint8Array(value);
}

// remoteContext reads the caller's trace context from the request metadata, copying only the
// fields the registered propagator uses (none when tracing is off).
function remoteContext(metadata: Metadata): Context | undefined {
  const fields = propagationFields();
  if (fields.length === 0) return undefined;
  const carrier: Carrier = {};
  for (const field of fields) {
    const values = metadata.get(field);
    if (values.length > 0) carrier[field] = values.join(',');
  }
  return extractContext(carrier);
}
