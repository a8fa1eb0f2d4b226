// createObjectStoreServiceImpl serves an ObjectStore over gRPC. Each request continues the
// caller's trace in a server span, and a StorageError ends the request with a status (or, on
// the Exchange stream, a Failure) that GrpcObjectStore turns back into the same StorageError.
import { Metadata, ServerDuplexStream, ServerWritableStream, handleUnaryCall } from '@grpc/grpc-js';
import { storagev1 } from '@plinth/proto';
import { ObjectStore, StorageError } from '@plinth/storage';
import { Carrier, Context, SpanKind, extractContext, propagationFields, withSpan } from '@plinth/telemetry';
import { toWatchOptions, toWireEvent } from './convert';
import { Operations, exchangeMethod, performExchange, storeOperations } from './operations';
import { MethodName, isFailure, spanAttributes, spanNames } from './service';
import { toFailure, toStatus } from './status';
import { Outbox } from './transports';

export interface ObjectStoreServiceOptions {
  // signal, once aborted, ends every running watch with UNAVAILABLE and every Exchange stream
  // once its pending requests are answered: a server shutting down aborts it so that its
  // long-lived streams let it drain.
  signal?: AbortSignal;
}

type WatchCall = ServerWritableStream<storagev1.WatchRequest, storagev1.WatchResponse>;
type ExchangeCall = ServerDuplexStream<storagev1.ExchangeRequest, storagev1.ExchangeResponse>;

export function createObjectStoreServiceImpl(store: ObjectStore, options: ObjectStoreServiceOptions = {}): storagev1.ObjectStoreServer {
  const operations = storeOperations(store);
  return {
    get: unary('Get', operations.get),
    list: unary('List', operations.list),
    create: unary('Create', operations.create),
    update: unary('Update', operations.update),
    delete: unary('Delete', operations.delete),
    currentRevision: unary('CurrentRevision', operations.currentRevision),
    compact: unary('Compact', operations.compact),
    watch: (call: WatchCall) => {
      withSpan(spanNames.Watch, spanAttributes.Watch, () => streamWatch(store, call, options.signal), {
        kind: SpanKind.SERVER,
        parent: remoteContext(call.metadata),
        isFailure,
      }).catch((err: unknown) => {
        if (!call.cancelled) call.emit('error', toStatus(err));
      });
    },
    exchange: (call: ExchangeCall) => serveExchange(operations, call, options.signal),
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

// serveExchange answers the requests of an Exchange stream concurrently (each request of a
// batch on its own), and sends the answers ready in one turn of the event loop together. It
// stops reading while grpc's send buffer is full, and ends the stream once the client
// half-closed it or the service shuts down, after answering what was asked before.
function serveExchange(operations: Operations, call: ExchangeCall, signal: AbortSignal | undefined): void {
  let pending = 0;
  let closing = false;
  let ended = false;
  let paused = false;
  const resume = () => {
    paused = false;
    call.resume();
  };
  const finish = () => {
    if (ended || !closing || pending > 0 || outbox.size > 0) return;
    ended = true;
    signal?.removeEventListener('abort', close);
    if (!call.cancelled) call.end();
  };
  const close = () => {
    closing = true;
    finish();
  };
  const write = (response: storagev1.ExchangeResponse) => {
    if (ended || call.cancelled) return;
    if (!call.write(response) && !paused) {
      paused = true;
      call.pause();
      call.once('drain', resume);
    }
  };
  const outbox = new Outbox<storagev1.ExchangeResponse>((response) => {
    write(response);
    finish();
  }, batchResponses);
  const respond = (response: storagev1.ExchangeResponse) => {
    pending--;
    if (ended || call.cancelled) return;
    outbox.push(response, pending === 0);
  };
  const serve = (request: storagev1.ExchangeRequest) => {
    pending++;
    const method = exchangeMethod(request);
    withSpan(spanNames[method], spanAttributes[method], () => performExchange(operations, request), {
      kind: SpanKind.SERVER,
      parent: carriedContext(request.traceContext),
      isFailure,
    }).then(respond, (err: unknown) => respond({ id: request.id, batch: [], failure: toFailure(err) }));
  };
  call.on('data', (request: storagev1.ExchangeRequest) => {
    // A request that arrives while the stream closes is left unanswered: the client fails it
    // as Unreachable when the stream ends.
    if (closing) return;
    if (request.batch.length === 0) serve(request);
    else for (const one of request.batch) serve(one);
  });
  call.on('end', close);
  call.on('cancelled', () => {
    ended = true;
    signal?.removeEventListener('abort', close);
  });
  if (signal?.aborted) close();
  else signal?.addEventListener('abort', close);
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

function batchResponses(batch: storagev1.ExchangeResponse[]): storagev1.ExchangeResponse {
  return { id: 0, batch };
}

function shuttingDown(): StorageError {
  return StorageError.unreachable('the storage service is shutting down');
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

// carriedContext reads the caller's trace context from an Exchange request.
function carriedContext(carrier: Carrier): Context | undefined {
  return propagationFields().length === 0 ? undefined : extractContext(carrier);
}
