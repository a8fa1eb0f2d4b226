// HTTP framing over raw sockets, as Go's net/http server (kube-apiserver's) frames it: 1 MiB of
// request headers accepted, and requests that cannot be read answered in Go's words on a
// connection closed after: 400, 431, 501, a missing Host; CONNECT and methods Node's parser does
// not know reach the API like any other method.
import { adminToken, rawHttp, suiteServer } from './http';

const goError = (statusLine: string, body: string) => ({
  statusLine,
  body,
  contentType: 'text/plain; charset=utf-8',
  connection: 'close',
  closed: true,
});

describe('HTTP framing as Go frames it', () => {
  const server = suiteServer();
  const send = async (request: string | Buffer) => {
    const answer = await rawHttp(server.url, request);
    return { ...answer, contentType: answer.headers['content-type'], connection: answer.headers.connection };
  };

  it('accepts headers well past Node\'s 16 KiB default, up to Go\'s 1 MiB', async () => {
    const res = await send(`GET /healthz HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${adminToken}\r\nX-Pad: ${'a'.repeat(1000 * 1024)}\r\nConnection: close\r\n\r\n`);
    expect({ statusLine: res.statusLine, body: res.body }).toEqual({ statusLine: 'HTTP/1.1 200 OK', body: 'ok' });
  });

  it('accepts a long URL', async () => {
    const res = await send(`GET /api/v1/namespaces/default/pods?labelSelector=a%20notin%20(${'x,'.repeat(20000)}y) HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${adminToken}\r\nConnection: close\r\n\r\n`);
    expect(res.statusLine).toBe('HTTP/1.1 200 OK');
  });

  it('answers headers beyond 1 MiB 431', async () => {
    const res = await send(`GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Pad: ${'a'.repeat(1100 * 1024)}\r\n\r\n`);
    expect({ statusLine: res.statusLine, body: res.body, contentType: res.contentType, connection: res.connection, closed: res.closed }).toEqual(
      goError('HTTP/1.1 431 Request Header Fields Too Large', '431 Request Header Fields Too Large'),
    );
  });

  it('answers a Content-Length that is not a number 400', async () => {
    const res = await send('POST /api/v1/namespaces HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n{}');
    expect({ statusLine: res.statusLine, body: res.body, contentType: res.contentType, connection: res.connection, closed: res.closed }).toEqual(goError('HTTP/1.1 400 Bad Request', '400 Bad Request'));
  });

  it('answers two different Content-Lengths 400', async () => {
    const res = await send('POST /api/v1/namespaces HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}');
    expect({ statusLine: res.statusLine, body: res.body }).toEqual({ statusLine: 'HTTP/1.1 400 Bad Request', body: '400 Bad Request' });
  });

  it('answers a transfer coding other than chunked 501', async () => {
    const res = await send('POST /api/v1/namespaces HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip\r\n\r\n');
    expect({ statusLine: res.statusLine, body: res.body, contentType: res.contentType, connection: res.connection, closed: res.closed }).toEqual(
      goError('HTTP/1.1 501 Not Implemented', 'Unsupported transfer encoding'),
    );
  });

  it('answers an HTTP/1.1 request without Host 400 with Go\'s reason', async () => {
    const res = await send('GET /healthz HTTP/1.1\r\n\r\n');
    expect({ statusLine: res.statusLine, body: res.body, contentType: res.contentType, connection: res.connection, closed: res.closed }).toEqual(
      goError('HTTP/1.1 400 Bad Request: missing required Host header', '400 Bad Request: missing required Host header'),
    );
  });

  it('answers a malformed Host 400', async () => {
    const res = await send('GET /healthz HTTP/1.1\r\nHost: a b\r\n\r\n');
    expect({ statusLine: res.statusLine, body: res.body }).toEqual({ statusLine: 'HTTP/1.1 400 Bad Request: malformed Host header', body: '400 Bad Request: malformed Host header' });
  });

  it('answers a request line that is not HTTP 400', async () => {
    const res = await send('GET /healthz HTTP/1.1 extra\r\nHost: localhost\r\n\r\n');
    expect({ statusLine: res.statusLine, body: res.body, closed: res.closed }).toEqual({ statusLine: 'HTTP/1.1 400 Bad Request', body: '400 Bad Request', closed: true });
  });

  it('serves a method Node\'s parser does not know as kube-apiserver does: authenticated, authorized, then 405', async () => {
    const res = await send(`FROBNICATE /api/v1/namespaces HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${adminToken}\r\n\r\n`);
    expect(res.statusLine).toBe('HTTP/1.1 405 Method Not Allowed');
    expect(JSON.parse(res.body)).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed', code: 405 });
    expect(res.closed).toBe(true);
    const anonymous = await send('FROBNICATE /api/v1/namespaces HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(anonymous.statusLine).toBe('HTTP/1.1 403 Forbidden');
    expect(JSON.parse(anonymous.body).message).toBe('namespaces is forbidden: User "system:anonymous" cannot  resource "namespaces" in API group "" at the cluster scope');
    const badToken = await send('FROBNICATE /api/v1/namespaces HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer no-such-token\r\n\r\n');
    expect(badToken.statusLine).toBe('HTTP/1.1 401 Unauthorized');
    const alice = await send('FROBNICATE /api/v1/namespaces HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer alice-token\r\n\r\n');
    expect(alice.statusLine).toBe('HTTP/1.1 403 Forbidden');
    expect(JSON.parse(alice.body)).toMatchObject({ kind: 'Status', reason: 'Forbidden', message: 'namespaces is forbidden: User "alice" cannot  resource "namespaces" in API group "" at the cluster scope' });
    // Off the API paths: nothing serves /foo, and the health checks answer any method (as
    // kube-apiserver 1.28 answers both).
    const nonResource = await send(`FROBNICATE /foo HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${adminToken}\r\n\r\n`);
    expect({ statusLine: nonResource.statusLine, body: nonResource.body }).toEqual({ statusLine: 'HTTP/1.1 404 Not Found', body: '404 page not found\n' });
    const health = await send(`FROBNICATE /healthz HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${adminToken}\r\n\r\n`);
    expect({ statusLine: health.statusLine, body: health.body }).toEqual({ statusLine: 'HTTP/1.1 200 OK', body: 'ok' });
    // Headers read from the raw bytes are plain headers, __proto__ included.
    const prototype = await send(`FROBNICATE /api/v1/namespaces HTTP/1.1\r\nHost: localhost\r\n__proto__: x\r\nconstructor: y\r\nAuthorization: Bearer ${adminToken}\r\n\r\n`);
    expect(prototype.statusLine).toBe('HTTP/1.1 405 Method Not Allowed');
  });

  it('reads a target with bytes beyond ASCII as UTF-8, as Go does, where Node refuses it', async () => {
    const request = (token: string) => Buffer.concat([Buffer.from('GET /api/v1/namespaces/'), Buffer.from('ф', 'utf8'), Buffer.from(` HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n\r\n`)]);
    const res = await send(request(adminToken));
    expect(res.statusLine).toBe('HTTP/1.1 404 Not Found');
    expect(JSON.parse(res.body)).toMatchObject({ kind: 'Status', reason: 'NotFound', message: 'namespaces "ф" not found' });
    expect((await send(request('no-such-token'))).statusLine).toBe('HTTP/1.1 401 Unauthorized');
    const withBody = await send(Buffer.concat([Buffer.from('POST /api/v1/namespaces/'), Buffer.from('ф', 'utf8'), Buffer.from(' HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\n{}')]));
    expect({ statusLine: withBody.statusLine, body: withBody.body }).toEqual({ statusLine: 'HTTP/1.1 400 Bad Request', body: '400 Bad Request' });
  });

  it('serves CONNECT through the API: authentication first, then no route', async () => {
    const anonymous = await send('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(anonymous.statusLine).toBe('HTTP/1.1 403 Forbidden');
    expect(JSON.parse(anonymous.body)).toMatchObject({ kind: 'Status', reason: 'Forbidden', message: 'forbidden: User "system:anonymous" cannot connect path ""', code: 403 });
    expect(anonymous.closed).toBe(true);
    const badToken = await send('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\nAuthorization: Bearer no-such-token\r\n\r\n');
    expect(JSON.parse(badToken.body)).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    const admin = await send(`CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\nAuthorization: Bearer ${adminToken}\r\n\r\n`);
    expect({ statusLine: admin.statusLine, closed: admin.closed }).toEqual({ statusLine: 'HTTP/1.1 404 Not Found', closed: true });
    const resource = await send(`CONNECT /api/v1/namespaces HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${adminToken}\r\n\r\n`);
    expect(resource.statusLine).toBe('HTTP/1.1 405 Method Not Allowed');
  });

  it('still serves after all of these', async () => {
    const res = await send(`GET /api/v1/namespaces/default HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${adminToken}\r\nConnection: close\r\n\r\n`);
    expect(res.statusLine).toBe('HTTP/1.1 200 OK');
  });
});
