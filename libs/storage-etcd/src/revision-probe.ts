// RevisionProbe reads etcd's current revision with the cheapest linearizable request there is:
// a count_only Range of one key (etcd answers it through ReadIndex, and only its header is
// read), encoded once and sent as bytes on a grpc-js channel of its own per endpoint. Through
// etcd3 the same request costs some twice the CPU: its connection pool, fault policies, call
// options and protobufjs's object conversion for a field of the header. A consistent read of
// every gateway waits on one such request (CurrentRevisionReader), so it is on the GET path.
import { Client, ChannelCredentials, ServiceError } from '@grpc/grpc-js';

// countOnlyRange is RangeRequest{key: "\0", count_only: true}: field 1 (key, bytes), field 9
// (count_only, varint).
const countOnlyRange = Buffer.from([0x0a, 0x01, 0x00, 0x48, 0x01]);
const rangeMethod = '/etcdserverpb.KV/Range';
const asBytes = (bytes: Buffer): Buffer => bytes;

export class RevisionProbe {
  private readonly clients: Client[];
  private next = 0;

  constructor(
    hosts: string[],
    credentials: ChannelCredentials,
    channelOptions: Record<string, number>,
    private readonly timeoutMs: number,
  ) {
    this.clients = hosts.map((host) => new Client(host, credentials, channelOptions));
  }

  // read asks the endpoints in turn, one per call: a caller that retries after Unreachable
  // reaches the next one. The answer has the shape of etcd3's response header (a revision as a
  // decimal string), so the store's span and retries treat it as any other read.
  read(): Promise<{ header: { revision: string } }> {
    const client = this.clients[this.next];
    this.next = (this.next + 1) % this.clients.length;
    return new Promise((resolve, reject) => {
      client.makeUnaryRequest(rangeMethod, asBytes, asBytes, countOnlyRange, { deadline: Date.now() + this.timeoutMs }, (err: ServiceError | null, response?: Buffer) => {
        if (err) reject(err);
        else resolve({ header: { revision: String(responseRevision(response ?? Buffer.alloc(0))) } });
      });
    });
  }

  close(): void {
    for (const client of this.clients) client.close();
  }
}

// responseRevision reads header.revision (RangeResponse field 1, ResponseHeader field 3) from
// an encoded RangeResponse; 0 when it holds none (proto3 leaves a zero out).
export function responseRevision(message: Uint8Array): number {
  const header = field(message, 1);
  if (!(header instanceof Uint8Array)) return 0;
  const revision = field(header, 3);
  return typeof revision === 'number' ? revision : 0;
}

// field finds the first occurrence of a field in a protobuf message: a varint's value or a
// length-delimited field's bytes. Fixed-width fields are stepped over.
function field(message: Uint8Array, number: number): number | Uint8Array | undefined {
  let at = 0;
  while (at < message.length) {
    const [tag, afterTag] = varint(message, at);
    const wireType = tag % 8;
    at = afterTag;
    if (wireType === 0) {
      const [value, after] = varint(message, at);
      if (Math.floor(tag / 8) === number) return value;
      at = after;
    } else if (wireType === 2) {
      const [length, after] = varint(message, at);
      if (after + length > message.length) throw new Error('truncated etcd response');
      if (Math.floor(tag / 8) === number) return message.subarray(after, after + length);
      at = after + length;
    } else if (wireType === 1) {
      at += 8;
    } else if (wireType === 5) {
      at += 4;
    } else {
      throw new Error(`unexpected protobuf wire type ${wireType} in an etcd response`);
    }
  }
  return undefined;
}

function varint(bytes: Uint8Array, start: number): [number, number] {
  let value = 0;
  let scale = 1;
  for (let at = start; at < bytes.length && at < start + 10; at++) {
    const byte = bytes[at];
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return [value, at + 1];
    scale *= 128;
  }
  throw new Error('truncated varint in an etcd response');
}
