import { Registry, workQueueMetricsProvider } from '@plinth/metrics';
import { FakeClock } from '@plinth/testing';
import { runWorkers, setWorkQueueMetricsProvider, WorkQueue } from './work-queue';

describe('WorkQueue', () => {
  it('hands each key out once, and again after done when it was added while processing', async () => {
    const queue = new WorkQueue(new FakeClock());
    queue.add('a');
    queue.add('a');
    queue.add('b');
    expect(queue.length).toBe(2);
    const first = await queue.get();
    expect(first).toBe('a');
    queue.add('a');
    expect(queue.length).toBe(1);
    queue.done('a');
    expect(await queue.get()).toBe('b');
    expect(await queue.get()).toBe('a');
  });

  it('backs off exponentially per key and forgets on success', async () => {
    const clock = new FakeClock();
    const queue = new WorkQueue(clock, { baseDelayMs: 10, maxDelayMs: 1000 });
    queue.addRateLimited('k');
    expect(queue.length).toBe(0);
    clock.advance(10);
    expect(queue.length).toBe(1);
    await queue.get();
    queue.done('k');
    queue.addRateLimited('k');
    clock.advance(19);
    expect(queue.length).toBe(0);
    clock.advance(1);
    expect(queue.length).toBe(1);
    queue.forget('k');
    await queue.get();
    queue.done('k');
    queue.addRateLimited('k');
    clock.advance(10);
    expect(queue.length).toBe(1);
  });

  it('runs workers until shut down, retrying failures', async () => {
    const clock = new FakeClock();
    const queue = new WorkQueue(clock, { baseDelayMs: 1, maxDelayMs: 1 });
    const seen: string[] = [];
    let failOnce = true;
    const errors: string[] = [];
    const running = runWorkers(queue, 2, async (key) => {
      seen.push(key);
      if (key === 'flaky' && failOnce) {
        failOnce = false;
        throw new Error('boom');
      }
    }, (key) => errors.push(key));
    queue.add('x');
    queue.add('flaky');
    await new Promise((r) => setImmediate(r));
    clock.advance(1);
    await new Promise((r) => setImmediate(r));
    queue.shutDown();
    await running;
    expect(errors).toEqual(['flaky']);
    expect(seen.filter((k) => k === 'flaky')).toHaveLength(2);
    expect(seen).toContain('x');
  });

  it('reports the workqueue metrics of a named queue', async () => {
    const registry = new Registry();
    setWorkQueueMetricsProvider(workQueueMetricsProvider(registry));
    try {
      const queue = new WorkQueue(new FakeClock(), { name: 'job', baseDelayMs: 1 });
      new WorkQueue(new FakeClock()).add('unnamed');
      queue.add('a');
      queue.add('b');
      queue.add('b');
      const text = () => registry.expose();
      expect(text()).toContain('workqueue_adds_total{name="job"} 2\n');
      expect(text()).toContain('workqueue_depth{name="job"} 2\n');
      const key = await queue.get();
      expect(text()).toContain('workqueue_depth{name="job"} 1\n');
      queue.addRateLimited(key as string);
      queue.done(key as string);
      expect(text()).toContain('workqueue_retries_total{name="job"} 1\n');
      expect(text()).toContain('workqueue_work_duration_seconds_count{name="job"} 1\n');
      expect(text()).not.toContain('unnamed');
      expect(text()).not.toMatch(/name=""/);
    } finally {
      setWorkQueueMetricsProvider(null);
    }
  });
});
