import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { KubeObject } from '@plinth/api';
import { defaultServerFlags } from '@plinth/apiserver';
import { ApiClient } from '@plinth/client';
import { defaultControllerManagerFlags } from '@plinth/config';
import { EmbeddedObjectStore } from '@plinth/storage';
import { eventually } from '@plinth/testing';
import { ApiServerHost, SERVER_FLAGS } from '../apiserver/api-server.host';
import { OBJECT_STORE } from '../storage/object-store.token';
import { controllerManagerSettings } from './controller-manager-settings';
import { CONTROLLER_CREDENTIALS, CONTROLLER_MANAGER_SETTINGS, ControllersHost } from './controllers.host';
import { inProcessCredentials } from '../apiserver/in-process-credentials';

describe('ControllersHost', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'plinth-controllers-host-'));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the controller manager as a client of the in-process API server once it listens, until shutdown', async () => {
    const settings = controllerManagerSettings({ ...defaultControllerManagerFlags, simulatedNodes: 0, controllers: ['job', 'serviceaccount'] });
    @Module({
      providers: [
        { provide: SERVER_FLAGS, useValue: { ...defaultServerFlags, dataDir: dir, securePort: 0, shutdownDelayMs: 0 } },
        { provide: OBJECT_STORE, useValue: new EmbeddedObjectStore() },
        ApiServerHost,
        { provide: CONTROLLER_CREDENTIALS, useFactory: inProcessCredentials, inject: [ApiServerHost] },
        { provide: CONTROLLER_MANAGER_SETTINGS, useValue: settings },
        ControllersHost,
      ],
    })
    class AllInOneModule {}
    const app = await NestFactory.createApplicationContext(AllInOneModule, { logger: false });
    const host = app.get(ApiServerHost);
    const pki = (name: string) => readFileSync(join(dir, 'pki', name), 'utf8');
    const admin = new ApiClient({ server: `https://127.0.0.1:${host.port}`, caPem: pki('ca.crt'), certPem: pki('admin.crt'), keyPem: pki('admin.key') });
    try {
      // The manager leads through the kube-controller-manager Lease and its Job controller makes
      // the pod (which runs as the default account the service-account controller makes).
      const lease = await eventually(() => admin.get<KubeObject>('/apis/coordination.platform.io/v1/namespaces/kube-system/leases/kube-controller-manager'), { what: 'the leader Lease' });
      expect((lease.spec as { holderIdentity?: string }).holderIdentity).toMatch(/.+_.+/);
      await admin.create('/apis/batch/v1/namespaces/default/jobs', {
        metadata: { name: 'hosted' },
        spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
      });
      const pods = await eventually(async () => (await admin.list('/api/v1/namespaces/default/pods', { labelSelector: 'job-name=hosted' })).items, { until: (items) => items.length === 1, what: "the Job's pod" });
      expect(pods[0].metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Job', name: 'hosted', controller: true });
    } finally {
      admin.close();
      await app.close();
    }
  }, 60_000);
});
