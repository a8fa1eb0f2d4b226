import { createServer, request, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Registry } from '@plinth/metrics';
import { RequestBoundary } from './request-boundary';

describe('RequestBoundary over a real HTTP server', () => {
  const lines: string[] = [];
  const registry = new Registry();
  const boundary = new RequestBoundary(registry, (line) => lines.push(line));
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((req, res) =>
      boundary.run(req, res, () => {
        if (req.url === '/sync') throw new Error('thrown before any promise');
        return Promise.reject(new Error('rejected later'));
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });

  it('answers a synchronous throw and a rejection with an InternalError Status', async () => {
    for (const [path, message] of [
      ['/sync', 'thrown before any promise'],
      ['/async', 'rejected later'],
    ]) {
      const res = await get(path);
      expect(res.status).toBe(500);
      expect(JSON.parse(res.body)).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `Internal error occurred: ${message}`,
        reason: 'InternalError',
        details: { causes: [{ message }] },
        code: 500,
      });
    }
  });

  it('logs the failure with the trace id of the request\'s traceparent, and counts it', async () => {
    lines.length = 0;
    const before = Number(/apiserver_request_panics_total (\d+)/.exec(registry.expose())?.[1]);
    await get('/async', { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('apiserver panic\'d: method="GET" URI="/async" traceID="4bf92f3577b34da6a3ce929d0e0e4736": Error: rejected later');
    expect(Number(/apiserver_request_panics_total (\d+)/.exec(registry.expose())?.[1])).toBe(before + 1);
  });
});
