// Mutual TLS on the storage link, over the storage service's microservice and a GrpcObjectStore on loopback: a client
// without a certificate, with one from another CA, or with an identity the service does not
// allow gets no data and writes nothing; the allowed identities (by CN or by O) are served.
import { credentials } from '@grpc/grpc-js';
import { readFileSync } from 'node:fs';
import { EmbeddedObjectStore, StorageError, StorageErrorCode } from '@plinth/storage';
import { LinkPki, makeLinkPki } from '@plinth/testing';
import { issueCertificate } from '@plinth/pki';
import { GrpcObjectStore, parseClientIdentities, storageClientCredentials } from '@plinth/storage-grpc';
import { StorageServer, startStorageServer } from './storage-server';

const bytes = (text: string) => new TextEncoder().encode(text);

async function refusal(promise: Promise<unknown>): Promise<StorageError> {
  const err = await promise.then(
    () => new Error('the storage service answered a client it should have refused'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StorageError);
  return err as StorageError;
}

async function watchRefusal(store: GrpcObjectStore): Promise<StorageError> {
  const watch = store.watch({ prefix: '/registry/', revision: 1 });
  try {
    for await (const event of watch) throw new Error(`a refused client received ${event.type}`);
  } catch (err) {
    expect(err).toBeInstanceOf(StorageError);
    return err as StorageError;
  }
  throw new Error('the watch ended without an error');
}

describe('storage link TLS', () => {
  let pki: LinkPki;
  let backend: EmbeddedObjectStore;
  let server: StorageServer;
  const stores: GrpcObjectStore[] = [];

  const client = (files: { caFile: string; certFile: string; keyFile: string }) => {
    const store = new GrpcObjectStore({ address: `localhost:${server.port}`, credentials: storageClientCredentials(files) });
    stores.push(store);
    return store;
  };

  beforeAll(async () => {
    pki = makeLinkPki();
    backend = new EmbeddedObjectStore();
    await backend.create('/registry/secrets/default/token', bytes('{"data":"secret"}'));
    server = await startStorageServer(backend, {
      address: '127.0.0.1:0',
      tls: { ...pki.storageServer, allowedClients: parseClientIdentities(['plinth-gateway', 'CN=plinth-authz', 'O=plinth:storage-clients']) },
    });
  });

  afterAll(async () => {
    for (const store of stores) await store.close();
    await server?.shutdown();
    await backend?.close();
    pki?.remove();
  });

  it('serves an allowed identity over every kind of call', async () => {
    const gateway = client(pki.gatewayClient);
    expect(new TextDecoder().decode((await gateway.get('/registry/secrets/default/token')).value)).toBe('{"data":"secret"}');
    expect((await gateway.list({ prefix: '/registry/' })).items).toHaveLength(1);
    const watch = gateway.watch({ prefix: '/registry/configmaps/', revision: await gateway.currentRevision() });
    await client(pki.authzClient).create('/registry/configmaps/default/a', bytes('{}'));
    const { value } = await watch[Symbol.asyncIterator]().next();
    expect(value).toMatchObject({ type: 'ADDED', kv: { key: '/registry/configmaps/default/a' } });
    watch.close();
    await gateway.delete('/registry/configmaps/default/a');
  });

  it('serves a certificate by its organization', async () => {
    const member = issueCertificate(pki.internalCa, { commonName: 'some-operator', organizations: ['plinth:storage-clients'], usage: 'client' });
    const store = new GrpcObjectStore({
      address: `localhost:${server.port}`,
      credentials: credentials.createSsl(readFileSync(pki.internalCaFile), Buffer.from(member.key), Buffer.from(member.cert)),
    });
    stores.push(store);
    expect((await store.get('/registry/secrets/default/token')).key).toBe('/registry/secrets/default/token');
  });

  it('refuses a client without a certificate at the handshake', async () => {
    const store = new GrpcObjectStore({ address: `localhost:${server.port}`, credentials: credentials.createSsl(readFileSync(pki.internalCaFile)) });
    stores.push(store);
    expect((await refusal(store.get('/registry/secrets/default/token'))).code).toBe(StorageErrorCode.Unreachable);
    expect((await refusal(store.list({ prefix: '/registry/' }))).code).toBe(StorageErrorCode.Unreachable);
    expect((await watchRefusal(store)).code).toBe(StorageErrorCode.Unreachable);
  });

  it('refuses a plaintext client', async () => {
    const store = new GrpcObjectStore({ address: `127.0.0.1:${server.port}` });
    stores.push(store);
    expect((await refusal(store.get('/registry/secrets/default/token'))).code).toBe(StorageErrorCode.Unreachable);
  });

  it('refuses an allowed name whose certificate another CA signed', async () => {
    // The client trusts the service; the service does not trust the client's CA.
    const store = client({ ...pki.foreignGatewayClient, caFile: pki.internalCaFile });
    expect((await refusal(store.get('/registry/secrets/default/token'))).code).toBe(StorageErrorCode.Unreachable);
    expect((await refusal(store.create('/registry/secrets/default/forged', bytes('{}')))).code).toBe(StorageErrorCode.Unreachable);
    await expect(backend.get('/registry/secrets/default/forged')).rejects.toMatchObject({ code: StorageErrorCode.KeyNotFound });
  });

  it('refuses an identity it does not allow, naming it, before any call reaches the store', async () => {
    const intruder = client(pki.refusedClient);
    const denied = await refusal(intruder.get('/registry/secrets/default/token'));
    expect(denied.message).toBe(
      'storage unreachable: PERMISSION_DENIED: the storage service does not serve CN=plinth-intruder (allowed: CN=plinth-gateway, CN=plinth-authz, O=plinth:storage-clients)',
    );
    expect((await refusal(intruder.list({ prefix: '/registry/' }))).message).toMatch(/PERMISSION_DENIED/);
    expect((await watchRefusal(intruder)).message).toMatch(/PERMISSION_DENIED/);
    expect((await refusal(intruder.create('/registry/secrets/default/planted', bytes('{}')))).message).toMatch(/PERMISSION_DENIED/);
    await expect(backend.get('/registry/secrets/default/planted')).rejects.toMatchObject({ code: StorageErrorCode.KeyNotFound });
    // The controller manager's certificate is valid, but this service does not list it.
    expect((await refusal(client(pki.controllerManagerClient).currentRevision())).message).toMatch(/does not serve CN=plinth-controller-manager/);
  });
});
