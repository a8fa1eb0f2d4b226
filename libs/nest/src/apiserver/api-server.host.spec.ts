import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { defaultServerFlags } from '@plinth/apiserver';
import { ApiClient } from '@plinth/client';
import { EmbeddedObjectStore } from '@plinth/storage';
import { OBJECT_STORE } from '../storage/object-store.token';
import { ApiServerHost, SERVER_FLAGS } from './api-server.host';

describe('ApiServerHost', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'plinth-api-server-host-'));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('starts the API server on bootstrap over the app store, and stops it and closes the store on shutdown', async () => {
    const store = new EmbeddedObjectStore();
    const closeStore = jest.spyOn(store, 'close');
    const flags = { ...defaultServerFlags, dataDir: dir, securePort: 0, shutdownDelayMs: 0 };
    @Module({ providers: [{ provide: SERVER_FLAGS, useValue: flags }, { provide: OBJECT_STORE, useValue: store }, ApiServerHost] })
    class HostModule {}
    const app = await NestFactory.createApplicationContext(HostModule, { logger: false });
    const host = app.get(ApiServerHost);
    await host.listening;
    expect(host.dataDirectory).toBe(dir);
    expect(host.port).toBeGreaterThan(0);
    const pki = (name: string) => readFileSync(join(dir, 'pki', name), 'utf8');
    const admin = new ApiClient({ server: `https://127.0.0.1:${host.port}`, caPem: pki('ca.crt'), certPem: pki('admin.crt'), keyPem: pki('admin.key') });
    try {
      const namespace = await admin.get<{ metadata: { name: string } }>('/api/v1/namespaces/default');
      expect(namespace.metadata.name).toBe('default');
    } finally {
      admin.close();
    }
    await app.close();
    await expect(fetch(`https://127.0.0.1:${host.port}/readyz`)).rejects.toThrow();
    expect(closeStore).toHaveBeenCalledTimes(1);
  });
});
