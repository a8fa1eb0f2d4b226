// AuthzNatsTransport is Nest's NATS transport as the authz service answers on it: on the
// connection it is given (the app opens it with connectNats: TLS, its own user, reconnecting
// for ever), every @MessagePattern is a subject under the prefix, subscribed in the queue group
// all replicas share, and the wire is authz's own contract (protocol.ts), which gateways
// speak: a request is its raw bytes, the reply is encodeReply's. It subscribes before it says
// it listens (a request sent after gets an answer), and its close stops taking requests and
// resolves once those received are answered. The connection stays open for its owner.
import { Msg, NatsConnection, Subscription } from 'nats';
import { ConsumerDeserializer, IncomingRequest, NatsContext, Serializer, ServerNats } from '@nestjs/microservices';
import { defaultSubjectPrefix, encodeReply, queueGroup } from '@plinth/authz-nats';

export interface AuthzNatsTransportOptions {
  // connect opens (or hands over) the connection to answer on.
  connect: () => Promise<NatsConnection>;
  // subjectPrefix roots the subjects (plinth.authz when absent).
  subjectPrefix?: string;
  // queue is the queue group (plinth-authz when absent).
  queue?: string;
  // onError hears about requests that could not be read or answered.
  onError?: (err: unknown) => void;
}

// ReplyPacket is what Nest hands the serializer for a request: the handler's result or error.
interface ReplyPacket {
  response?: unknown;
  err?: unknown;
  isDisposed?: boolean;
}

// rawRequests hands a handler the request's bytes; the reply subject makes it a request.
const rawRequests: ConsumerDeserializer = {
  deserialize: (value: Uint8Array, options?: { channel?: string; replyTo?: string }): IncomingRequest => ({ id: options?.replyTo ?? '', pattern: options?.channel ?? '', data: value }),
};

const replies: Serializer<ReplyPacket, { data: Uint8Array }> = {
  serialize: (packet) => ({ data: encodeReply(packet.err !== undefined ? { error: packet.err } : { result: packet.response }) }),
};

export class AuthzNatsTransport extends ServerNats {
  private connection: NatsConnection | undefined;
  private readonly answering = new Set<Msg>();
  private readonly drained = new Set<() => void>();
  private readonly ownSubscriptions: Subscription[] = [];
  private stopped: Promise<void> | undefined;

  constructor(private readonly link: AuthzNatsTransportOptions) {
    super({ serializer: replies, deserializer: rawRequests });
  }

  override async createNatsClient(): Promise<NatsConnection> {
    this.connection = await this.link.connect();
    return this.connection;
  }

  // The connection's owner follows its status (connectNats reports it as the nats link), so
  // the transport does not log it a second time.
  override handleStatusUpdates(): Promise<void> {
    return Promise.resolve();
  }

  override start(callback: (err?: unknown) => void): void {
    const nc = this.connection;
    if (!nc) return callback(new Error('AuthzNatsTransport started without a connection'));
    const prefix = this.link.subjectPrefix ?? defaultSubjectPrefix;
    const queue = this.link.queue ?? queueGroup;
    for (const pattern of this.getHandlers().keys()) {
      this.ownSubscriptions.push(
        nc.subscribe(`${prefix}.${pattern}`, {
          queue,
          callback: (err, msg) => (err ? this.link.onError?.(err) : this.answer(pattern, msg)),
        }),
      );
    }
    // flush returns once the server has the subscriptions.
    nc.flush().then(() => callback(), callback);
  }

  override getPublisher(msg: Msg, id: string, ctx: NatsContext): (packet: ReplyPacket) => void {
    const publish = super.getPublisher(msg, id, ctx);
    return (packet) => {
      try {
        if (!msg.reply) this.link.onError?.(new Error(`a request on ${msg.subject} came without a reply subject`));
        else publish(packet);
      } catch (err) {
        this.link.onError?.(err);
      } finally {
        // Nest marks the last packet of an answer disposed.
        if (packet.isDisposed) this.answered(msg);
      }
    };
  }

  // close stops taking requests and resolves once those received are answered; again and
  // again, as Nest calls it more than once on the way out.
  override close(): Promise<void> {
    this.stopped ??= this.stop();
    return this.stopped;
  }

  private answer(pattern: string, msg: Msg): void {
    this.answering.add(msg);
    this.handleMessage(pattern, msg).catch((err: unknown) => {
      this.link.onError?.(err);
      this.answered(msg);
    });
  }

  private answered(msg: Msg): void {
    if (!this.answering.delete(msg)) return;
    if (this.answering.size === 0) for (const done of this.drained) done();
  }

  private async stop(): Promise<void> {
    await Promise.all(this.ownSubscriptions.map((s) => (s.isClosed() ? undefined : s.drain())));
    if (this.answering.size === 0) return;
    await new Promise<void>((resolve) => this.drained.add(resolve));
  }
}
