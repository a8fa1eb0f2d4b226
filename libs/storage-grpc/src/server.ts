// objectStoreHandlers answer the calls of storage.proto from an ObjectStore, for the storage
// service's Nest microservice to route to (libs/nest/src/storage): plain functions of the
// request (or the stream of requests), its metadata and its call, answering with a promise or
// an observable. Each request continues the caller's trace in a server span. A unary call or a
// watch fails with what the store threw, for the transport to end the call with toStatus; on
// the Exchange stream a StorageError becomes a Failure. Either way GrpcObjectStore rebuilds the
// same StorageError.
import { Metadata, ServerDuplexStream, ServerWritableStream } from '@grpc/grpc-js';
import { Observable, Subscriber } from 'rxjs';
import { storagev1 } from '@plinth/proto';
import { ObjectStore, StorageError, Watch } from '@plinth/storage';
import { Carrier, Context, SpanKind, extractContext, propagationFields, withSpan } from '@plinth/telemetry';
import { toWatchOptions, toWireEvent } from './convert';
import { Operations, exchangeMethod, performExchange, storeOperations } from './operations';
import { MethodName, isFailure, spanAttributes, spanNames } from './service';
import { toFailure } from './status';
import { Outbox } from './transports';

export interface ObjectStoreServiceOptions {
  // signal, once aborted, ends every running watch with UNAVAILABLE and every Exchange stream
  // once its pending requests are answered: a server shutting down aborts it so that its
  // long-lived streams let it drain.
  signal?: AbortSignal;
}

export type WatchCall = ServerWritableStream<storagev1.WatchRequest, storagev1.WatchResponse>;
export type ExchangeCall = ServerDuplexStream<storagev1.ExchangeRequest, storagev1.ExchangeResponse>;
export type UnaryHandler<Req, Res> = (request: Req, metadata: Metadata) => Promise<Res>;

export interface ObjectStoreHandlers {
  get: UnaryHandler<storagev1.GetRequest, storagev1.GetResponse>;
  list: UnaryHandler<storagev1.ListRequest, storagev1.ListResponse>;
  create: UnaryHandler<storagev1.CreateRequest, storagev1.CreateResponse>;
  update: UnaryHandler<storagev1.UpdateRequest, storagev1.UpdateResponse>;
  delete: UnaryHandler<storagev1.DeleteRequest, storagev1.DeleteResponse>;
  currentRevision: UnaryHandler<storagev1.CurrentRevisionRequest, storagev1.CurrentRevisionResponse>;
  compact: UnaryHandler<storagev1.CompactRequest, storagev1.CompactResponse>;
  // watch streams the store's events until the client cancels; the observable fails with a
  // StorageError when the store's watch fails or ends on its own, or the service shuts down.
  watch(request: storagev1.WatchRequest, metadata: Metadata, call: WatchCall): Observable<storagev1.WatchResponse>;
  // exchange answers the requests of an Exchange stream (see exchangeResponses).
  exchange(requests: Observable<storagev1.ExchangeRequest>, metadata: Metadata, call: ExchangeCall): Observable<storagev1.ExchangeResponse>;
}

export function objectStoreHandlers(store: ObjectStore, options: ObjectStoreServiceOptions = {}): ObjectStoreHandlers {
  const operations = storeOperations(store);
  return {
    get: unary('Get', operations.get),
    list: unary('List', operations.list),
    create: unary('Create', operations.create),
    update: unary('Update', operations.update),
    delete: unary('Delete', operations.delete),
    currentRevision: unary('CurrentRevision', operations.currentRevision),
    compact: unary('Compact', operations.compact),
    watch: (request, metadata, call) => watchResponses(store, request, metadata, call, options.signal),
    exchange: (requests, _metadata, call) => exchangeResponses(operations, requests, call, options.signal),
  };
}

function unary<Req, Res>(method: MethodName, handle: (request: Req) => Promise<Res>): UnaryHandler<Req, Res> {
  const name = spanNames[method];
  const attributes = spanAttributes[method];
  return (request, metadata) => withSpan(name, attributes, () => handle(request), { kind: SpanKind.SERVER, parent: remoteContext(metadata), isFailure });
}

// exchangeResponses answers the requests of an Exchange stream concurrently (each request of a
// batch on its own), and emits the answers ready in one turn of the event loop together. It
// stops reading the call while grpc's send buffer is full, and completes once the client
// half-closed the stream or the service shuts down, after answering what was asked before.
function exchangeResponses(
  operations: Operations,
  requests: Observable<storagev1.ExchangeRequest>,
  call: ExchangeCall,
  signal: AbortSignal | undefined,
): Observable<storagev1.ExchangeResponse> {
  return new Observable((subscriber) => {
    let pending = 0;
    let closing = false;
    let paused = false;
    const resume = () => {
      paused = false;
      call.resume();
    };
    const finish = () => {
      if (subscriber.closed || !closing || pending > 0 || outbox.size > 0) return;
      subscriber.complete();
    };
    const close = () => {
      closing = true;
      finish();
    };
    // The service's back-pressure is to stop reading requests until 'drain', so the outbox
    // itself never waits (its write answers true).
    const outbox = new Outbox<storagev1.ExchangeResponse>((response) => {
      if (subscriber.closed) return true;
      subscriber.next(response);
      if (call.writableNeedDrain && !paused) {
        paused = true;
        call.pause();
        call.once('drain', resume);
      }
      finish();
      return true;
    }, batchResponses);
    const respond = (response: storagev1.ExchangeResponse) => {
      pending--;
      if (!subscriber.closed) outbox.push(response, pending === 0);
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
    const reading = requests.subscribe({
      next: (request) => {
        // A request that arrives while the stream closes is left unanswered: the client fails
        // it as Unreachable when the stream ends.
        if (closing) return;
        if (request.batch.length === 0) serve(request);
        else for (const one of request.batch) serve(one);
      },
      complete: close,
      error: close,
    });
    if (signal?.aborted) close();
    else signal?.addEventListener('abort', close);
    return () => {
      reading.unsubscribe();
      call.off('drain', resume);
      signal?.removeEventListener('abort', close);
    };
  });
}

// watchResponses is the store's watch as the responses of a Watch call, in a server span that
// lasts as long as the watch. The transport writes what it emits; while grpc's send buffer is
// full it stops reading the store (whose watch queues the events meanwhile).
function watchResponses(store: ObjectStore, request: storagev1.WatchRequest, metadata: Metadata, call: WatchCall, signal: AbortSignal | undefined): Observable<storagev1.WatchResponse> {
  return new Observable((subscriber) => {
    if (signal?.aborted) {
      subscriber.error(shuttingDown());
      return undefined;
    }
    const watch = store.watch(toWatchOptions(request));
    const stop = () => watch.close();
    signal?.addEventListener('abort', stop);
    withSpan(spanNames.Watch, spanAttributes.Watch, () => forwardEvents(watch, subscriber, call, signal), {
      kind: SpanKind.SERVER,
      parent: remoteContext(metadata),
      isFailure,
    }).then(
      () => subscriber.complete(),
      (err: unknown) => subscriber.error(err),
    );
    return () => {
      signal?.removeEventListener('abort', stop);
      watch.close();
    };
  });
}

// maxWatchBatch bounds the events one Watch response carries.
const maxWatchBatch = 256;

// forwardEvents resolves when the client has gone, and throws when the watch ended otherwise.
// The events that arrived together (one etcd watch response, the writes of one event-loop turn)
// leave as one message: a message costs each end far more than an event in it. The last one
// queued leaves at once, so batching never holds an event back.
async function forwardEvents(watch: Watch, subscriber: Subscriber<storagev1.WatchResponse>, call: WatchCall, signal: AbortSignal | undefined): Promise<void> {
  let events: storagev1.WatchEvent[] = [];
  for await (const event of watch) {
    if (subscriber.closed || call.cancelled) return;
    events.push(toWireEvent(event));
    if ((watch.queued ?? 0) > 0 && events.length < maxWatchBatch) continue;
    subscriber.next({ events });
    events = [];
    if (call.writableNeedDrain) await writable(call);
  }
  if (subscriber.closed || call.cancelled) return;
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
