// The same hostile input against Plinth as it runs in a cluster (storage service over etcd, authz
// and gateway over NATS, each its own process): the gateway survives the requests that killed
// the all-in-one, and the storage and authz services survive messages they cannot read, each
// answering with an error and serving on.
import { Client, Metadata, ServiceError, status } from '@grpc/grpc-js';
import { connect, NatsConnection } from 'nats';
import { subjectsFor } from '@plinth/authz-nats';
import { storageClientCredentials } from '@plinth/storage-grpc';
import { startDistributed, DistributedPlinth } from '../distributed';
import { rawTlsRequest } from './tls';

describe('hostile input against the distributed services', () => {
  let plinth: DistributedPlinth;
  let nats: NatsConnection;

  beforeAll(async () => {
    plinth = await startDistributed({});
    // The hostile messages come from a caller the links let in: NATS's gateway user, the storage
    // service's gateway certificate.
    const { user, password } = plinth.pki.nats.gateway;
    nats = await connect({ servers: plinth.natsUrl, tls: { caFile: plinth.pki.internalCaFile }, user, pass: password });
  }, 120000);

  afterAll(async () => {
    await nats?.close();
    await plinth?.stop();
  });

  // expectServing asks the gateway for something that needs the authz service (alice is denied
  // by RBAC) and the storage service (the administrator reads a namespace).
  async function expectServing(): Promise<void> {
    expect((await plinth.request('GET', '/api/v1/namespaces/default', 'admin-token')).status).toBe(200);
    expect((await plinth.request('GET', '/api/v1/namespaces/kube-system/secrets', 'alice-token')).status).toBe(403);
    expect(plinth.exited()).toEqual([]);
  }

  it('answers GET /// without credentials 403 to system:anonymous at the gateway, and every service lives', async () => {
    const res = await rawTlsRequest(plinth.port, plinth.ca, 'GET /// HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(res.statusLine).toBe('HTTP/1.1 403 Forbidden');
    expect(JSON.parse(res.body).message).toBe('forbidden: User "system:anonymous" cannot get path "///"');
    await expectServing();
  });

  it('sends the gateway\'s warning about a field named beyond Latin-1 as UTF-8 bytes', async () => {
    const body = Buffer.from('{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","ф":1,"spec":{"resourceAttributes":{"verb":"get","resource":"pods"}}}');
    const request = Buffer.concat([
      Buffer.from(`POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer alice-token\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`),
      body,
    ]);
    const res = await rawTlsRequest(plinth.port, plinth.ca, request);
    expect(res.statusLine).toBe('HTTP/1.1 201 Created');
    expect(res.headers.filter(([name]) => name === 'warning').map(([, value]) => value)).toEqual(['299 - "unknown field \\"ф\\""']);
    await expectServing();
  });

  it('answers requests on the authz subjects it cannot read with an error reply, and lives', async () => {
    const subjects = subjectsFor();
    for (const subject of [subjects.authorize, subjects.rules, subjects.rbacWrite]) {
      for (const payload of [Buffer.from([0xff, 0x00, 0x7b]), Buffer.from('{"version":1,"attributes":{"user":null}}'), Buffer.from('[]'), Buffer.alloc(0)]) {
        const reply = await nats.request(subject, payload, { timeout: 10000 });
        const decoded = JSON.parse(Buffer.from(reply.data).toString('utf8'));
        expect(decoded.error?.message).toEqual(expect.any(String));
      }
    }
    await expectServing();
  });

  it('answers gRPC messages the storage service cannot read with a status, and lives', async () => {
    const port = plinth.storageAddress.slice(plinth.storageAddress.lastIndexOf(':') + 1);
    const client = new Client(`localhost:${port}`, storageClientCredentials(plinth.pki.gatewayClient));
    try {
      const garbage = Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]);
      for (const method of ['Get', 'List', 'Create', 'Update', 'Delete', 'Compact']) {
        const err = await new Promise<ServiceError | null>((resolve) => {
          client.makeUnaryRequest(
            `/plinth.storage.v1.ObjectStore/${method}`,
            (value: Buffer) => value,
            (value: Buffer) => value,
            garbage,
            new Metadata(),
            (error) => resolve(error ?? null),
          );
        });
        // INTERNAL is the service failing to read the message: the call got past TLS to it.
        expect({ method, code: err?.code }).toEqual({ method, code: status.INTERNAL });
      }
      const stream = client.makeBidiStreamRequest('/plinth.storage.v1.ObjectStore/Exchange', (value: Buffer) => value, (value: Buffer) => value);
      const ended = new Promise<void>((resolve) => {
        stream.on('error', () => resolve());
        stream.on('end', () => resolve());
        stream.on('data', () => undefined);
      });
      stream.write(garbage);
      stream.write(Buffer.from([0x08, 0x01]));
      stream.end();
      await ended;
    } finally {
      client.close();
    }
    await expectServing();
  });
});
