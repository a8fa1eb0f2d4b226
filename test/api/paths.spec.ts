// Paths are routed as sent, as kube-apiserver routes them: percent-escapes decoded, but dot
// segments, doubled slashes and backslashes never resolved, so a path cannot reach another
// namespace than the one it names; a method no route takes is 405.
import { adminToken, rawHttp, suiteServer } from './http';

const methodNotAllowed = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'the server does not allow this method on the requested resource',
  reason: 'MethodNotAllowed',
  details: {},
  code: 405,
};

// send makes a request with the path exactly as given (fetch would resolve dot segments).
async function send(base: string, method: string, path: string, body?: unknown) {
  const payload = body === undefined ? '' : JSON.stringify(body);
  const headers = [`${method} ${path} HTTP/1.1`, 'Host: localhost', `Authorization: Bearer ${adminToken}`, 'Connection: close', `Content-Length: ${Buffer.byteLength(payload)}`];
  if (body !== undefined) headers.push('Content-Type: application/json');
  const answer = await rawHttp(base, `${headers.join('\r\n')}\r\n\r\n${payload}`);
  let json: unknown;
  try {
    json = JSON.parse(answer.body);
  } catch {
    json = undefined;
  }
  return { status: Number(answer.statusLine.split(' ')[1]), body: answer.body, headers: answer.headers, json: json as Record<string, unknown> & { items?: { metadata: { name: string; namespace: string } }[] } };
}

const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });

describe('paths routed as sent', () => {
  const server = suiteServer();
  const { request } = server;

  beforeAll(async () => {
    expect((await request('POST', '/api/v1/namespaces/kube-system/pods', { body: pod('system-pod') })).status).toBe(201);
    expect((await request('POST', '/api/v1/namespaces/default/pods', { body: pod('default-pod') })).status).toBe(201);
  });

  it('reads %2e%2e as a namespace named "..", not as every namespace', async () => {
    const res = await send(server.url, 'GET', '/api/v1/namespaces/%2e%2e/pods');
    expect(res.status).toBe(200);
    expect(res.json.items).toEqual([]);
  });

  it('does not resolve .. segments into another namespace', async () => {
    const res = await send(server.url, 'GET', '/api/v1/namespaces/default/pods/../../kube-system/pods');
    expect(res.status).toBe(404);
    expect(res.body).not.toContain('system-pod');
    const escaped = await send(server.url, 'GET', '/api/v1/namespaces/default/pods/..%2F..%2Fkube-system/pods');
    expect(escaped.status).toBe(404);
  });

  it('keeps backslashes in the segment they are in', async () => {
    const res = await send(server.url, 'GET', '/api/v1/namespaces/default\\..\\kube-system/pods');
    expect(res.status).toBe(200);
    expect(res.json.items).toEqual([]);
  });

  it('reads an empty namespace segment as kube-apiserver does: the collection across namespaces', async () => {
    const res = await send(server.url, 'GET', '/api/v1/namespaces//pods');
    expect(res.status).toBe(200);
    expect(res.json.items?.map((p) => `${p.metadata.namespace}/${p.metadata.name}`).sort()).toEqual(['default/default-pod', 'kube-system/system-pod']);
  });

  it('decodes percent-escapes in names', async () => {
    const res = await send(server.url, 'GET', '/api/v1/namespaces/default/pods/default%2Dpod');
    expect(res.status).toBe(200);
    expect(res.json.metadata).toMatchObject({ name: 'default-pod', namespace: 'default' });
  });

  it('refuses a name that cannot be a path segment with the store key functions\' BadRequest', async () => {
    const dots = await send(server.url, 'GET', '/api/v1/namespaces/default/pods/..');
    expect(dots.status).toBe(400);
    expect(dots.json).toMatchObject({ reason: 'BadRequest', message: 'Name parameter invalid: "..": may not be \'..\'' });
    const percent = await send(server.url, 'DELETE', '/api/v1/namespaces/default/pods/a%25b');
    expect(percent.status).toBe(400);
    expect(percent.json).toMatchObject({ reason: 'BadRequest', message: 'Name parameter invalid: "a%b": may not contain \'%\'' });
  });

  it('answers a malformed percent-escape as Go\'s server does', async () => {
    const res = await send(server.url, 'GET', '/api/v1/namespaces/default/pods/%zz');
    expect(res.status).toBe(400);
    expect(res.body).toBe('400 Bad Request');
    expect(res.headers.connection).toBe('close');
  });

  it('answers a POST to a named object\'s path 405 and creates nothing', async () => {
    const res = await send(server.url, 'POST', '/api/v1/namespaces/default/pods/foo', pod('foo'));
    expect(res.json).toEqual(methodNotAllowed);
    expect((await request('GET', '/api/v1/namespaces/default/pods/foo')).status).toBe(404);
  });

  it('answers PUT and PATCH on a collection, and anything but GET on a watch path, 405', async () => {
    expect((await send(server.url, 'PUT', '/api/v1/namespaces/default/pods', pod('bar'))).json).toEqual(methodNotAllowed);
    expect((await send(server.url, 'PATCH', '/api/v1/namespaces/default/pods', {})).json).toEqual(methodNotAllowed);
    expect((await send(server.url, 'POST', '/api/v1/watch/namespaces/default/pods', pod('baz'))).json).toEqual(methodNotAllowed);
    expect((await send(server.url, 'OPTIONS', '/api/v1/namespaces/default/pods')).json).toEqual(methodNotAllowed);
    expect((await send(server.url, 'POST', '/api/v1/namespaces/default/pods/default-pod/status', pod('default-pod'))).json).toEqual(methodNotAllowed);
    expect((await request('GET', '/api/v1/namespaces/default/pods/bar')).status).toBe(404);
  });

  it('still creates through the subresources made for POST', async () => {
    const res = await request('POST', '/api/v1/namespaces/default/serviceaccounts/default/token', { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} } });
    expect(res.status).toBe(201);
  });
});
