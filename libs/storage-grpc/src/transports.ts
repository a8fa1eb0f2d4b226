// A Transport carries GrpcObjectStore's small requests (everything but List and Watch).
// ExchangeStream multiplexes them on one long-lived Exchange stream, which costs a fraction of
// a unary call per request; UnaryCalls makes each request its own call, for a service without
// Exchange and to keep the unary methods tested.
import { Metadata, ServiceError } from '@grpc/grpc-js';
import { storagev1 } from '@plinth/proto';
import { StorageError } from '@plinth/storage';
import { Carrier } from '@plinth/telemetry';
import { toStorageError } from './status';

export interface Transport {
  // send answers a request (its id is the transport's to set) with its response. A failure of
  // the store comes back as the response's failure; a failure to get an answer rejects with
  // an Unreachable StorageError.
  send(request: storagev1.ExchangeRequest): Promise<storagev1.ExchangeResponse>;
  // close lets the pending requests finish and sends no more.
  close(): void;
}

export class ExchangeStream implements Transport {
  private open: OpenExchange | undefined;

  constructor(private readonly client: storagev1.ObjectStoreClient) {}

  send(request: storagev1.ExchangeRequest): Promise<storagev1.ExchangeResponse> {
    if (this.open === undefined) {
      const open: OpenExchange = new OpenExchange(this.client, () => {
        if (this.open === open) this.open = undefined;
      });
      this.open = open;
    }
    return this.open.send(request);
  }

  close(): void {
    this.open?.end();
    this.open = undefined;
  }
}

interface Pending {
  resolve(response: storagev1.ExchangeResponse): void;
  reject(err: StorageError): void;
}

// OpenExchange is one Exchange stream and the requests waiting for their answers on it. Once
// the stream fails or ends, its pending requests fail with Unreachable and the next request
// opens a new stream. The requests sent in one turn of the event loop leave together, as one
// message (a batch) when there are several.
class OpenExchange {
  private readonly call: ReturnType<storagev1.ObjectStoreClient['exchange']>;
  private readonly pending = new Map<number, Pending>();
  private readonly outbox = new Outbox<storagev1.ExchangeRequest>((request) => {
    // After a failure the stream takes nothing more: its pending requests fail at its end.
    if (!this.failure) this.call.write(request);
  }, batchRequests);
  private nextId = 0;
  private failure: StorageError | undefined;

  constructor(client: storagev1.ObjectStoreClient, onBroken: () => void) {
    this.call = client.exchange();
    this.call.on('data', (response: storagev1.ExchangeResponse) => {
      if (response.batch.length === 0) this.answer(response);
      else for (const answer of response.batch) this.answer(answer);
    });
    // The failure is kept until 'end', which follows the last 'data': grpc-js may report the
    // status before it has emitted the answers that came before it.
    this.call.on('error', (err: ServiceError) => {
      this.failure ??= toStorageError(err);
      onBroken();
    });
    this.call.on('end', () => {
      this.failure ??= StorageError.unreachable('the storage service ended the exchange stream');
      onBroken();
      for (const pending of this.pending.values()) pending.reject(this.failure);
      this.pending.clear();
    });
  }

  send(request: storagev1.ExchangeRequest): Promise<storagev1.ExchangeResponse> {
    if (this.failure) return Promise.reject(this.failure);
    this.nextId = (this.nextId + 1) >>> 0;
    request.id = this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(request.id, { resolve, reject });
      this.outbox.push(request, this.pending.size === 1);
    });
  }

  end(): void {
    this.outbox.flush();
    this.call.end();
  }

  private answer(response: storagev1.ExchangeResponse): void {
    const pending = this.pending.get(response.id);
    if (pending === undefined) return;
    this.pending.delete(response.id);
    pending.resolve(response);
  }
}

function batchRequests(batch: storagev1.ExchangeRequest[]): storagev1.ExchangeRequest {
  return { id: 0, traceContext: {}, batch };
}

// Outbox gathers the messages of one turn of the event loop and writes them at its end: one
// alone as it is, several as one batch message. A message pushed while nothing else is under
// way (no other request awaits its answer) leaves at once: there is nothing to wait for.
export class Outbox<T> {
  private messages: T[] = [];
  private scheduled = false;

  constructor(
    private readonly write: (message: T) => void,
    private readonly batch: (messages: T[]) => T,
  ) {}

  push(message: T, alone = false): void {
    if (alone && this.messages.length === 0) {
      this.write(message);
      return;
    }
    this.messages.push(message);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  get size(): number {
    return this.messages.length;
  }

  // flush writes what is gathered now.
  flush(): void {
    this.scheduled = false;
    const messages = this.messages;
    if (messages.length === 0) return;
    this.messages = [];
    this.write(messages.length === 1 ? messages[0] : this.batch(messages));
  }
}

export class UnaryCalls implements Transport {
  constructor(private readonly client: storagev1.ObjectStoreClient) {}

  send(request: storagev1.ExchangeRequest): Promise<storagev1.ExchangeResponse> {
    const { id, get, create, update, delete: del, currentRevision, compact } = request;
    const metadata = metadataOf(request.traceContext);
    const client = this.client;
    if (get) return call<storagev1.GetResponse>((done) => client.get(get, metadata, done)).then((r) => ({ id, batch: [], get: r }));
    if (create) return call<storagev1.CreateResponse>((done) => client.create(create, metadata, done)).then((r) => ({ id, batch: [], create: r }));
    if (update) return call<storagev1.UpdateResponse>((done) => client.update(update, metadata, done)).then((r) => ({ id, batch: [], update: r }));
    if (del) return call<storagev1.DeleteResponse>((done) => client.delete(del, metadata, done)).then((r) => ({ id, batch: [], delete: r }));
    if (currentRevision) {
      return call<storagev1.CurrentRevisionResponse>((done) => client.currentRevision(currentRevision, metadata, done)).then((r) => ({
        id,
        batch: [],
        currentRevision: r,
      }));
    }
    if (compact) return call<storagev1.CompactResponse>((done) => client.compact(compact, metadata, done)).then((r) => ({ id, batch: [], compact: r }));
    return Promise.reject(StorageError.invalidArgument('request without an operation'));
  }

  close(): void {
    // Each call ends by itself.
  }
}

export type Callback<Res> = (err: ServiceError | null, response: Res) => void;

// call runs one unary call, rejecting with the StorageError its status carries.
export function call<Res>(start: (done: Callback<Res>) => void): Promise<Res> {
  return new Promise((resolve, reject) => {
    start((err, response) => (err ? reject(toStorageError(err)) : resolve(response)));
  });
}

// metadataOf carries a trace context carrier in call metadata.
export function metadataOf(carrier: Carrier): Metadata {
  const metadata = new Metadata();
  for (const name in carrier) metadata.set(name, carrier[name]);
  return metadata;
}
