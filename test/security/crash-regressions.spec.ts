// Requests that each ended the all-in-one process, sent over real TLS to the real process: each
// must get kube-apiserver's answer, and the process must go on serving.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PlinthProcess, startPlinth } from '@plinth/testing-server';
import { KeyPair, rawTlsRequest, tlsRequest } from './tls';

describe('requests that used to end the all-in-one process', () => {
  let plinth: PlinthProcess;
  let ca: string;
  let admin: KeyPair;

  beforeAll(async () => {
    plinth = await startPlinth([], { timeoutMs: 60000 });
    const pki = join(plinth.dataDir, 'pki');
    ca = readFileSync(join(pki, 'ca.crt'), 'utf8');
    admin = { certPem: readFileSync(join(pki, 'admin.crt'), 'utf8'), keyPem: readFileSync(join(pki, 'admin.key'), 'utf8') };
  }, 90000);

  afterAll(() => plinth?.stop());

  async function expectServing(): Promise<void> {
    const health = await tlsRequest(plinth.url, 'GET', '/healthz', { ca, clientCert: admin });
    expect({ status: health.status, text: health.text }).toEqual({ status: 200, text: 'ok' });
  }

  it('answers GET /// without credentials 403 to system:anonymous, as the path it is, and lives', async () => {
    const res = await rawTlsRequest(plinth.port, ca, 'GET /// HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(res.statusLine).toBe('HTTP/1.1 403 Forbidden');
    expect(JSON.parse(res.body)).toMatchObject({ kind: 'Status', reason: 'Forbidden', message: 'forbidden: User "system:anonymous" cannot get path "///"', code: 403 });
    await expectServing();
  });

  it('answers GET /// for the administrator 404 (no such path), and lives', async () => {
    const res = await rawTlsRequest(plinth.port, ca, 'GET /// HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n', admin);
    expect(res.statusLine).toBe('HTTP/1.1 404 Not Found');
    expect(res.body).toBe('404 page not found\n');
    await expectServing();
  });

  it('sends the warning about an unknown field named beyond Latin-1 as UTF-8 bytes, as Go writes it, and lives', async () => {
    const body = Buffer.from('{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","ф":1,"spec":{"resourceAttributes":{"verb":"get","resource":"pods"}}}', 'utf8');
    const request = Buffer.concat([
      Buffer.from(`POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`),
      body,
    ]);
    const res = await rawTlsRequest(plinth.port, ca, request, admin);
    expect(res.statusLine).toBe('HTTP/1.1 201 Created');
    expect(res.headers.filter(([name]) => name === 'warning').map(([, value]) => value)).toEqual(['299 - "unknown field \\"ф\\""']);
    expect(JSON.parse(res.body).status.allowed).toBe(true);
    await expectServing();
  });

  it('takes headers up to Go\'s 1 MiB over TLS and answers more 431 as Go does', async () => {
    const pad = (kib: number) => `X-Pad: ${'a'.repeat(kib * 1024)}\r\n`;
    const fits = await rawTlsRequest(plinth.port, ca, `GET /healthz HTTP/1.1\r\nHost: localhost\r\n${pad(900)}Connection: close\r\n\r\n`, admin);
    expect({ statusLine: fits.statusLine, body: fits.body }).toEqual({ statusLine: 'HTTP/1.1 200 OK', body: 'ok' });
    const tooLarge = await rawTlsRequest(plinth.port, ca, `GET /healthz HTTP/1.1\r\nHost: localhost\r\n${pad(1100)}\r\n`, admin);
    expect({ statusLine: tooLarge.statusLine, body: tooLarge.body }).toEqual({ statusLine: 'HTTP/1.1 431 Request Header Fields Too Large', body: '431 Request Header Fields Too Large' });
    await expectServing();
  });

  it('keeps a strict refusal of that field a Status naming it', async () => {
    const res = await tlsRequest(plinth.url, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews?fieldValidation=Strict', {
      ca,
      clientCert: admin,
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', ф: 1, spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } },
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ kind: 'Status', reason: 'BadRequest', message: 'SelfSubjectAccessReview in version "v1" cannot be handled as a SelfSubjectAccessReview: strict decoding error: unknown field "ф"' });
    await expectServing();
  });
});
