// LeanHttpsPool is the benchmark's load generator: keep-alive HTTP/1.1 over TLS with one request
// at a time per connection, written and parsed by hand, as wrk or hey would. The load
// generator shares the machine's two cores with the processes it measures; node:https's client
// costs about 110 µs of CPU per request there, this one about 35 µs, which leaves the cores to
// the gateway. Responses need a Content-Length or chunked encoding (watch streams are read
// with node:https instead).
import { connect, ConnectionOptions, TLSSocket } from 'node:tls';

export interface LeanResponse {
  status: number;
  body: string;
}

interface Waiter {
  resolve(response: LeanResponse): void;
  reject(err: Error): void;
}

const headerEnd = Buffer.from('\r\n\r\n');

class LeanConnection {
  private readonly socket: TLSSocket;
  private readonly connected: Promise<void>;
  private buffer: Buffer = Buffer.alloc(0);
  private waiter: Waiter | null = null;
  broken: Error | null = null;

  constructor(host: string, port: number, tls: ConnectionOptions) {
    this.socket = connect({ host, port, ...tls });
    this.socket.setNoDelay(true);
    this.connected = new Promise((resolve, reject) => {
      this.socket.once('secureConnect', () => resolve());
      this.socket.once('error', reject);
    });
    this.socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.parse();
    });
    const fail = (err: Error) => {
      this.broken ??= err;
      const waiter = this.waiter;
      this.waiter = null;
      waiter?.reject(this.broken);
    };
    this.socket.on('error', fail);
    this.socket.on('close', () => fail(new Error('connection closed')));
  }

  async request(head: string, body: string): Promise<LeanResponse> {
    await this.connected;
    if (this.broken) throw this.broken;
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
      this.socket.write(head + body);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private parse(): void {
    const end = this.buffer.indexOf(headerEnd);
    if (end < 0) return;
    const head = this.buffer.subarray(0, end).toString('latin1');
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    let body: Buffer;
    let rest: Buffer;
    if (length) {
      const bodyEnd = end + 4 + Number(length[1]);
      if (this.buffer.length < bodyEnd) return;
      body = this.buffer.subarray(end + 4, bodyEnd);
      rest = this.buffer.subarray(bodyEnd);
    } else if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
      const chunked = dechunk(this.buffer, end + 4);
      if (!chunked) return;
      [body, rest] = chunked;
    } else {
      this.socket.destroy(new Error(`response without a length: ${head}`));
      return;
    }
    this.buffer = rest;
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.resolve({ status, body: body.toString() });
  }
}

// dechunk reads a complete chunked body starting at `start`, or answers null when more is to come.
function dechunk(buffer: Buffer, start: number): [Buffer, Buffer] | null {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const size = parseInt(buffer.subarray(at, lineEnd).toString('latin1'), 16);
    const dataEnd = lineEnd + 2 + size;
    if (buffer.length < dataEnd + 2) return null;
    if (size === 0) return [Buffer.concat(parts), buffer.subarray(dataEnd + 2)];
    parts.push(buffer.subarray(lineEnd + 2, dataEnd));
    at = dataEnd + 2;
  }
}

export class LeanHttpsPool {
  private readonly idle: LeanConnection[] = [];
  private readonly all = new Set<LeanConnection>();

  constructor(
    private readonly port: number,
    private readonly tls: ConnectionOptions,
    private readonly headers: Record<string, string> = {},
    private readonly host = '127.0.0.1',
  ) {}

  async call(method: string, path: string, body?: string, contentType = 'application/json'): Promise<LeanResponse> {
    const connection = this.take();
    let head = `${method} ${path} HTTP/1.1\r\nHost: ${this.host}:${this.port}\r\n`;
    for (const name in this.headers) head += `${name}: ${this.headers[name]}\r\n`;
    if (body !== undefined) head += `Content-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
    try {
      return await connection.request(`${head}\r\n`, body ?? '');
    } finally {
      if (connection.broken) {
        this.all.delete(connection);
        connection.close();
      } else {
        this.idle.push(connection);
      }
    }
  }

  close(): void {
    for (const connection of this.all) connection.close();
    this.all.clear();
    this.idle.length = 0;
  }

  // take reuses an idle connection the server has not closed meanwhile (its keep-alive timeout).
  private take(): LeanConnection {
    for (let connection = this.idle.pop(); connection; connection = this.idle.pop()) {
      if (!connection.broken) return connection;
      this.all.delete(connection);
    }
    const opened = new LeanConnection(this.host, this.port, this.tls);
    this.all.add(opened);
    return opened;
  }
}
