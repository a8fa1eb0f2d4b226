// GrpcObjectStore is the ObjectStore of a remote storage service: the gateway and authz use it
// exactly as they would use a local store. Each call runs in a client span whose context
// travels in the request metadata, and a failed call throws the StorageError the service's
// store threw (Unreachable when no answer came back).
import { ChannelCredentials, ChannelOptions, Metadata, ServiceError, credentials } from '@grpc/grpc-js';
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
import { SpanKind, WithSpanOptions, injectContext, withSpan } from '@plinth/telemetry';
import { clientChannelOptions } from './channel-options';
import { fromWireEvent, requiredKv } from './convert';
import { MethodName, isFailure, spanAttributes, spanNames } from './service';
import { toStorageError } from './status';

export interface GrpcObjectStoreOptions {
  // address is the storage service's host:port.
  address: string;
  // credentials default to plaintext (loopback or a trusted network).
  credentials?: ChannelCredentials;
  // channelOptions override clientChannelOptions one by one.
  channelOptions?: ChannelOptions;
}

type Callback<Res> = (err: ServiceError | null, response: Res) => void;

const clientSpan: WithSpanOptions = { kind: SpanKind.CLIENT, isFailure };

export class GrpcObjectStore implements ObjectStore {
  private readonly client: storagev1.ObjectStoreClient;
  private readonly watches = new Set<Channel<WatchEvent>>();

  constructor(options: GrpcObjectStoreOptions) {
    this.client = new storagev1.ObjectStoreClient(options.address, options.credentials ?? credentials.createInsecure(), {
      ...clientChannelOptions,
      ...options.channelOptions,
    });
  }

  get(key: string, options: GetOptions = {}): Promise<KeyValue> {
    const request: storagev1.GetRequest = { key, revision: options.revision ?? 0 };
    return this.unary(
      'Get',
      (metadata, done: Callback<storagev1.GetResponse>) => this.client.get(request, metadata, done),
      (response) => requiredKv(response.kv, 'Get'),
    );
  }

  list(options: ListOptions): Promise<ListResult> {
    const request: storagev1.ListRequest = {
      prefix: options.prefix,
      limit: options.limit ?? 0,
      continue: options.continue ?? '',
      revision: options.revision ?? 0,
    };
    return this.unary(
      'List',
      (metadata, done: Callback<storagev1.ListResponse>) => this.client.list(request, metadata, done),
      (response) =>
        response.continue === ''
          ? { items: response.items, revision: response.revision }
          : {
              items: response.items,
              revision: response.revision,
              continue: response.continue,
              remainingItemCount: response.remainingItemCount,
            },
    );
  }

  create(key: string, value: Uint8Array): Promise<KeyValue> {
    const request: storagev1.CreateRequest = { key, value };
    return this.unary(
      'Create',
      (metadata, done: Callback<storagev1.CreateResponse>) => this.client.create(request, metadata, done),
      (response) => requiredKv(response.kv, 'Create'),
    );
  }

  update(key: string, value: Uint8Array, expectedRevision: number): Promise<KeyValue> {
    const request: storagev1.UpdateRequest = { key, value, expectedRevision };
    return this.unary(
      'Update',
      (metadata, done: Callback<storagev1.UpdateResponse>) => this.client.update(request, metadata, done),
      (response) => requiredKv(response.kv, 'Update'),
    );
  }

  delete(key: string, preconditions?: DeletePreconditions): Promise<DeleteResult> {
    const request: storagev1.DeleteRequest = { key, preconditions };
    return this.unary(
      'Delete',
      (metadata, done: Callback<storagev1.DeleteResponse>) => this.client.delete(request, metadata, done),
      (response) => ({ deleted: requiredKv(response.deleted, 'Delete'), revision: response.revision }),
    );
  }

  currentRevision(): Promise<number> {
    return this.unary(
      'CurrentRevision',
      (metadata, done: Callback<storagev1.CurrentRevisionResponse>) => this.client.currentRevision({}, metadata, done),
      (response) => response.revision,
    );
  }

  compact(revision: number): Promise<void> {
    return this.unary(
      'Compact',
      (metadata, done: Callback<storagev1.CompactResponse>) => this.client.compact({ revision }, metadata, done),
      () => undefined,
    );
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
    const call = this.client.watch(request, outgoingMetadata());
    const channel: Channel<WatchEvent> = new Channel(() => {
      this.watches.delete(channel);
      call.cancel();
    });
    this.watches.add(channel);
    // failure is kept until 'end', which follows the last 'data': grpc-js may report the status
    // before it has emitted the messages that came before it.
    let failure: StorageError | undefined;
    call.on('data', (response: storagev1.WatchResponse) => {
      try {
        for (const event of response.events) channel.push(fromWireEvent(event));
      } catch (err) {
        channel.fail(err as Error);
      }
    });
    call.on('error', (err: ServiceError) => {
      failure = toStorageError(err);
    });
    call.on('end', () => channel.fail(failure ?? StorageError.unreachable('the storage service ended the watch')));
    return {
      [Symbol.asyncIterator]: () => channel[Symbol.asyncIterator](),
      close: () => channel.close(),
    };
  }

  async close(): Promise<void> {
    for (const watch of [...this.watches]) watch.close();
    this.client.close();
  }

  private unary<Res, T>(method: MethodName, start: (metadata: Metadata, done: Callback<Res>) => void, result: (response: Res) => T): Promise<T> {
    return withSpan(
      spanNames[method],
      spanAttributes[method],
      () =>
        new Promise<T>((resolve, reject) => {
          const callback: Callback<Res> = (err, response) => {
            if (err) reject(toStorageError(err));
            else {
              try {
                resolve(result(response));
              } catch (failure) {
                reject(failure);
              }
            }
          };
          start(outgoingMetadata(), callback);
        }),
      clientSpan,
    );
  }
}

// outgoingMetadata carries the active trace context to the service.
function outgoingMetadata(): Metadata {
  const metadata = new Metadata();
  const carrier = injectContext({});
  for (const name in carrier) metadata.set(name, carrier[name]);
  return metadata;
}
