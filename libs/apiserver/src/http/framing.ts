// HTTP framing as Go's net/http server (and so kube-apiserver) handles it: up to 1 MiB of request
// headers (kube-apiserver's MaxHeaderBytes, plus the 4 KiB Go reads beyond it), and a request it
// cannot read answered in plain text on a connection then closed: `400 Bad Request` (with the
// reason for the checks Go names), `431 Request Header Fields Too Large`, `501 Not Implemented`
// for a transfer coding other than chunked. A connection that fails to read (reset, timeout) gets
// no answer.
import { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { methodNotAllowed } from '@plinth/machinery';

// maxHeaderBytes is what Node's maxHeaderSize counts (request line and headers): Go's
// MaxHeaderBytes of 1 MiB that kube-apiserver sets, and the 4,096 bytes of slack Go reads
// beyond it before answering 431.
export const maxHeaderBytes = (1 << 20) + 4096;

// httpServerOptions are the options of the node:http(s) server that carries the API.
// requireHostHeader is off because the server answers a missing Host as Go does (checkFraming).
export const httpServerOptions = { maxHeaderSize: maxHeaderBytes, requireHostHeader: false } as const;

const errorHeaders = '\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n';

// goFramingAnswer is the response Go's server writes for a request it cannot read, by Node's
// parser error code and the bytes it read; null where Go answers nothing (the connection failed,
// or timed out). Node's parser knows a fixed set of methods; Go takes any token as a method and
// kube-apiserver then finds no route that takes it (405): the answer when the request cannot be
// read from the bytes Node had received (answerClientErrors serves it otherwise).
export function goFramingAnswer(code: string | undefined, rawPacket?: Buffer): string | null {
  switch (code) {
    case 'HPE_INVALID_METHOD':
      return rawPacket && requestLineWithTokenMethod.test(rawPacket.subarray(0, 8192).toString('latin1')) ? methodNotAllowedAnswer : badRequestAnswer;
    case 'HPE_HEADER_OVERFLOW':
      return `HTTP/1.1 431 Request Header Fields Too Large${errorHeaders}431 Request Header Fields Too Large`;
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return `HTTP/1.1 501 Not Implemented${errorHeaders}Unsupported transfer encoding`;
    default:
      return code?.startsWith('HPE_') ? badRequestAnswer : null;
  }
}

const badRequestAnswer = `HTTP/1.1 400 Bad Request${errorHeaders}400 Bad Request`;

// requestLineWithTokenMethod is a request line whose method is an HTTP token (Go's validMethod).
const requestLineWithTokenMethod = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+ [^ \r\n]+ HTTP\/\d\.\d\r?\n/;

const methodNotAllowedBody = `${JSON.stringify(methodNotAllowed().errStatus)}\n`;
const methodNotAllowedAnswer = [
  'HTTP/1.1 405 Method Not Allowed',
  'Cache-Control: no-cache, private',
  'Content-Type: application/json',
  `Content-Length: ${methodNotAllowedBody.length}`,
  'Connection: close',
  '',
  methodNotAllowedBody,
].join('\r\n');

// serveHttpAsGo sets up a node:http(s) server carrying the API to frame requests as Go's server
// does: Go's answers to requests Node's parser refuses, and the requests Node's parser does not
// hand over as requests (CONNECT, which it gives as a bare socket and closes when nobody
// listens; a method it does not know, which Go takes as any other token) served by the API
// handler like any other method, on a connection closed after the answer.
export function serveHttpAsGo(server: HttpServer, handle: (req: IncomingMessage, res: ServerResponse) => void): void {
  answerClientErrors(server, handle);
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    socket.on('error', () => socket.destroy());
    serveOnSocket(req, socket, handle);
  });
}

// serveOnSocket answers one request on a socket Node's server no longer manages, then closes it
// as Go does: half-closed, and gone once the client is done or quiet for rstAvoidanceMs.
function serveOnSocket(req: IncomingMessage, socket: Socket, handle: (req: IncomingMessage, res: ServerResponse) => void): void {
  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket);
  res.on('finish', () => {
    res.detachSocket(socket);
    socket.setTimeout(rstAvoidanceMs, () => socket.destroy());
    socket.end();
  });
  handle(req, res);
}

// answerClientErrors replaces Node's answers to requests its parser refuses with Go's. Like Go
// (closeWriteAndWait), it half-closes after the answer and reads on, discarding, until the
// client is done or quiet for rstAvoidanceMs, so that a client still sending (a header block
// past the limit) reads the answer rather than a reset. A request whose only fault is a method
// Node's parser does not know is read from the bytes received and served.
function answerClientErrors(server: HttpServer, handle: (req: IncomingMessage, res: ServerResponse) => void): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    try {
      answerClientError(err, socket, handle);
    } catch {
      // An event handler must not throw: the connection goes, the process stays.
      socket.destroy();
    }
  });
}

// answerClientError answers one request Node's parser refused, once per connection.
function answerClientError(err: NodeJS.ErrnoException, socket: Socket, handle: (req: IncomingMessage, res: ServerResponse) => void): void {
  if (answered.has(socket)) return;
  const rawPacket = (err as { rawPacket?: Buffer }).rawPacket;
  const response = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  const head = rawPacket ? servableHead(err.code, rawPacket) : null;
  const answer = goFramingAnswer(err.code, rawPacket);
  if ((head === null && answer === null) || !socket.writable || response?.headersSent) {
    socket.destroy();
    return;
  }
  answered.add(socket);
  // The parser has failed: what else arrives is not parsed again, only drained.
  socket.removeAllListeners('data');
  socket.on('data', discard);
  socket.on('error', () => socket.destroy());
  socket.once('end', () => socket.destroy());
  if (head !== null) {
    serveOnSocket(requestOf(socket, head), socket, handle);
    return;
  }
  socket.setTimeout(rstAvoidanceMs, () => socket.destroy());
  if (answer !== null) socket.end(answer);
}

// servableHead is the head of a request Node's parser refused that Go's server would take: a
// method Node does not know, or (without a body) a target with bytes beyond ASCII, which Go
// reads as UTF-8 and Node refuses.
function servableHead(code: string | undefined, rawPacket: Buffer): RequestHead | null {
  if (code !== 'HPE_INVALID_METHOD' && code !== 'HPE_INVALID_URL') return null;
  const head = readRequestHead(rawPacket);
  if (head === null || code === 'HPE_INVALID_METHOD') return head;
  const bodyless = !head.rawHeaders.some((value, i) => i % 2 === 0 && (/^transfer-encoding$/i.test(value) || (/^content-length$/i.test(value) && head.rawHeaders[i + 1] !== '0')));
  return bodyless && !hasControlOrSpace(head.url) ? head : null;
}

function hasControlOrSpace(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20 || c === 0x7f) return true;
  }
  return false;
}

// RequestHead is a request line and header block read from raw bytes.
interface RequestHead {
  method: string;
  url: string;
  minorVersion: number;
  rawHeaders: string[];
}

const tokenPattern = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const requestLinePattern = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+) ([^ ]+) HTTP\/1\.(\d)$/;

// readRequestHead reads the head of an HTTP/1.x request whose header block is complete in the
// bytes given; null for anything else (Node's answer of 400 then stands).
function readRequestHead(raw: Buffer): RequestHead | null {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [line, ...fields] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const match = requestLinePattern.exec(line);
  if (!match) return null;
  const rawHeaders: string[] = [];
  for (const field of fields) {
    const colon = field.indexOf(':');
    if (colon <= 0 || !tokenPattern.test(field.slice(0, colon))) return null;
    rawHeaders.push(field.slice(0, colon), field.slice(colon + 1).trim());
  }
  return { method: match[1], url: match[2], minorVersion: Number(match[3]), rawHeaders };
}

// requestOf is the IncomingMessage Node's parser would have made of a head, without a body.
function requestOf(socket: Socket, head: RequestHead): IncomingMessage {
  const req = new IncomingMessage(socket);
  req.method = head.method;
  req.url = head.url;
  req.httpVersionMajor = 1;
  req.httpVersionMinor = head.minorVersion;
  req.httpVersion = `1.${head.minorVersion}`;
  req.rawHeaders = head.rawHeaders;
  const distinct = distinctHeaders(head.rawHeaders);
  req.headersDistinct = distinct;
  req.headers = Object.fromEntries(Object.entries(distinct).map(([name, values]) => [name, values.join(', ')]));
  req.complete = true;
  req.push(null);
  return req;
}

// distinctHeaders is node:http's headersDistinct of a request's raw header list: every value of
// a repeated header kept apart, under its lower-cased name. Without a prototype, so that a header
// named __proto__ is a header like any other.
export function distinctHeaders(rawHeaders: readonly string[]): Record<string, string[]> {
  const distinct = Object.create(null) as Record<string, string[]>;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    (distinct[name] ??= []).push(rawHeaders[i + 1]);
  }
  return distinct;
}

// rstAvoidanceMs is Go's rstAvoidanceDelay.
const rstAvoidanceMs = 500;

const answered = new WeakSet<Socket>();

function discard(): void {
  // The bytes of a request already answered.
}

// FramingProblem is a request Node's parser let through that Go's server refuses before any
// handler runs: the status line's reason and the body say why.
export interface FramingProblem {
  code: number;
  reason: string;
}

// checkFraming applies the checks Go's server makes once a request is read: HTTP/1.1 needs one
// Host header (CONNECT excepted), and a Host must be made of host characters.
export function checkFraming(method: string, httpVersion: string, rawHeaders: readonly string[]): FramingProblem | null {
  const hosts: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i].length === 4 && rawHeaders[i].toLowerCase() === 'host') hosts.push(rawHeaders[i + 1]);
  }
  if (httpVersion === '1.1' && hosts.length === 0 && method !== 'CONNECT') return { code: 400, reason: 'Bad Request: missing required Host header' };
  if (hosts.length > 1) return { code: 400, reason: 'Bad Request: too many Host headers' };
  if (hosts.length === 1 && !validHostHeader(hosts[0])) return { code: 400, reason: 'Bad Request: malformed Host header' };
  return null;
}

// validHostHeader is httpguts.ValidHostHeader: the bytes a Host may carry (an IP literal's
// brackets and a zone's percent included) and any byte beyond ASCII.
const hostCharacters = /^[0-9A-Za-z!$%&'()*+,\-.:;=[\]_~\u0080-\u00ff]*$/;
function validHostHeader(host: string): boolean {
  return hostCharacters.test(host);
}

// writeFramingError answers a request Go's server would refuse as it does: the reason in the
// status line and as the body, and the connection closed after (HTTP/2 has neither a reason
// phrase nor a Connection header: the body alone says it there).
export function writeFramingError(res: ServerResponse, code: number, reason: string): void {
  const body = `${code} ${reason}`;
  const headers = { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body) };
  if (res.req.httpVersionMajor >= 2) res.writeHead(code, headers);
  else res.writeHead(code, reason, { ...headers, Connection: 'close' });
  res.end(body);
}
