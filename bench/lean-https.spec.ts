// The benchmark's load generator against a real HTTPS server: keep-alive reuse, client
// certificates, headers, Content-Length and chunked bodies, and recovery from a closed
// connection.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TLSSocket } from 'node:tls';
import { ClusterPki, ensureClusterPki } from '@plinth/apiserver';
import { LeanHttpsPool } from './lean-https';

describe('LeanHttpsPool', () => {
  let dir: string;
  let pki: ClusterPki;
  let server: Server;
  let port: number;
  let connections = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lean-https-'));
    pki = ensureClusterPki(dir, { dns: ['localhost'], ips: ['127.0.0.1'] });
    server = createServer({ ...pki.server, ca: pki.ca.cert, requestCert: true, rejectUnauthorized: false }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const socket = req.socket as TLSSocket;
        const answer = {
          method: req.method,
          url: req.url,
          body: Buffer.concat(chunks).toString(),
          contentType: req.headers['content-type'] ?? null,
          token: req.headers.authorization ?? null,
          cn: socket.getPeerCertificate().subject?.CN ?? null,
        };
        if (req.url === '/chunked') {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.write('first,');
          setTimeout(() => res.end('second'), 10);
        } else if (req.url === '/close') {
          socket.destroy();
        } else {
          res.statusCode = req.url === '/missing' ? 404 : 201;
          res.end(JSON.stringify(answer));
        }
      });
    });
    server.on('secureConnection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the body with its content type over one kept-alive connection, with the client certificate', async () => {
    const pool = new LeanHttpsPool(port, { ca: pki.ca.cert, cert: pki.admin.cert, key: pki.admin.key });
    const before = connections;
    const first = await pool.call('POST', '/api/v1/namespaces?x=1', '{"metadata":{"name":"é"}}');
    const second = await pool.call('GET', '/missing');
    pool.close();
    expect(first.status).toBe(201);
    expect(JSON.parse(first.body)).toEqual({
      method: 'POST',
      url: '/api/v1/namespaces?x=1',
      body: '{"metadata":{"name":"é"}}',
      contentType: 'application/json',
      token: null,
      cn: 'plinth-admin',
    });
    expect(second.status).toBe(404);
    expect(JSON.parse(second.body)).toMatchObject({ method: 'GET', body: '' });
    expect(connections - before).toBe(1);
  });

  it('opens a connection per request in flight and adds its headers', async () => {
    const pool = new LeanHttpsPool(port, { ca: pki.ca.cert }, { Authorization: 'Bearer abc' });
    const before = connections;
    const answers = await Promise.all([1, 2, 3].map((i) => pool.call('PUT', `/${i}`, 'x', 'text/plain')));
    pool.close();
    expect(answers.map((a) => JSON.parse(a.body))).toEqual(
      [1, 2, 3].map((i) => ({ method: 'PUT', url: `/${i}`, body: 'x', contentType: 'text/plain', token: 'Bearer abc', cn: null })),
    );
    expect(connections - before).toBe(3);
  });

  it('reads a chunked body', async () => {
    const pool = new LeanHttpsPool(port, { ca: pki.ca.cert });
    const answer = await pool.call('GET', '/chunked');
    pool.close();
    expect(answer).toEqual({ status: 200, body: 'first,second' });
  });

  it('fails a request whose connection closes, and opens a new one for the next', async () => {
    const pool = new LeanHttpsPool(port, { ca: pki.ca.cert });
    await expect(pool.call('GET', '/close')).rejects.toThrow();
    const after = await pool.call('GET', '/fine');
    pool.close();
    expect(after.status).toBe(201);
  });
});
