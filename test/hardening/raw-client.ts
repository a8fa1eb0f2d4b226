// sendRaw writes a request exactly as given, over its own TLS connection, and reads the answer
// until the server ends the connection (the request says Connection: close) or the client's
// timeout passes: paths are sent as written, any method and header bytes included, which
// node:https's client would refuse or normalise.
import { OutgoingHttpHeaders } from 'node:http';
import { ClientHttp2Stream, connect as http2Connect } from 'node:http2';
import { Agent, request as httpsRequest } from 'node:https';
import { connect } from 'node:tls';

export interface RawAnswer {
  // status is 0 when the server closed the connection without an answer.
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  // h2 marks an answer read over HTTP/2.
  h2?: boolean;
}

export interface RawTarget {
  port: number;
  ca: string;
}

export interface ClientCertificate {
  certPem: string;
  keyPem: string;
}

export class ClientTimeout extends Error {}

export function sendRaw(target: RawTarget, bytes: Buffer, options: { clientCert?: ClientCertificate; timeoutMs: number; head?: boolean }): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: target.port, ca: target.ca, ...(options.clientCert ? { cert: options.clientCert.certPem, key: options.clientCert.keyPem } : {}) });
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (err?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve(parseAnswer(Buffer.concat(chunks), options.head ?? false));
    };
    const timer = setTimeout(() => finish(new ClientTimeout(`no complete answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    socket.once('secureConnect', () => socket.write(bytes));
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      if (complete(Buffer.concat(chunks), options.head ?? false)) finish();
    });
    // A reset after (part of) an answer still ends the answer.
    socket.on('error', (err) => (chunks.length ? finish() : finish(err)));
    socket.on('end', () => finish());
    socket.on('close', () => finish());
  });
}

const headerEnd = Buffer.from('\r\n\r\n');

// finalAnswer skips interim (1xx) answers, as to Expect: 100-continue, but not 101.
function finalAnswer(data: Buffer): Buffer {
  let at = 0;
  for (;;) {
    const status = data.subarray(at + 9, at + 12).toString('latin1');
    const end = data.indexOf(headerEnd, at);
    if (end < 0 || !/^1\d\d$/.test(status) || status === '101') return data.subarray(at);
    at = end + 4;
  }
}

// complete tells whether the bytes hold a whole answer, so the client need not wait for the
// server to close a connection it keeps open despite Connection: close.
function complete(answer: Buffer, head: boolean): boolean {
  const data = finalAnswer(answer);
  const end = data.indexOf(headerEnd);
  if (end < 0) return false;
  const text = data.subarray(0, end).toString('latin1');
  const status = Number(text.slice(9, 12));
  if (head || status === 204 || status === 304 || status === 101) return true;
  const length = /\r\ncontent-length: *(\d+)/i.exec(text);
  if (length) return data.length >= end + 4 + Number(length[1]);
  if (/\r\ntransfer-encoding: *chunked/i.test(text)) return data.subarray(-5).toString('latin1') === '0\r\n\r\n';
  return false;
}

export function parseAnswer(answer: Buffer, head: boolean): RawAnswer {
  const data = finalAnswer(answer);
  const end = data.indexOf(headerEnd);
  if (end < 0 || !data.subarray(0, 5).equals(Buffer.from('HTTP/'))) return { status: 0, headers: {}, body: data };
  const lines = data.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(lines[0].slice(9, 12));
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = head ? Buffer.alloc(0) : data.subarray(end + 4);
  if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  return { status, headers, body };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

// requestBytes writes an HTTP/1.1 request: the path as given, the headers in order (values as
// UTF-8 bytes), Content-Length from the body, Connection: close.
export function requestBytes(method: string, path: string, headers: [string, string][], body?: Buffer): Buffer {
  let head = `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n`;
  for (const [name, value] of headers) head += `${name}: ${value}\r\n`;
  if (body !== undefined) head += `Content-Length: ${body.length}\r\n`;
  head += 'Connection: close\r\n\r\n';
  return body === undefined ? Buffer.from(head, 'utf8') : Buffer.concat([Buffer.from(head, 'utf8'), body]);
}

// KeepAliveClient sends the suite's own well-formed requests (fixtures, snapshots) over one
// kept-alive TLS connection, so that they do not pay a handshake each as the hostile ones do.
export class KeepAliveClient {
  private readonly agent: Agent;

  constructor(private readonly target: RawTarget) {
    this.agent = new Agent({ keepAlive: true, maxSockets: 1, ca: target.ca });
  }

  request(method: string, path: string, headers: Record<string, string>, body: Buffer | undefined, timeoutMs: number): Promise<RawAnswer> {
    return new Promise((resolve, reject) => {
      const req = httpsRequest(
        { host: '127.0.0.1', port: this.target.port, method, path, agent: this.agent, headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) }, timeout: timeoutMs },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const flat: Record<string, string> = {};
            for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
            resolve({ status: res.statusCode ?? 0, headers: flat, body: Buffer.concat(chunks) });
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new ClientTimeout(`no complete answer within ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

// H2Unsendable is a request node:http2's client will not put on the wire (a connection-specific
// header, a header name or value HTTP/2 forbids): the runner sends it over HTTP/1.1 instead.
export class H2Unsendable extends Error {}

export interface H2Request {
  method: string;
  path: string;
  headers: [string, string][];
  body?: Buffer;
}

// sendH2 sends one request as the only stream of its own HTTP/2 session (TLS, ALPN h2), the
// path as written, repeated headers as repeated fields, and reads the answer to its end. A
// stream the server resets, or a session it ends (GOAWAY), before any answer comes back as
// status 0 with what happened in the body.
export function sendH2(target: RawTarget, request: H2Request, options: { clientCert?: ClientCertificate; timeoutMs: number }): Promise<RawAnswer> {
  const headers: OutgoingHttpHeaders = { ':method': request.method, ':path': request.path, ':scheme': 'https', ':authority': '127.0.0.1' };
  for (const [rawName, value] of request.headers) {
    const name = rawName.toLowerCase();
    const existing = headers[name];
    headers[name] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [String(existing)]), value];
  }
  return new Promise((resolve, reject) => {
    const session = http2Connect(`https://127.0.0.1:${target.port}`, {
      ca: target.ca,
      servername: 'localhost',
      ...(options.clientCert ? { cert: options.clientCert.certPem, key: options.clientCert.keyPem } : {}),
    });
    let settled = false;
    const finish = (answer: RawAnswer | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      session.destroy();
      if (answer instanceof Error) reject(answer);
      else resolve({ ...answer, h2: true });
    };
    const timer = setTimeout(() => finish(new ClientTimeout(`no complete answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    session.on('error', (err) => finish(err));
    // A GOAWAY that covers the stream still lets it finish: its close decides.
    let goAway = '';
    session.on('goaway', (code) => (goAway = ` after GOAWAY ${code}`));
    let stream: ClientHttp2Stream;
    try {
      stream = session.request(headers, { endStream: request.body === undefined });
    } catch (err) {
      finish(new H2Unsendable((err as Error).message));
      return;
    }
    let answered: Record<string, string> | null = null;
    let status = 0;
    const chunks: Buffer[] = [];
    stream.on('response', (received) => {
      status = Number(received[':status']);
      answered = {};
      for (const [k, v] of Object.entries(received)) if (!k.startsWith(':') && v !== undefined) answered[k] = Array.isArray(v) ? v.join(', ') : String(v);
    });
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => finish({ status, headers: answered ?? {}, body: Buffer.concat(chunks) }));
    stream.on('error', (err) => (err.message.includes('ERR_HTTP2_INVALID') ? finish(new H2Unsendable(err.message)) : undefined));
    stream.on('close', () => {
      if (answered === null) finish({ status: 0, headers: {}, body: Buffer.from(`RST_STREAM ${stream.rstCode}${goAway}`) });
      else finish({ status, headers: answered, body: Buffer.concat(chunks) });
    });
    if (request.body !== undefined) stream.end(request.body);
  });
}
