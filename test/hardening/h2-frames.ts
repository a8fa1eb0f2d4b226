// A raw HTTP/2 connection for the abuse cases that node:http2's client will not commit (streams
// past the server's limit, floods of control frames): frames written as bytes over TLS with
// ALPN h2, header blocks as HPACK literals (no table, no Huffman), and the server's frames read
// back as they come.
import { connect, TLSSocket } from 'node:tls';

export const frameType = { data: 0x0, headers: 0x1, rstStream: 0x3, settings: 0x4, ping: 0x6, goAway: 0x7, windowUpdate: 0x8 } as const;
export const frameFlag = { ack: 0x1, endStream: 0x1, endHeaders: 0x4 } as const;
// refusedStream is RST_STREAM's REFUSED_STREAM, enhanceYourCalm GOAWAY's ENHANCE_YOUR_CALM.
export const errorCode = { protocolError: 0x1, refusedStream: 0x7, enhanceYourCalm: 0xb } as const;

const preface = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');

export interface Frame {
  type: number;
  flags: number;
  streamId: number;
  payload: Buffer;
}

export function frame(type: number, flags: number, streamId: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(streamId & 0x7fffffff, 5);
  return Buffer.concat([head, payload]);
}

// hpackInteger is RFC 7541 5.1's integer with an N-bit prefix (the prefix's other bits 0).
function hpackInteger(value: number, prefixBits: number): Buffer {
  const max = (1 << prefixBits) - 1;
  if (value < max) return Buffer.from([value]);
  const bytes = [max];
  let rest = value - max;
  while (rest >= 128) {
    bytes.push((rest % 128) + 128);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

// headerBlock encodes fields as literals without indexing, new names (RFC 7541 6.2.2).
export function headerBlock(fields: [string, string][]): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of fields) {
    const n = Buffer.from(name, 'latin1');
    const v = Buffer.from(value, 'latin1');
    parts.push(Buffer.from([0x00]), hpackInteger(n.length, 7), n, hpackInteger(v.length, 7), v);
  }
  return Buffer.concat(parts);
}

// RawH2 is one TLS connection that has sent the client preface and an empty SETTINGS.
export interface RawH2 {
  socket: TLSSocket;
  frames: Frame[];
  // ended is set when the server closed the connection.
  ended: boolean;
  // until resolves once the frames read so far satisfy the condition, or the connection ended.
  until(condition: (frames: Frame[]) => boolean): Promise<void>;
  write(bytes: Buffer): void;
  close(): void;
}

export async function openRawH2(target: { port: number; ca: string }): Promise<RawH2> {
  const socket = connect({ host: '127.0.0.1', port: target.port, ca: target.ca, ALPNProtocols: ['h2'], servername: 'localhost' });
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once('secureConnect', () => resolve());
    socket.once('error', reject);
  });
  if (socket.alpnProtocol !== 'h2') throw new Error(`the server chose ${String(socket.alpnProtocol)}, not h2`);
  let buffered = Buffer.alloc(0);
  let waiters: (() => void)[] = [];
  const notify = () => {
    for (const waiter of waiters) waiter();
  };
  const raw: RawH2 = {
    socket,
    frames: [],
    ended: false,
    until(condition) {
      return new Promise((resolve) => {
        const check = () => {
          if (!condition(raw.frames) && !raw.ended) return;
          waiters = waiters.filter((w) => w !== check);
          resolve();
        };
        waiters.push(check);
        check();
      });
    },
    write: (bytes) => void socket.write(bytes),
    close: () => socket.destroy(),
  };
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    while (buffered.length >= 9) {
      const length = buffered.readUIntBE(0, 3);
      if (buffered.length < 9 + length) break;
      raw.frames.push({ type: buffered[3], flags: buffered[4], streamId: buffered.readUInt32BE(5) & 0x7fffffff, payload: buffered.subarray(9, 9 + length) });
      buffered = buffered.subarray(9 + length);
    }
    notify();
  });
  const end = () => {
    raw.ended = true;
    notify();
  };
  socket.once('end', end);
  socket.once('close', end);
  socket.write(Buffer.concat([preface, frame(frameType.settings, 0, 0)]));
  return raw;
}

// goAwayCode is the error code of the server's GOAWAY, if it sent one.
export function goAwayCode(frames: Frame[]): number | undefined {
  const goAway = frames.find((f) => f.type === frameType.goAway);
  return goAway === undefined ? undefined : goAway.payload.readUInt32BE(4);
}

// resetCodes are the error codes of the server's RST_STREAM frames.
export function resetCodes(frames: Frame[]): number[] {
  return frames.filter((f) => f.type === frameType.rstStream).map((f) => f.payload.readUInt32BE(0));
}
