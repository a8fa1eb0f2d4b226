// HTTP/2 on the API server's TLS listener, as kube-apiserver offers it by ALPN: client-go and
// kubectl multiplex requests and watches on one connection. Requests, watches (many streams on
// one session, each getting every event), repeated headers (impersonation), the end of a watch
// whose stream the client cancels, and of one whose stream it stops reading (terminated as a
// slow watcher, the other streams of its connection unaffected), hostile sessions (thousands of
// streams reset as opened, a header list past the limit, garbage after the preface: each refused
// and the server still serving), over node:http2's client;
// HTTP/1.1 stays served.
import { ClientHttp2Session, ClientHttp2Stream, connect, constants, IncomingHttpHeaders } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import { connect as tlsConnect } from 'node:tls';
import { eventually } from '@plinth/testing';
import { adminToken, suiteServer } from './http';

const serviceAccounts = '/api/v1/namespaces/default/serviceaccounts';

interface H2Answer {
  headers: IncomingHttpHeaders;
  body: string;
}

function h2Request(session: ClientHttp2Session, method: string, path: string, headers: Record<string, string | string[]> = {}, body?: unknown): Promise<H2Answer> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':method': method, ':path': path, authorization: `Bearer ${adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers });
    let answer: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    stream.on('response', (received) => (answer = received));
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve({ headers: answer, body: Buffer.concat(chunks).toString('utf8') }));
    stream.on('error', reject);
    stream.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const goAwayFrame = 0x7;

// frameTypes reads the types of the HTTP/2 frames in bytes a server sent (9-byte headers: a
// 24-bit length, then the type).
function frameTypes(bytes: Buffer): number[] {
  const types: number[] = [];
  for (let at = 0; at + 9 <= bytes.length; at += 9 + bytes.readUIntBE(at, 3)) types.push(bytes[at + 3]);
  return types;
}

// H2Watch is a watch stream on a shared session, collecting its newline-delimited events.
interface H2Watch {
  stream: ClientHttp2Stream;
  headers: Promise<IncomingHttpHeaders>;
  events: { type: string; object: { metadata: { name: string } } }[];
}

function h2Watch(session: ClientHttp2Session, path: string): H2Watch {
  const stream = session.request({ ':path': path, authorization: `Bearer ${adminToken}` });
  const watch: H2Watch = { stream, headers: new Promise((resolve) => stream.once('response', resolve)), events: [] };
  let buffer = '';
  stream.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      watch.events.push(JSON.parse(buffer.slice(0, nl)));
      buffer = buffer.slice(nl + 1);
    }
  });
  stream.on('error', () => undefined);
  return watch;
}

describe('API server over HTTP/2', () => {
  const server = suiteServer({}, { https: true });
  let session: ClientHttp2Session;

  beforeAll(async () => {
    // client-go's flow-control windows: 4 MiB a stream, 1 GiB the connection, so that a stream
    // it stops reading holds up no other.
    session = connect(server.url, { ca: server.ca, settings: { initialWindowSize: 4 << 20 } });
    await new Promise<void>((resolve, reject) => {
      session.once('connect', () => resolve());
      session.once('error', reject);
    });
    session.setLocalWindowSize(1 << 30);
  });
  afterAll(() => session.destroy());

  const watchRequests = async (): Promise<number> => {
    const metrics = await h2Request(session, 'GET', '/metrics');
    return metrics.body
      .split('\n')
      .filter((line) => line.startsWith('apiserver_longrunning_requests{') && line.includes('verb="WATCH"') && line.includes('resource="serviceaccounts"'))
      .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
  };

  it('negotiates h2 by ALPN and answers a request on it', async () => {
    expect(session.alpnProtocol).toBe('h2');
    const res = await h2Request(session, 'GET', '/api/v1/namespaces/default');
    expect(res.headers[':status']).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(JSON.parse(res.body)).toMatchObject({ kind: 'Namespace', metadata: { name: 'default' } });
  });

  it('serves many watches on one connection, each getting every event', async () => {
    // The test server's own service-account controller watches them too.
    const before = await watchRequests();
    const listed = JSON.parse((await h2Request(session, 'GET', serviceAccounts)).body) as { metadata: { resourceVersion: string } };
    const watches = Array.from({ length: 20 }, () => h2Watch(session, `${serviceAccounts}?watch=1&resourceVersion=${listed.metadata.resourceVersion}`));
    for (const watch of watches) {
      const headers = await watch.headers;
      expect(headers[':status']).toBe(200);
      expect(headers['content-type']).toBe('application/json');
      expect(headers['transfer-encoding']).toBeUndefined();
    }
    for (const name of ['h2-a', 'h2-b']) {
      expect((await h2Request(session, 'POST', serviceAccounts, {}, { metadata: { name } })).headers[':status']).toBe(201);
    }
    await eventually(() => watches.every((watch) => watch.events.length === 2), { what: () => `two events on every watch (got ${watches.map((watch) => watch.events.length).join(' ')})`, timeoutMs: 10_000 });
    for (const watch of watches) expect(watch.events.map((event) => [event.type, event.object.metadata.name])).toEqual([['ADDED', 'h2-a'], ['ADDED', 'h2-b']]);
    expect(await watchRequests()).toBe(before + watches.length);

    // A stream the client cancels ends its watch on the server; the connection stays.
    for (const watch of watches) watch.stream.close(constants.NGHTTP2_CANCEL);
    await eventually(async () => (await watchRequests()) === before, { what: `${before} serviceaccounts watches open`, timeoutMs: 10_000 });
    expect((await h2Request(session, 'GET', `${serviceAccounts}/h2-a`)).headers[':status']).toBe(200);
  });

  it('ends the watch of a stream the client stops reading, counting it; a watch reading on the same connection gets every event', async () => {
    const terminated = async () => {
      const metrics = await h2Request(session, 'GET', '/metrics');
      const line = metrics.body.split('\n').find((l) => l.startsWith('apiserver_terminated_watchers_total{resource="serviceaccounts"}'));
      return line ? Number(line.split(' ').pop()) : 0;
    };
    const listed = JSON.parse((await h2Request(session, 'GET', serviceAccounts)).body) as { metadata: { resourceVersion: string } };
    const path = `${serviceAccounts}?watch=1&resourceVersion=${listed.metadata.resourceVersion}`;
    const reader = h2Watch(session, path);
    const stalled = session.request({ ':path': path, authorization: `Bearer ${adminToken}` });
    stalled.pause();
    const stalledEnded = new Promise<void>((resolve) => stalled.once('end', resolve));
    const stalledChunks: Buffer[] = [];
    expect((await reader.headers)[':status']).toBe(200);
    // 200 KiB a ServiceAccount: past the stream's flow-control window, the server holds the
    // events (4 MiB at most), then drops them and ends that watch.
    const payload = 'x'.repeat(200 * 1024);
    let created = 0;
    while (created < 300 && (await terminated()) === 0) {
      const answer = await h2Request(session, 'POST', serviceAccounts, {}, { metadata: { name: `h2-big-${created}`, annotations: { payload } } });
      expect(answer.headers[':status']).toBe(201);
      created++;
    }
    expect(await terminated()).toBe(1);
    expect(created).toBeLessThan(300);
    stalled.on('data', (chunk: Buffer) => stalledChunks.push(chunk));
    stalled.resume();
    await stalledEnded;
    const seen = Buffer.concat(stalledChunks).toString('utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line).object.metadata.name);
    expect(seen.length).toBeLessThan(created);
    expect(seen).toEqual(Array.from({ length: seen.length }, (_, i) => `h2-big-${i}`));
    await eventually(() => reader.events.length >= created, { what: () => `${created} events on the reading watch (got ${reader.events.length})`, timeoutMs: 20_000 });
    expect(reader.events.map((event) => event.object.metadata.name)).toEqual(Array.from({ length: created }, (_, i) => `h2-big-${i}`));
    reader.stream.close(constants.NGHTTP2_CANCEL);
  }, 60_000);

  it('keeps repeated headers apart (an Impersonate-Group each)', async () => {
    const review = { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb: 'delete', resource: 'nodes' } } };
    const asGroups = (groups: string[]) => h2Request(session, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { 'impersonate-user': 'h2-alice', 'impersonate-group': groups }, review);
    const apart = await asGroups(['h2-team', 'system:masters']);
    expect(apart.headers[':status']).toBe(201);
    expect(JSON.parse(apart.body).status.allowed).toBe(true);
    const joined = await asGroups(['h2-team, system:masters']);
    expect(JSON.parse(joined.body).status.allowed).toBe(false);
  });

  it('still serves HTTP/1.1 to a client that does not offer h2, watches chunked', async () => {
    const answer = await new Promise<{ status: number; version: string; transferEncoding: string | undefined; firstLine: string }>((resolve, reject) => {
      const req = httpsRequest(`${server.url}${serviceAccounts}?watch=1&resourceVersion=0`, { headers: { authorization: `Bearer ${adminToken}` }, ca: server.ca }, (res) => {
        let buffer = '';
        res.on('data', (chunk: Buffer) => {
          buffer += chunk.toString('utf8');
          const nl = buffer.indexOf('\n');
          if (nl < 0) return;
          resolve({ status: res.statusCode ?? 0, version: res.httpVersion, transferEncoding: res.headers['transfer-encoding'], firstLine: buffer.slice(0, nl) });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer).toMatchObject({ status: 200, version: '1.1', transferEncoding: 'chunked' });
    expect(JSON.parse(answer.firstLine)).toMatchObject({ type: 'ADDED', object: { kind: 'ServiceAccount' } });
  });

  // Hostile HTTP/2: each case on a session of its own; afterwards the server still answers.
  const freshSession = async (): Promise<ClientHttp2Session> => {
    const own = connect(server.url, { ca: server.ca });
    own.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      own.once('connect', () => resolve());
      own.once('error', reject);
    });
    return own;
  };
  const stillServes = async () => {
    const own = await freshSession();
    try {
      expect((await h2Request(own, 'GET', '/api/v1/namespaces/default')).headers[':status']).toBe(200);
    } finally {
      own.destroy();
    }
  };

  it('survives streams opened and reset at once, by the thousand (rapid reset)', async () => {
    const hostile = await freshSession();
    for (let i = 0; i < 2_000; i++) {
      const stream = hostile.request({ ':path': serviceAccounts, authorization: `Bearer ${adminToken}` });
      stream.on('error', () => undefined);
      stream.close(constants.NGHTTP2_CANCEL);
    }
    await new Promise<void>((resolve) => {
      hostile.once('close', () => resolve());
      setImmediate(() => hostile.close(() => resolve()));
    });
    await stillServes();
  });

  it('refuses a header list past its limit without serving it', async () => {
    const hostile = await freshSession();
    try {
      const refused = await new Promise<string>((resolve) => {
        const stream = hostile.request({ ':path': '/api/v1/namespaces/default', authorization: `Bearer ${adminToken}`, 'x-huge': 'a'.repeat(2 << 20) });
        stream.on('response', (headers) => resolve(`answered ${String(headers[':status'])}`));
        stream.on('error', (err: Error) => resolve(`stream error: ${err.message}`));
        stream.on('close', () => resolve(`closed with code ${stream.rstCode}`));
        stream.end();
      });
      expect(refused).not.toBe('answered 200');
    } finally {
      hostile.destroy();
    }
    await stillServes();
  });

  it('ends with GOAWAY a connection that sends garbage after the preface', async () => {
    const socket = tlsConnect({ host: '127.0.0.1', port: Number(new URL(server.url).port), ca: server.ca, ALPNProtocols: ['h2'], servername: 'localhost' });
    const ended = new Promise<void>((resolve) => {
      socket.once('end', () => resolve());
      socket.once('close', () => resolve());
    });
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('secureConnect', () => resolve()));
    expect(socket.alpnProtocol).toBe('h2');
    socket.write(Buffer.concat([Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), Buffer.alloc(4096, 0xff)]));
    await ended;
    socket.destroy();
    expect(frameTypes(Buffer.concat(received))).toContain(goAwayFrame);
    await stillServes();
  });
});
