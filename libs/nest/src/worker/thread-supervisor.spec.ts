// ThreadSupervisor over real worker threads: small workers written for each case (evaluated
// code; the ones that answer use answerSupervisor, its TypeScript compiled by tools/register.js).
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { realClock } from '@plinth/machinery';
import { eventually } from '@plinth/testing';
import { RestartPolicy } from './restart-policy';
import { ThreadSupervisor } from './thread-supervisor';

const root = join(__dirname, '../../../..');

// answering is a worker that answers "threadId" with its thread id, and counts its stops in
// the shared counter before it ends.
const answering = `{
  const { answerSupervisor } = require(${JSON.stringify(join(__dirname, 'supervised-thread.ts'))});
  const { threadId, workerData } = require('node:worker_threads');
  answerSupervisor({
    stop: async () => { Atomics.add(workerData.stops, 0, 1); },
    answer: (body) => (body === 'threadId' ? threadId : undefined),
  }, () => undefined);
}`;

function supervisorOf(code: string, options: { policy?: RestartPolicy; stopTimeoutMs?: number; workerData?: unknown } = {}) {
  const lines: string[] = [];
  const gaveUp: string[] = [];
  const started: Worker[] = [];
  const supervisor = new ThreadSupervisor({
    name: 'test worker',
    start: () => {
      const worker = new Worker(code, { eval: true, execArgv: ['-r', join(root, 'tools/register.js')], workerData: options.workerData, stdout: true, stderr: true });
      started.push(worker);
      return worker;
    },
    clock: realClock,
    log: { log: (line) => lines.push(line), error: (line) => lines.push(`E ${line}`) },
    policy: options.policy ?? new RestartPolicy({ maxRestarts: 2, periodMs: 60_000, initialDelayMs: 10, maxDelayMs: 20 }),
    stopTimeoutMs: options.stopTimeoutMs ?? 10_000,
    onGiveUp: (reason) => gaveUp.push(reason),
  });
  return { supervisor, lines, gaveUp, started };
}

describe('ThreadSupervisor', () => {
  it('runs the worker on a thread of its own, answers through it, and stops it when asked (a clean stop is no crash)', async () => {
    const stops = new Int32Array(new SharedArrayBuffer(4));
    const { supervisor, lines, gaveUp } = supervisorOf(answering, { workerData: { stops } });
    supervisor.start();
    const threadId = supervisor.threadId;
    expect(threadId).toBeGreaterThan(0);
    expect(await supervisor.request('threadId', 10_000)).toBe(threadId);
    expect(await supervisor.request('something else', 10_000)).toBeUndefined();
    await supervisor.stop();
    expect(Atomics.load(stops, 0)).toBe(1);
    expect(supervisor.threadId).toBeNull();
    expect(await supervisor.request('threadId', 10_000)).toBeUndefined();
    expect(lines).toEqual([`test worker started in worker thread ${threadId}`]);
    expect(gaveUp).toEqual([]);
  }, 30_000);

  it('restarts a worker that crashed, logging its error, and gives up once the policy does', async () => {
    const { supervisor, lines, gaveUp, started } = supervisorOf('throw new Error("controllers exploded")');
    supervisor.start();
    await eventually(() => gaveUp, { until: (reasons) => reasons.length === 1, what: 'the supervisor giving up', timeoutMs: 20_000 });
    // Two restarts, then the third crash within the period gives up.
    expect(started).toHaveLength(3);
    const crashes = lines.filter((line) => line.startsWith('E '));
    expect(crashes).toHaveLength(3);
    expect(crashes[0]).toMatch(/^E test worker worker thread \d+ ended unexpectedly with exit code 1: Error: controllers exploded[\s\S]*; restarting it in 0.01 s \(crash 1\)$/);
    expect(crashes[1]).toMatch(/restarting it in 0.02 s \(crash 2\)$/);
    expect(crashes[2]).toMatch(/; giving up after 3 crashes in a row$/);
    expect(gaveUp[0]).toMatch(/^test worker worker thread \d+ ended unexpectedly with exit code 1: Error: controllers exploded/);
    expect(supervisor.threadId).toBeNull();
    await supervisor.stop();
  }, 30_000);

  it('takes a worker that ends by itself, even with exit code 0, for a crash and starts another that answers', async () => {
    const stops = new Int32Array(new SharedArrayBuffer(4));
    // The first worker exits at once; the ones after it answer.
    const code = `
      const { workerData } = require('node:worker_threads');
      if (Atomics.add(workerData.starts, 0, 1) === 0) process.exit(0);
      ${answering}
    `;
    const { supervisor, lines, gaveUp, started } = supervisorOf(code, { workerData: { stops, starts: new Int32Array(new SharedArrayBuffer(4)) } });
    supervisor.start();
    await eventually(() => started.length, { until: (n) => n === 2, what: 'the restart' });
    const threadId = await eventually(() => supervisor.request<number>('threadId', 10_000), { until: (id) => id !== undefined, what: 'the new worker answering' });
    expect(threadId).toBe(started[1].threadId);
    expect(lines[1]).toMatch(/^E test worker worker thread \d+ ended unexpectedly with exit code 0; restarting it in 0.01 s \(crash 1\)$/);
    await supervisor.stop();
    expect(Atomics.load(stops, 0)).toBe(1);
    expect(gaveUp).toEqual([]);
  }, 30_000);

  it('keeps the main thread serving while its worker spins, and terminates a worker that does not stop in time', async () => {
    const { supervisor, lines, gaveUp, started } = supervisorOf('for (;;) {}', { stopTimeoutMs: 300 });
    supervisor.start();
    const threadId = supervisor.threadId;
    // The worker never yields, yet this thread's timers and requests go on.
    expect(await supervisor.request('threadId', 50)).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await supervisor.stop();
    expect(lines).toContain(`E test worker did not stop within 0.3 s: terminating worker thread ${threadId}`);
    expect(started).toHaveLength(1);
    expect(gaveUp).toEqual([]);
  }, 30_000);
});
