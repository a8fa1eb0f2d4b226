// GrpcObjectStore is the ObjectStore of a remote storage service: the gateway and authz use it
// exactly as they would use a local store. Each request runs in a client span whose context
// travels with it, and a failed request throws the StorageError the service's store threw
// (Unreachable when no answer came back, Timeout when none came by the call's deadline).
import { ChannelCredentials, ChannelOptions, ServiceError, credentials } from '@grpc/grpc-js';
import { storagev1 } from '@plinth/proto';
import {
  Channel,
  DeletePreconditions,
  DeleteResult,
  GetOptions,
  KeyValue,
  ListOptions,
  ListResult,
  ObjectStore,
  StorageError,
  Watch,
  WatchEvent,
  WatchOptions,
} from '@plinth/storage';
import { Clock, realClock } from '@plinth/machinery';
import { defaultStorageLinkFlags } from '@plinth/config';
import { SpanKind, WithSpanOptions, injectContext, withSpan } from '@plinth/telemetry';
import { clientChannelOptions } from './channel-options';
import { ObjectStoreClient } from './codecs';
import { StorageLinkMetrics } from './metrics';
import { fromWireEvent, requiredKv } from './convert';
import { MethodName, isFailure, spanAttributes, spanNames } from './service';
import { fromFailure, toStorageError } from './status';
import { Callback, CallLimits, ExchangeStream, Transport, UnaryCalls, call, deadlineOf, metadataOf, unobserved } from './transports';

export interface GrpcObjectStoreOptions {
  // address is the storage service's host:port.
  address: string;
  // credentials default to plaintext (loopback or a trusted network).
  credentials?: ChannelCredentials;
  // channelOptions override clientChannelOptions one by one.
  channelOptions?: ChannelOptions;
  // unaryCalls sends every request as its own unary call instead of over the Exchange stream:
  // several times the cost per request, for a service that does not offer Exchange.
  unaryCalls?: boolean;
  // metrics, when given, measure every request but watches.
  metrics?: StorageLinkMetrics;
  // callTimeoutMs is the deadline of each call but watches; the gateway gives its
  // --request-timeout, past which nobody awaits the answer. Default 60 s (kube-apiserver's
  // --request-timeout).
  callTimeoutMs?: number;
  // maxPendingCalls bounds the calls awaiting answers on the Exchange stream. Default 10,000.
  maxPendingCalls?: number;
  // keepaliveTimeMs and keepaliveTimeoutMs are the channel's keepalive: a ping every
  // keepaliveTimeMs, and the link reset when one is not answered within keepaliveTimeoutMs.
  // Default 30 s and 10 s (defaultStorageLinkFlags).
  keepaliveTimeMs?: number;
  keepaliveTimeoutMs?: number;
  clock?: Clock;
}

export const defaultCallTimeoutMs = 60_000;
export const defaultMaxPendingCalls = defaultStorageLinkFlags.maxPendingCalls;

const clientSpan: WithSpanOptions = { kind: SpanKind.CLIENT, isFailure };

export class GrpcObjectStore implements ObjectStore {
  private readonly client: storagev1.ObjectStoreClient;
  private readonly transport: Transport;
  private readonly watches = new Set<Channel<WatchEvent>>();
  private readonly metrics?: StorageLinkMetrics;
  private readonly limits: CallLimits;
  private closed = false;

  constructor(options: GrpcObjectStoreOptions) {
    this.client = new ObjectStoreClient(options.address, options.credentials ?? credentials.createInsecure(), {
      ...clientChannelOptions,
      ...(options.keepaliveTimeMs === undefined ? {} : { 'grpc.keepalive_time_ms': options.keepaliveTimeMs }),
      ...(options.keepaliveTimeoutMs === undefined ? {} : { 'grpc.keepalive_timeout_ms': options.keepaliveTimeoutMs }),
      ...options.channelOptions,
    });
    this.limits = {
      callTimeoutMs: options.callTimeoutMs ?? defaultCallTimeoutMs,
      maxPendingCalls: options.maxPendingCalls ?? defaultMaxPendingCalls,
      clock: options.clock ?? realClock,
      observer: options.metrics ?? unobserved,
    };
    this.transport = options.unaryCalls ? new UnaryCalls(this.client, this.limits) : new ExchangeStream(this.client, this.limits);
    this.metrics = options.metrics;
  }

  get(key: string, options: GetOptions = {}): Promise<KeyValue> {
    const get = { key, revision: options.revision ?? 0 };
    return this.send('Get', { id: 0, traceContext: {}, batch: [], get }, (r) => requiredKv(r.get?.kv, 'Get'));
  }

  // list is a unary call of its own: a large list must not hold up the requests behind it on
  // the Exchange stream.
  list(options: ListOptions): Promise<ListResult> {
    const request: storagev1.ListRequest = {
      prefix: options.prefix,
      limit: options.limit ?? 0,
      continue: options.continue ?? '',
      revision: options.revision ?? 0,
    };
    return withSpan(
      spanNames.List,
      spanAttributes.List,
      async () => {
        if (this.closed) throw closedStore();
        const metadata = metadataOf(injectContext({}));
        const response = await this.measured('List', () => call((done: Callback<storagev1.ListResponse>) => this.client.list(request, metadata, deadlineOf(this.limits), done)));
        if (response.continue === '') return { items: response.items, revision: response.revision };
        return {
          items: response.items,
          revision: response.revision,
          continue: response.continue,
          remainingItemCount: response.remainingItemCount,
        };
      },
      clientSpan,
    );
  }

  create(key: string, value: Uint8Array): Promise<KeyValue> {
    return this.send('Create', { id: 0, traceContext: {}, batch: [], create: { key, value, omitValue: true } }, (r) => withValue(requiredKv(r.create?.kv, 'Create'), value));
  }

  update(key: string, value: Uint8Array, expectedRevision: number): Promise<KeyValue> {
    const update = { key, value, expectedRevision, omitValue: true };
    return this.send('Update', { id: 0, traceContext: {}, batch: [], update }, (r) => withValue(requiredKv(r.update?.kv, 'Update'), value));
  }

  delete(key: string, preconditions?: DeletePreconditions): Promise<DeleteResult> {
    return this.send('Delete', { id: 0, traceContext: {}, batch: [], delete: { key, preconditions } }, (r) => ({
      deleted: requiredKv(r.delete?.deleted, 'Delete'),
      revision: r.delete?.revision ?? 0,
    }));
  }

  currentRevision(): Promise<number> {
    return this.send('CurrentRevision', { id: 0, traceContext: {}, batch: [], currentRevision: {} }, (r) => {
      if (r.currentRevision === undefined) throw StorageError.unreachable('CurrentRevision answered with another response');
      return r.currentRevision.revision;
    });
  }

  compact(revision: number): Promise<void> {
    return this.send('Compact', { id: 0, traceContext: {}, batch: [], compact: { revision } }, () => undefined);
  }

  // watch starts the stream at once and returns before the service answers: events, and the
  // error that ends the watch, arrive through the iterator.
  watch(options: WatchOptions): Watch {
    const request: storagev1.WatchRequest = {
      prefix: options.prefix,
      key: options.key,
      revision: options.revision ?? 0,
      progressNotify: options.progressNotify ?? false,
    };
    if (this.closed) {
      const failed = new Channel<WatchEvent>();
      failed.fail(closedStore());
      return { [Symbol.asyncIterator]: () => failed[Symbol.asyncIterator](), close: () => failed.close() };
    }
    const stream = this.client.watch(request, metadataOf(injectContext({})));
    const channel: Channel<WatchEvent> = new Channel(() => {
      this.watches.delete(channel);
      stream.cancel();
    });
    this.watches.add(channel);
    // failure is kept until 'end', which follows the last 'data': grpc-js may report the status
    // before it has emitted the messages that came before it.
    let failure: StorageError | undefined;
    stream.on('data', (response: storagev1.WatchResponse) => {
      try {
        for (const event of response.events) channel.push(fromWireEvent(event));
      } catch (err) {
        channel.fail(err as Error);
      }
    });
    stream.on('error', (err: ServiceError) => {
      failure = toStorageError(err);
    });
    stream.on('end', () => channel.fail(failure ?? StorageError.unreachable('the storage service ended the watch')));
    return {
      [Symbol.asyncIterator]: () => channel[Symbol.asyncIterator](),
      close: () => channel.close(),
      get queued() {
        return channel.queued;
      },
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const watch of [...this.watches]) watch.close();
    this.transport.close();
    this.client.close();
  }

  // send runs one request through the transport in a client span, whose context the request
  // carries to the service.
  private send<T>(method: MethodName, request: storagev1.ExchangeRequest, result: (response: storagev1.ExchangeResponse) => T): Promise<T> {
    return withSpan(
      spanNames[method],
      spanAttributes[method],
      async () => {
        if (this.closed) throw closedStore();
        injectContext(request.traceContext);
        return this.measured(method, async () => {
          const response = await this.transport.send(request);
          if (response.failure) throw fromFailure(response.failure);
          return result(response);
        });
      },
      clientSpan,
    );
  }

  private measured<T>(operation: MethodName, call: () => Promise<T>): Promise<T> {
    return this.metrics ? this.metrics.measure(operation, call) : call();
  }
}

// withValue completes a create's or update's answer, which leaves out the value this client
// sent (it asks so with omit_value), with that value; a service that answers with the value
// (an older one) sent back these same bytes.
function withValue(kv: KeyValue, value: Uint8Array): KeyValue {
  return { key: kv.key, value, revision: kv.revision, createRevision: kv.createRevision };
}

function closedStore(): StorageError {
  return StorageError.unreachable('the GrpcObjectStore is closed');
}
