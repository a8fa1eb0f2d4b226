// A Transport carries GrpcObjectStore's small requests (everything but List and Watch).
// ExchangeStream multiplexes them on one long-lived Exchange stream, which costs a fraction of
// a unary call per request; UnaryCalls makes each request its own call, for a service without
// Exchange and to keep the unary methods tested. Both bound a call by CallLimits: a storage
// service that is connected but hung (stopped, or stuck on its backend) fails the calls sent to
// it at their deadline instead of holding them, and the requests behind them, for ever.
import { CallOptions, Metadata, ServiceError } from '@grpc/grpc-js';
import { Clock } from '@plinth/machinery';
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

// CallLimits bound what a transport holds for a storage service that does not answer.
export interface CallLimits {
  // callTimeoutMs is each call's deadline: past it the call fails with Timeout (kube-apiserver's
  // 504 for a storage call that outlived its request's context); its late answer is dropped.
  callTimeoutMs: number;
  // maxPendingCalls bounds the calls awaiting their answers on one Exchange stream; a call
  // beyond it fails at once with Unreachable (503) instead of queueing behind them.
  maxPendingCalls: number;
  // clock times the Exchange stream's deadlines.
  clock: Clock;
  // observer hears of the calls pending and refused (the link's metrics).
  observer: CallObserver;
}

// CallObserver hears how many calls await their answers (delta +1 when one is sent, -1 when it
// settles, whichever way) and of each call refused at the maxPendingCalls cap.
export interface CallObserver {
  pending(delta: number): void;
  refused(): void;
}

export const unobserved: CallObserver = { pending: () => undefined, refused: () => undefined };

export class ExchangeStream implements Transport {
  private open: OpenExchange | undefined;

  constructor(
    private readonly client: storagev1.ObjectStoreClient,
    private readonly limits: CallLimits,
  ) {}

  send(request: storagev1.ExchangeRequest): Promise<storagev1.ExchangeResponse> {
    if (this.open === undefined) {
      const open: OpenExchange = new OpenExchange(this.client, this.limits, () => {
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
  deadline: number;
}

// OpenExchange is one Exchange stream and the requests waiting for their answers on it. Once
// the stream fails or ends, its pending requests fail with Unreachable and the next request
// opens a new stream. The requests sent in one turn of the event loop leave together, as one
// message (a batch) when there are several. While the stream's buffer is full (write answered
// false) the outbox holds them until 'drain'. A request not answered by its deadline fails
// alone; the stream stays, since a slow answer is no broken link (the channel's keepalive pings
// find a peer that stopped answering, and reset the stream).
class OpenExchange {
  private readonly call: ReturnType<storagev1.ObjectStoreClient['exchange']>;
  // pending is in the order requests were sent, which is the order of their deadlines.
  private readonly pending = new Map<number, Pending>();
  private readonly outbox = new Outbox<storagev1.ExchangeRequest>(
    // After a failure the stream takes nothing more: its pending requests fail at its end.
    (request) => this.failure !== undefined || this.call.write(request),
    batchRequests,
  );
  private nextId = 0;
  private failure: StorageError | undefined;
  private deadlineTimer: { cancel(): void } | undefined;

  constructor(
    client: storagev1.ObjectStoreClient,
    private readonly limits: CallLimits,
    onBroken: () => void,
  ) {
    this.call = client.exchange();
    this.call.on('drain', () => this.outbox.resume());
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
      this.deadlineTimer?.cancel();
      for (const pending of this.pending.values()) pending.reject(this.failure);
      this.pending.clear();
    });
  }

  send(request: storagev1.ExchangeRequest): Promise<storagev1.ExchangeResponse> {
    if (this.failure) return Promise.reject(this.failure);
    const { observer } = this.limits;
    if (this.pending.size >= this.limits.maxPendingCalls) {
      observer.refused();
      return Promise.reject(StorageError.unreachable(`${this.pending.size} calls await the storage service's answers`));
    }
    this.nextId = (this.nextId + 1) >>> 0;
    request.id = this.nextId;
    return new Promise((resolve, reject) => {
      // Every pending call is settled exactly once: answered, past its deadline, or failed with
      // the stream.
      observer.pending(1);
      this.pending.set(request.id, {
        resolve: (response) => {
          observer.pending(-1);
          resolve(response);
        },
        reject: (err) => {
          observer.pending(-1);
          reject(err);
        },
        deadline: this.limits.clock.now() + this.limits.callTimeoutMs,
      });
      this.outbox.push(request, this.pending.size === 1);
      this.armDeadline();
    });
  }

  end(): void {
    this.outbox.resume();
    this.call.end();
  }

  private answer(response: storagev1.ExchangeResponse): void {
    const pending = this.pending.get(response.id);
    if (pending === undefined) return;
    this.pending.delete(response.id);
    pending.resolve(response);
  }

  // armDeadline keeps one timer, for the oldest pending request's deadline.
  private armDeadline(): void {
    if (this.deadlineTimer !== undefined) return;
    const oldest = this.pending.values().next();
    if (oldest.done) return;
    this.deadlineTimer = this.limits.clock.setTimeout(() => this.expire(), Math.max(0, oldest.value.deadline - this.limits.clock.now()));
  }

  private expire(): void {
    this.deadlineTimer = undefined;
    const now = this.limits.clock.now();
    for (const [id, pending] of this.pending) {
      if (pending.deadline > now) break;
      this.pending.delete(id);
      pending.reject(deadlineExceeded(this.limits.callTimeoutMs));
    }
    this.armDeadline();
  }
}

function deadlineExceeded(timeoutMs: number): StorageError {
  return StorageError.timeout(`no answer within ${timeoutMs} ms`);
}

function batchRequests(batch: storagev1.ExchangeRequest[]): storagev1.ExchangeRequest {
  return { id: 0, traceContext: {}, batch };
}

// Outbox gathers the messages of one turn of the event loop and writes them at its end: one
// alone as it is, several as one batch message. A message pushed while nothing else is under
// way (no other request awaits its answer) leaves at once: there is nothing to wait for. When
// write answers false (the stream's buffer is full, as Writable.write says), the outbox holds
// what comes next until resume(), which the stream's 'drain' calls.
export class Outbox<T> {
  private messages: T[] = [];
  private scheduled = false;
  private paused = false;

  constructor(
    private readonly write: (message: T) => boolean,
    private readonly batch: (messages: T[]) => T,
  ) {}

  push(message: T, alone = false): void {
    if (alone && this.messages.length === 0 && !this.paused) {
      this.writeOut(message);
      return;
    }
    this.messages.push(message);
    if (this.scheduled || this.paused) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  get size(): number {
    return this.messages.length;
  }

  get waitingForDrain(): boolean {
    return this.paused;
  }

  // flush writes what is gathered now, unless the stream asked to wait for its drain.
  flush(): void {
    this.scheduled = false;
    const messages = this.messages;
    if (messages.length === 0 || this.paused) return;
    this.messages = [];
    this.writeOut(messages.length === 1 ? messages[0] : this.batch(messages));
  }

  // resume writes what was held while the stream's buffer was full.
  resume(): void {
    this.paused = false;
    this.flush();
  }

  private writeOut(message: T): void {
    if (!this.write(message)) this.paused = true;
  }
}

export class UnaryCalls implements Transport {
  constructor(
    private readonly client: storagev1.ObjectStoreClient,
    private readonly limits: CallLimits,
  ) {}

  send(request: storagev1.ExchangeRequest): Promise<storagev1.ExchangeResponse> {
    const { observer } = this.limits;
    observer.pending(1);
    const settled = () => observer.pending(-1);
    const answer = this.answer(request);
    answer.then(settled, settled);
    return answer;
  }

  private answer(request: storagev1.ExchangeRequest): Promise<storagev1.ExchangeResponse> {
    const { id, get, create, update, delete: del, currentRevision, compact } = request;
    const metadata = metadataOf(request.traceContext);
    const options = deadlineOf(this.limits);
    const client = this.client;
    if (get) return call<storagev1.GetResponse>((done) => client.get(get, metadata, options, done)).then((r) => ({ id, batch: [], get: r }));
    if (create) return call<storagev1.CreateResponse>((done) => client.create(create, metadata, options, done)).then((r) => ({ id, batch: [], create: r }));
    if (update) return call<storagev1.UpdateResponse>((done) => client.update(update, metadata, options, done)).then((r) => ({ id, batch: [], update: r }));
    if (del) return call<storagev1.DeleteResponse>((done) => client.delete(del, metadata, options, done)).then((r) => ({ id, batch: [], delete: r }));
    if (currentRevision) {
      return call<storagev1.CurrentRevisionResponse>((done) => client.currentRevision(currentRevision, metadata, options, done)).then((r) => ({
        id,
        batch: [],
        currentRevision: r,
      }));
    }
    if (compact) return call<storagev1.CompactResponse>((done) => client.compact(compact, metadata, options, done)).then((r) => ({ id, batch: [], compact: r }));
    return Promise.reject(StorageError.invalidArgument('request without an operation'));
  }

  close(): void {
    // Each call ends by itself.
  }
}

// deadlineOf is the grpc call option that ends a unary call at its deadline. grpc-js keeps the
// time itself, on the wall clock.
export function deadlineOf(limits: CallLimits): CallOptions {
  return { deadline: new Date(Date.now() + limits.callTimeoutMs) };
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
