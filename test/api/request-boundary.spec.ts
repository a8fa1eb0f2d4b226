// The request boundary over real HTTP: routes that fail in every way a handler can (a throw, a
// rejection, an error that cannot even be printed, a failure after the response began, a write
// after the end) each get a 500 InternalError Status or a cut-off response, are counted in
// apiserver_request_panics_total, and the server goes on serving.
import { request as httpRequest } from 'node:http';
import { NonResourceRoute } from '@plinth/apiserver';
import { suiteServer } from './http';
import { eventually } from '@plinth/testing';

// failingRoutes fail under /boom/<how>; the rest of the server is untouched.
const failingRoutes: NonResourceRoute[] = [
  (req, res, info) => {
    switch (info.path) {
      case '/boom/throw':
        throw new TypeError("Cannot read properties of undefined (reading 'spec')");
      case '/boom/unprintable': {
        const err = new Error();
        Object.defineProperty(err, 'message', {
          get() {
            throw new Error('no message either');
          },
        });
        Object.defineProperty(err, 'stack', {
          get() {
            throw new Error('no stack either');
          },
        });
        throw err;
      }
      case '/boom/after-headers':
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('{"items":[');
        throw new RangeError('Maximum call stack size exceeded');
      case '/boom/write-after-end':
        res.end('ok');
        res.write('more');
        return Promise.resolve(true);
      default:
        return Promise.resolve(false);
    }
  },
  async (req, res, info) => {
    if (info.path !== '/boom/reject') return false;
    await Promise.resolve();
    throw new Error('the storage answered nonsense');
  },
];

// rawGet reads a response to its end, or to the connection being cut.
function rawGet(url: string, path: string): Promise<{ status: number; body: string; complete: boolean }> {
  return new Promise((resolve) => {
    const req = httpRequest(`${url}${path}`, { headers: { authorization: 'Bearer admin-token' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, complete: res.complete }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, body, complete: false }));
      res.on('aborted', () => resolve({ status: res.statusCode ?? 0, body, complete: false }));
    });
    // A connection cut before the status line arrived is a cut-off response too.
    req.on('error', () => resolve({ status: 0, body: '', complete: false }));
    req.end();
  });
}

describe('the request boundary', () => {
  const server = suiteServer({}, { extraRoutes: failingRoutes });
  const { request } = server;

  async function panicsCounted(): Promise<number> {
    const metrics = await request('GET', '/metrics');
    const line = metrics.text.split('\n').find((l) => l.startsWith('apiserver_request_panics_total '));
    return Number(line?.split(' ')[1]);
  }

  async function expectServing(): Promise<void> {
    const health = await request('GET', '/healthz');
    expect({ status: health.status, text: health.text }).toEqual({ status: 200, text: 'ok' });
    expect((await request('GET', '/api/v1/namespaces/default')).status).toBe(200);
  }

  it('starts with no panics counted', async () => {
    expect(await panicsCounted()).toBe(0);
  });

  it('answers a handler that throws with a 500 InternalError Status, counts it and lives', async () => {
    const before = await panicsCounted();
    const res = await request('GET', '/boom/throw');
    expect(res.status).toBe(500);
    expect(res.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: "Internal error occurred: Cannot read properties of undefined (reading 'spec')",
      reason: 'InternalError',
      details: { causes: [{ message: "Cannot read properties of undefined (reading 'spec')" }] },
      code: 500,
    });
    expect(await panicsCounted()).toBe(before + 1);
    await expectServing();
  });

  it('answers a handler whose promise rejects the same way', async () => {
    const before = await panicsCounted();
    const res = await request('GET', '/boom/reject');
    expect(res.status).toBe(500);
    expect(res.json).toMatchObject({ kind: 'Status', reason: 'InternalError', message: 'Internal error occurred: the storage answered nonsense' });
    expect(await panicsCounted()).toBe(before + 1);
    await expectServing();
  });

  it('answers an error whose message and stack throw when read with a 500 Status still', async () => {
    const before = await panicsCounted();
    const res = await request('GET', '/boom/unprintable');
    expect(res.status).toBe(500);
    expect(res.json).toMatchObject({ kind: 'Status', reason: 'InternalError', code: 500 });
    expect(await panicsCounted()).toBeGreaterThan(before);
    await expectServing();
  });

  it('cuts off a response that failed after it began, rather than let it look complete', async () => {
    const before = await panicsCounted();
    const res = await rawGet(server.url, '/boom/after-headers');
    expect(res.complete).toBe(false);
    expect(res.body).not.toBe('{"items":[');
    expect(await panicsCounted()).toBe(before + 1);
    await expectServing();
  });

  it('keeps a write after the end of a response from ending the process', async () => {
    const before = await panicsCounted();
    const res = await request('GET', '/boom/write-after-end');
    expect({ status: res.status, text: res.text }).toEqual({ status: 200, text: 'ok' });
    // The response stream reports the failed write after the answer left.
    expect(await eventually(panicsCounted, { until: (count) => count !== before, what: 'the panic counted' })).toBe(before + 1);
    await expectServing();
  });
});
