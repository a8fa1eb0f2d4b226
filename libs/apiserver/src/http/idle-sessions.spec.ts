// Idle connections on the TLS listener close as kube-apiserver's (IdleTimeout): an HTTP/2
// session without an open stream gets a GOAWAY once the idle timeout passes on the server's
// clock, a session holding a quiet stream (a watch) is kept however long, and an HTTP/1.1
// keep-alive connection waiting for its next request is closed.
import { IncomingMessage, ServerResponse } from 'node:http';
import { ClientHttp2Session, connect, constants } from 'node:http2';
import { Agent, request } from 'node:https';
import { AddressInfo, Socket } from 'node:net';
import { issueCertificate, newCertificateAuthority } from '@plinth/pki';
import { eventually, FakeClock } from '@plinth/testing';
import { http2Server, HttpsListener } from '../https';

const ca = newCertificateAuthority('idle-test-ca');
const serving = issueCertificate(ca, { commonName: 'localhost', usage: 'server', dns: ['localhost'], ips: ['127.0.0.1'] });
const idleTimeoutMs = 90_000;

// held are the responses of /hold requests, kept open (as a quiet watch) until the test ends them.
const held: ServerResponse[] = [];

function handle(req: IncomingMessage, res: ServerResponse): void {
  if (req.url === '/hold') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('open\n');
    held.push(res);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('ok');
}

async function listen(idle: { idleTimeoutMs: number; clock: FakeClock }): Promise<{ server: HttpsListener; url: string }> {
  const server = http2Server(handle, { cert: serving.cert, key: serving.key, ca: ca.cert, requestCert: true, rejectUnauthorized: false }, idle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `https://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function h2Connect(url: string): Promise<ClientHttp2Session> {
  const session = connect(url, { ca: ca.cert, servername: 'localhost' });
  await new Promise<void>((resolve, reject) => {
    session.once('connect', () => resolve());
    session.once('error', reject);
  });
  return session;
}

// h2Get answers the status and body of a GET on the session.
function h2Get(session: ClientHttp2Session, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':path': path });
    let status = 0;
    let body = '';
    stream.setEncoding('utf8');
    stream.on('response', (headers) => (status = Number(headers[':status'])));
    stream.on('data', (chunk: string) => (body += chunk));
    stream.on('end', () => resolve({ status, body }));
    stream.on('error', reject);
  });
}

// goaway resolves with the error code of the GOAWAY the server sends on the session.
function goaway(session: ClientHttp2Session): Promise<number> {
  return new Promise((resolve) => session.once('goaway', (code: number) => resolve(code)));
}

describe('idle connections on the TLS listener', () => {
  let clock: FakeClock;
  let server: HttpsListener;
  let url: string;
  const sessions: ClientHttp2Session[] = [];

  beforeEach(async () => {
    clock = new FakeClock();
    ({ server, url } = await listen({ idleTimeoutMs, clock }));
  });
  afterEach(async () => {
    for (const res of held.splice(0)) res.end();
    for (const session of sessions.splice(0)) session.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends a GOAWAY (NO_ERROR) to an HTTP/2 session that had no open stream for the idle timeout', async () => {
    const session = await h2Connect(url);
    sessions.push(session);
    const closed = goaway(session);
    await expect(h2Get(session, '/')).resolves.toEqual({ status: 200, body: 'ok' });
    // Once the stream has closed on the server, the session waits idle on the clock.
    await eventually(() => clock.pendingTimers === 1);
    clock.advance(idleTimeoutMs - 1);
    expect(clock.pendingTimers).toBe(1);
    await expect(h2Get(session, '/')).resolves.toEqual({ status: 200, body: 'ok' });
    await eventually(() => clock.pendingTimers === 1);
    clock.advance(idleTimeoutMs);
    expect(await closed).toBe(constants.NGHTTP2_NO_ERROR);
    await eventually(() => session.closed || session.destroyed);
  });

  it('keeps a session with an open stream (a quiet watch) however long, then closes it once idle after its last stream', async () => {
    const session = await h2Connect(url);
    sessions.push(session);
    const closed = goaway(session);
    const watch = session.request({ ':path': '/hold' });
    watch.setEncoding('utf8');
    const watchEnded = new Promise<void>((resolve) => watch.on('end', resolve));
    await new Promise((resolve) => watch.once('data', resolve));
    watch.resume();
    clock.advance(10 * idleTimeoutMs);
    expect(clock.pendingTimers).toBe(0);
    await expect(h2Get(session, '/')).resolves.toEqual({ status: 200, body: 'ok' });
    expect(session.closed).toBe(false);
    held.splice(0).forEach((res) => res.end());
    await watchEnded;
    await eventually(() => clock.pendingTimers === 1);
    clock.advance(idleTimeoutMs);
    expect(await closed).toBe(constants.NGHTTP2_NO_ERROR);
  });

  it('closes an HTTP/1.1 keep-alive connection that waits for its next request past the idle timeout', async () => {
    // node:http's keep-alive timer is the real one: a short timeout for this server.
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    ({ server, url } = await listen({ idleTimeoutMs: 100, clock }));
    const agent = new Agent({ keepAlive: true, ca: ca.cert, servername: 'localhost' });
    try {
      const answer = await new Promise<{ body: string; httpVersion: string; connection: string | undefined; socket: Socket }>((resolve, reject) => {
        const req = request(`${url}/`, { agent }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ body, httpVersion: res.httpVersion, connection: res.headers.connection, socket: req.socket as Socket }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(answer.body).toBe('ok');
      expect(answer.connection).not.toBe('close');
      expect(answer.httpVersion).toBe('1.1');
      // The agent keeps the connection for the next request; the server ends it.
      await new Promise<void>((resolve) => (answer.socket.destroyed ? resolve() : answer.socket.once('close', () => resolve())));
      expect(Object.keys(agent.freeSockets)).toHaveLength(0);
    } finally {
      agent.destroy();
    }
  });
});
