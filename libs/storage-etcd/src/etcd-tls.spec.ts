// The etcd backend over TLS, as kube-apiserver talks to etcd: a real etcd serving HTTPS with
// --client-cert-auth. The conformance suite runs through it, and a client without a
// certificate, or with one another CA signed, is refused.
import { readFileSync } from 'node:fs';
import { StorageError, StorageErrorCode } from '@plinth/storage';
import { runObjectStoreConformance } from '@plinth/storage/conformance';
import { EtcdServer, LinkPki, makeLinkPki, startEtcd } from '@plinth/testing';
import { EtcdObjectStore } from './etcd-object-store';

let pki: LinkPki | undefined;
let etcd: Promise<EtcdServer> | undefined;

function tlsEtcd(): Promise<EtcdServer> {
  pki ??= makeLinkPki();
  etcd ??= startEtcd({ tls: pki.etcdServer });
  return etcd;
}

async function stopEtcd(): Promise<void> {
  const running = etcd;
  etcd = undefined;
  if (running) await (await running).stop();
  pki?.remove();
  pki = undefined;
}

afterAll(stopEtcd);

function clientOf(endpoint: string, files: { caFile: string; certFile?: string; keyFile?: string }): EtcdObjectStore {
  const read = (file: string | undefined) => (file ? readFileSync(file) : undefined);
  return new EtcdObjectStore({ endpoints: [endpoint], requestTimeoutMs: 3000, tls: { ca: readFileSync(files.caFile), cert: read(files.certFile), key: read(files.keyFile) } });
}

describe('EtcdObjectStore over TLS', () => {
  it('is refused without a client certificate, or with one from another CA', async () => {
    const { endpoint } = await tlsEtcd();
    expect(endpoint).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const links = pki!;
    for (const store of [clientOf(endpoint, { caFile: links.etcdServer.caFile }), clientOf(endpoint, { ...links.foreignGatewayClient, caFile: links.etcdServer.caFile })]) {
      try {
        for (const read of [() => store.get('/registry/a'), () => store.currentRevision()]) {
          const err = await read().then(
            () => new Error('etcd answered a client without a valid certificate'),
            (e: unknown) => e,
          );
          expect(err).toBeInstanceOf(StorageError);
          expect((err as StorageError).code).toBe(StorageErrorCode.Unreachable);
        }
      } finally {
        await store.close();
      }
    }
  });

  it('reaches etcd with the storage service\'s client certificate', async () => {
    const store = clientOf((await tlsEtcd()).endpoint, pki!.etcdClient);
    try {
      const created = await store.create('/registry/tls-check', new Uint8Array([1]));
      expect((await store.get('/registry/tls-check')).revision).toBe(created.revision);
      expect(await store.currentRevision()).toBeGreaterThanOrEqual(created.revision);
    } finally {
      await store.close();
    }
  });
});

runObjectStoreConformance(
  'etcd over TLS',
  {
    create: async () => clientOf((await tlsEtcd()).endpoint, pki!.etcdClient),
    teardown: stopEtcd,
  },
  { progressNotify: true },
);
