import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultServerFlags, ServerFlags } from '@plinth/apiserver';
import { EmbeddedObjectStore } from '@plinth/storage';
import { FakeClock } from '@plinth/testing';
import { RunningApiServer, startApiServer } from './start-api-server';

// get asks the server as its administrator (the generated client certificate).
function get(server: RunningApiServer, path: string): Promise<{ status: number; body: string }> {
  const pki = server.pki!;
  return new Promise((resolve, reject) => {
    const req = request(server.url + path, { ca: pki.ca.cert, cert: pki.admin.cert, key: pki.admin.key, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('startApiServer', () => {
  let dir: string;
  let store: EmbeddedObjectStore;
  const flags = (): ServerFlags => ({ ...defaultServerFlags, dataDir: join(dir, 'data'), bindAddress: '127.0.0.1', securePort: 0, shutdownDelayMs: 0 });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'plinth-start-api-server-'));
    store = new EmbeddedObjectStore();
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves HTTPS with the cluster PKI it makes under --data-dir and writes both kubeconfigs', async () => {
    const server = await startApiServer({ flags: flags(), store });
    try {
      await server.ready;
      expect(server.url).toBe(`https://127.0.0.1:${server.port}`);
      expect(existsSync(join(dir, 'data/pki/ca.crt'))).toBe(true);
      expect(server.adminKubeconfig).toBe(join(dir, 'data/admin.kubeconfig'));
      expect(readFileSync(server.adminKubeconfig, 'utf8')).toContain(`server: ${server.url}`);
      expect(readFileSync(join(dir, 'data/controller-manager.kubeconfig'), 'utf8')).toContain(`server: ${server.url}`);
      expect(await get(server, '/readyz')).toEqual({ status: 200, body: 'ok' });
      // The system namespaces are written before ready resolves.
      expect((await get(server, '/api/v1/namespaces/kube-system')).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('keeps the PKI it finds under --data-dir', async () => {
    const first = await startApiServer({ flags: flags(), store });
    await first.ready;
    await first.stop();
    const second = await startApiServer({ flags: flags(), store });
    try {
      await second.ready;
      expect(second.pki!.ca.cert).toBe(first.pki!.ca.cert);
    } finally {
      await second.stop();
    }
  });

  it('runs RBAC in process without --nats-url: a user with no binding is forbidden', async () => {
    writeFileSync(join(dir, 'tokens.csv'), 'carol-token,carol,carol-uid');
    const server = await startApiServer({ flags: { ...flags(), tokenAuthFile: join(dir, 'tokens.csv') }, store });
    try {
      await server.ready;
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(server.url + '/api/v1/namespaces', { ca: server.pki!.ca.cert, headers: { authorization: 'Bearer carol-token' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(403);
    } finally {
      await server.stop();
    }
  });

  it('fails /readyz while it serves on for --shutdown-delay-duration, and refuses connections once stopped', async () => {
    const clock = new FakeClock();
    const server = await startApiServer({ flags: { ...flags(), shutdownDelayMs: 5000 }, store, clock });
    await server.ready;
    const draining = server.drain('SIGTERM');
    const readyz = await get(server, '/readyz?verbose');
    expect(readyz.status).toBe(500);
    expect(readyz.body).toContain('[-]shutdown failed');
    clock.advance(5000);
    await draining;
    await server.stop();
    await expect(get(server, '/readyz')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('serves plain HTTP without a PKI or kubeconfigs when asked', async () => {
    const key = join(dir, 'sa.key');
    writeFileSync(key, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
    writeFileSync(join(dir, 'tokens.csv'), 'carol-token,carol,carol-uid');
    const server = await startApiServer({ flags: { ...flags(), serviceAccountSigningKeyFile: key, tokenAuthFile: join(dir, 'tokens.csv') }, store, transport: 'http' });
    try {
      await server.ready;
      expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
      expect(server.pki).toBeNull();
      expect(server.adminKubeconfig).toBe('');
      expect(existsSync(join(dir, 'data/pki'))).toBe(false);
      expect((await fetch(server.url + '/livez', { headers: { authorization: 'Bearer carol-token' } })).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
