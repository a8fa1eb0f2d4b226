import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { WorkQueue } from '@plinth/client';
import { realClock } from '@plinth/machinery';
import { defaultRegistry } from '@plinth/metrics';
import { MetricsHost, withMetrics } from './metrics.module';

@Module({})
class EmptyModule {}

describe('withMetrics', () => {
  it('serves the process registry on the bind address, with the work queues the app creates, until shutdown', async () => {
    const app = await NestFactory.createApplicationContext(withMetrics({ module: EmptyModule }, '127.0.0.1:0'), { logger: false });
    const host = app.get(MetricsHost);
    const queue = new WorkQueue(realClock, { name: 'metrics-module-spec' });
    queue.add('a');
    const text = await (await fetch(`${host.url}/metrics`)).text();
    expect(text).toContain('workqueue_adds_total{name="metrics-module-spec"} 1');
    expect(text).toContain('process_start_time_seconds');
    const url = host.url;
    queue.shutDown();
    await app.close();
    await expect(fetch(`${url}/metrics`)).rejects.toThrow();
  });

  it('serves nothing without a bind address (the all-in-one serves its registry on the API server) but measures the queues while the app runs', async () => {
    const app = await NestFactory.createApplicationContext(withMetrics({ module: EmptyModule }), { logger: false });
    expect(app.get(MetricsHost).url).toBe('');
    new WorkQueue(realClock, { name: 'metrics-module-spec-running' }).add('a');
    await app.close();
    new WorkQueue(realClock, { name: 'metrics-module-spec-after' }).add('a');
    const text = defaultRegistry().expose();
    expect(text).toContain('workqueue_adds_total{name="metrics-module-spec-running"} 1');
    expect(text).not.toContain('metrics-module-spec-after');
  });
});
