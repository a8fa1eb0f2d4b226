// readBody over a real HTTP server: a body whole however it was sent, 413 past the limit
// (declared or streamed), and a rejection when the client goes away mid-body.
import { createServer, IncomingMessage, request, Server } from 'node:http';
import { AddressInfo, connect } from 'node:net';
import { isStatusError } from '@plinth/machinery';
import { readBody } from './body';

describe('readBody', () => {
  let server: Server;
  let port: number;
  let outcomes: Promise<Buffer>[];
  let arrived: (() => void) | undefined;

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      const read = readBody(req, 64);
      outcomes.push(read);
      arrived?.();
      read.then(
        (body) => res.end(`read ${body.length}: ${body.toString('utf8')}`),
        (err: unknown) => {
          res.statusCode = isStatusError(err) ? (err.errStatus.code ?? 500) : 500;
          res.end(isStatusError(err) ? err.errStatus.message : String(err));
        },
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  beforeEach(() => {
    outcomes = [];
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  function send(chunks: string[], headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      for (const chunk of chunks) req.write(chunk);
      req.end();
    });
  }

  it('reads a body sent in one piece, in chunks, or empty', async () => {
    expect(await send(['{"a":1}'], { 'content-length': '7' })).toEqual({ status: 200, body: 'read 7: {"a":1}' });
    expect(await send(['{"a":', '"é"', '}'])).toEqual({ status: 200, body: 'read 10: {"a":"é"}' });
    expect(await send([])).toEqual({ status: 200, body: 'read 0: ' });
  });

  it('refuses a body past the limit, declared or streamed, with 413', async () => {
    expect(await send(['x'.repeat(65)], { 'content-length': '65' })).toEqual({ status: 413, body: 'Request entity too large: limit is 64' });
    expect(await send(['x'.repeat(40), 'y'.repeat(40)])).toEqual({ status: 413, body: 'Request entity too large: limit is 64' });
  });

  it('rejects when the client goes away before the end of the body', async () => {
    const started = new Promise<void>((resolve) => (arrived = resolve));
    const socket = connect(port, '127.0.0.1');
    socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{"cut":');
    await started;
    socket.destroy();
    await expect(outcomes[0]).rejects.toThrow(/aborted|Premature close/);
    arrived = undefined;
  });
});
