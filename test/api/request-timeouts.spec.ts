// A request that is not long-running is bounded by its ?timeout= (a Go duration, at most
// --request-timeout), as kube-apiserver's WithRequestDeadline bounds it: a malformed timeout is a
// 400 before anything else, and a request without an answer by its deadline gets the timeout
// filter's 504, its Status without kind or apiVersion, as text/plain.
import { suiteServer, client } from './http';

const leases = '/apis/coordination.platform.io/v1/namespaces/default/leases';
const filterBody = '{"metadata":{},"status":"Failure","message":"Timeout: request did not complete within the allotted timeout","reason":"Timeout","details":{},"code":504}\n';

describe('API server: ?timeout=', () => {
  const server = suiteServer();
  const { request } = server;

  it('answers a request whose timeout has passed with the timeout filter 504, whatever the client accepts', async () => {
    const accepts: Record<string, string>[] = [{}, { accept: 'application/yaml' }, { accept: 'application/vnd.kubernetes.protobuf' }];
    for (const headers of accepts) {
      const res = await request('GET', `${leases}?timeout=1ns`, { headers });
      expect({ status: res.status, type: res.headers.get('content-type'), nosniff: res.headers.get('x-content-type-options'), body: res.text }).toEqual({
        status: 504,
        type: 'text/plain; charset=utf-8',
        nosniff: null,
        body: filterBody,
      });
    }
  });

  it('stores nothing for a create whose timeout has passed', async () => {
    const res = await request('POST', `${leases}?timeout=1ns`, { body: { metadata: { name: 'too-late' } } });
    expect({ status: res.status, body: res.text }).toEqual({ status: 504, body: filterBody });
    expect((await request('GET', `${leases}/too-late`)).status).toBe(404);
  });

  it('answers the filter 504 for a list still waiting for its resourceVersion at its timeout, and the handler 504 when that comes first', async () => {
    const cut = await request('GET', `${leases}?resourceVersion=999999999&timeout=500ms`);
    expect({ status: cut.status, body: cut.text }).toEqual({ status: 504, body: filterBody });
    const waited = await request('GET', `${leases}?resourceVersion=999999999&timeout=30s`);
    expect({ status: waited.status, type: waited.headers.get('content-type') }).toEqual({ status: 504, type: 'application/json' });
    expect(waited.json).toMatchObject({ kind: 'Status', apiVersion: 'v1', reason: 'Timeout', details: { causes: [{ reason: 'ResourceVersionTooLarge' }] } });
  });

  it.each([
    ['soon', 'time: invalid duration "soon"'],
    ['10', 'time: missing unit in duration "10"'],
    ['1x', 'time: unknown unit "x" in duration "1x"'],
  ])('refuses timeout=%s with a 400 Status, before authentication', async (value, detail) => {
    const expected = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `invalid timeout specified in the request URL - ${detail}`, reason: 'BadRequest', code: 400 };
    for (const send of [request, client(server.url, null)]) {
      const res = await send('GET', `${leases}?timeout=${value}`);
      expect({ status: res.status, json: res.json }).toEqual({ status: 400, json: expected });
    }
  });

  it('bounds paths outside the API too', async () => {
    expect((await request('GET', '/version?timeout=1ns')).text).toBe(filterBody);
    expect((await request('GET', '/healthz?timeout=soon')).status).toBe(400);
  });

  it('keeps the request timeout for an empty, zero, negative or longer timeout, and reads only the first', async () => {
    const statuses = [];
    for (const query of ['timeout=', 'timeout=0', 'timeout=-1s', 'timeout=100h', 'timeout=1m&timeout=soon']) statuses.push((await request('GET', `${leases}?${query}`)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
  });

  it('leaves a watch alone', async () => {
    const res = await request('GET', `${leases}?watch=1&timeoutSeconds=1&timeout=soon`);
    expect({ status: res.status, type: res.headers.get('content-type') }).toEqual({ status: 200, type: 'application/json' });
  });
});
