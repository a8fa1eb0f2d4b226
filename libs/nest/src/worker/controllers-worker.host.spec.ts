// ControllersWorkerHost in a Nest application, over a small worker (testdata/echo.worker.js): it
// starts the worker while the API is not serving yet and hands it the credentials once it
// does, serves the worker's metrics on the process's registry while it runs, and reports a
// worker its policy gave up on.
import 'reflect-metadata';
import { join } from 'node:path';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ClientCredentials } from '@plinth/client';
import { defaultRegistry } from '@plinth/metrics';
import { eventually } from '@plinth/testing';
import { ControllersWorker, ControllersWorkerHost, CONTROLLERS_WORKER } from './controllers-worker.host';

const entry = join(__dirname, 'testdata/echo.worker.js');

function appWith(worker: ControllersWorker) {
  @Module({ providers: [{ provide: CONTROLLERS_WORKER, useValue: worker }, ControllersWorkerHost] })
  class WorkerModule {}
  return NestFactory.createApplicationContext(WorkerModule, { logger: false });
}

describe('ControllersWorkerHost', () => {
  it('starts the worker before the API serves, hands it the credentials once it does, serves its metrics while it runs', async () => {
    let serve: (credentials: ClientCredentials) => void = () => undefined;
    const serving = new Promise<ClientCredentials>((resolve) => (serve = resolve));
    const starting = appWith({ entry, data: { flags: {} }, credentials: () => serving });
    // The worker runs (and answers for its metrics) while the credentials are not known yet.
    await eventually(() => defaultRegistry().scrape(), { until: (text) => /^echo_worker_up\{server="none"\} [1-9]\d*$/m.test(text), what: 'the worker running before the API serves' });
    serve({ server: 'https://127.0.0.1:6443', caPem: '' });
    const app = await starting;
    const text = await eventually(() => defaultRegistry().scrape(), { until: (scraped) => scraped.includes('echo_worker_up{server="https://127.0.0.1:6443"}'), what: 'the worker handed its credentials' });
    expect(text).toMatch(/^process_cpu_seconds_total /m);
    await app.close();
    expect(await defaultRegistry().scrape()).not.toContain('echo_worker_up');
  }, 30_000);

  it('reports the worker its policy gave up on', async () => {
    const app = await appWith({
      entry,
      data: { flags: { crash: true } },
      credentials: async () => ({ server: 'https://127.0.0.1:6443', caPem: '' }),
      restartPolicy: { maxRestarts: 1, periodMs: 60_000, initialDelayMs: 10, maxDelayMs: 10 },
    });
    const reason = await app.get(ControllersWorkerHost).gaveUp;
    expect(reason).toMatch(/^controller manager worker thread \d+ ended unexpectedly with exit code 1: Error: worker \d+ crashed at start/);
    await app.close();
  }, 30_000);
});
