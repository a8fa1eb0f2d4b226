// The distributed Plinth with every link secured (see test/distributed.ts): etcd requiring
// client certificates, the storage service serving mutual TLS, NATS over TLS with a user and
// permissions per service. Real kubectl works through the gateway; the storage service gives
// nothing to a plaintext client, a client without a certificate, or an identity it does not
// allow; NATS refuses an unauthenticated client and the gateway's identity cannot answer
// authorization questions.
import { credentials } from '@grpc/grpc-js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect, NatsError } from 'nats';
import { subjectsFor } from '@plinth/authz-nats';
import { StorageError } from '@plinth/storage';
import { GrpcObjectStore, storageClientCredentials } from '@plinth/storage-grpc';
import { startProcess, storageClientFlags } from '@plinth/testing';
import { kubectl } from '@plinth/testing-server';
import { DistributedPlinth, startDistributed } from '../distributed';

async function noData(store: GrpcObjectStore): Promise<string> {
  try {
    const answer = await store.list({ prefix: '/registry/' });
    throw new Error(`the storage service listed ${answer.items.length} objects for a refused client`);
  } catch (err) {
    expect(err).toBeInstanceOf(StorageError);
    return (err as Error).message;
  } finally {
    await store.close();
  }
}

// refusedStart runs an app with the flags given and returns its exit code and last line.
async function refusedStart(main: string, args: string[]): Promise<{ code: number | null; said: string }> {
  const root = join(__dirname, '../..');
  const proc = startProcess(process.execPath, ['-r', join(root, 'tools/register.js'), join(root, main), ...args], { ...process.env, NO_COLOR: '1' });
  const code = await new Promise<number | null>((resolve) => proc.child.once('exit', (c) => resolve(c)));
  return { code, said: proc.output().trim().split('\n').pop() ?? '' };
}

describe('distributed Plinth over TLS links', () => {
  let plinth: DistributedPlinth;

  beforeAll(async () => {
    plinth = await startDistributed({});
  }, 120000);

  afterAll(async () => {
    await plinth?.stop();
  });

  it('serves kubectl through the gateway, authz and storage over their TLS links', async () => {
    const created = await kubectl(plinth.adminKubeconfig, ['create', 'namespace', 'secure-links']);
    expect(created).toMatchObject({ code: 0, stderr: '', stdout: 'namespace/secure-links created\n' });
    const read = await kubectl(plinth.adminKubeconfig, ['get', 'namespace', 'secure-links', '-o', 'jsonpath={.status.phase}']);
    expect(read).toMatchObject({ code: 0, stdout: 'Active' });
    // alice has no binding: authz, reached over NATS, refuses her.
    const denied = await plinth.request('GET', '/api/v1/namespaces/default/serviceaccounts', 'alice-token');
    expect(denied.status).toBe(403);
    expect(JSON.parse(denied.body)).toMatchObject({ kind: 'Status', reason: 'Forbidden' });
  });

  it('gives the storage service\'s data to no client but its allowed identities', async () => {
    const { pki, storageAddress } = plinth;
    const ca = readFileSync(pki.internalCaFile);
    const port = storageAddress.slice(storageAddress.lastIndexOf(':') + 1);
    expect(await noData(new GrpcObjectStore({ address: storageAddress }))).toMatch(/^storage unreachable/);
    expect(await noData(new GrpcObjectStore({ address: `localhost:${port}`, credentials: credentials.createSsl(ca) }))).toMatch(/^storage unreachable/);
    expect(await noData(new GrpcObjectStore({ address: `localhost:${port}`, credentials: storageClientCredentials({ ...pki.foreignGatewayClient, caFile: pki.internalCaFile }) }))).toMatch(/^storage unreachable/);
    expect(await noData(new GrpcObjectStore({ address: `localhost:${port}`, credentials: storageClientCredentials(pki.refusedClient) }))).toMatch(
      /PERMISSION_DENIED: the storage service does not serve CN=plinth-intruder/,
    );
    const gateway = new GrpcObjectStore({ address: `localhost:${port}`, credentials: storageClientCredentials(pki.gatewayClient) });
    try {
      const { items } = await gateway.list({ prefix: '/registry/' });
      expect(items.map((kv) => kv.key).filter((key) => key.endsWith('/secure-links'))).toHaveLength(1);
    } finally {
      await gateway.close();
    }
  });

  it('does not start a gateway or authz whose links would be plaintext, unless told to', async () => {
    const storageTls = storageClientFlags(plinth.pki.gatewayClient);
    expect(await refusedStart('apps/gateway/src/main.ts', ['--port', '0'])).toEqual({
      code: 2,
      said: 'Error: the storage service is reached over mutual TLS only: set --storage-ca-file, --storage-cert-file and --storage-key-file (or --storage-insecure, for local development only)',
    });
    expect(await refusedStart('apps/authz/src/main.ts', [...storageTls, '--nats-url', plinth.natsUrl])).toEqual({
      code: 2,
      said: 'Error: NATS is reached over TLS only: set --nats-ca-file (with --nats-user and --nats-password-file), or --nats-insecure for local development only',
    });
  }, 60000);

  it('keeps NATS to the gateway and authz users, and authorization questions to authz', async () => {
    const tls = { caFile: plinth.pki.internalCaFile };
    await expect(connect({ servers: plinth.natsUrl, tls, reconnect: false })).rejects.toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
    const { user, password } = plinth.pki.nats.gateway;
    const gateway = await connect({ servers: plinth.natsUrl, tls, user, pass: password, reconnect: false });
    try {
      const refused = new Promise<NatsError | null>((resolve) => gateway.subscribe(subjectsFor().authorize, { queue: 'plinth-authz', callback: (err) => resolve(err) }));
      expect((await refused)?.message).toMatch(/permissions violation for subscription to "plinth\.authz\.authorize"/i);
    } finally {
      await gateway.close();
    }
  });
});
