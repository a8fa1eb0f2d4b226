// ThreadSupervisor runs a part of the process on a worker thread (the all-in-one's controller
// manager) and supervises it as a supervisor supervises a child: a worker that ends without being
// asked to is logged with its exit code and error and started again after its RestartPolicy's
// delay, or given up on (onGiveUp) once it crashed too often. stop asks the worker to stop (it
// answers through answerSupervisor, supervised-thread.ts) and terminates it when it has not
// ended within stopTimeoutMs. request sends a request the worker answers (its metrics).
import { Worker } from 'node:worker_threads';
import { Clock, Timer } from '@plinth/machinery';
import { RestartPolicy } from './restart-policy';
import { AnswerMessage, RequestMessage, StopMessage } from './supervised-thread';

export interface SupervisorLog {
  log(line: string): void;
  error(line: string): void;
}

export interface ThreadSupervisorOptions {
  // name names the worker in log lines ("controller manager").
  name: string;
  // start makes a new worker thread, at start and at each restart.
  start: () => Worker;
  clock: Clock;
  log: SupervisorLog;
  policy: RestartPolicy;
  stopTimeoutMs: number;
  // onGiveUp is called once, with what ended the worker, when the policy gives up on it.
  onGiveUp: (reason: string) => void;
}

export class ThreadSupervisor {
  private worker: Worker | null = null;
  private exited: Promise<void> = Promise.resolve();
  private stopping = false;
  private restartTimer: Timer | null = null;
  private nextRequestId = 1;
  private readonly pending = new Map<number, (answer: unknown) => void>();

  constructor(private readonly options: ThreadSupervisorOptions) {}

  // threadId is the running worker's thread id (null between a crash and its restart).
  get threadId(): number | null {
    return this.worker?.threadId ?? null;
  }

  start(): void {
    const { name, start, log } = this.options;
    const worker = start();
    // A worker's threadId reads -1 once it has ended: the log lines keep the one it ran as.
    const threadId = worker.threadId;
    this.worker = worker;
    let failure = '';
    worker.on('message', (message: AnswerMessage) => this.answered(message));
    worker.on('error', (err) => (failure = describe(err)));
    this.exited = new Promise((resolve) =>
      worker.once('exit', (code) => {
        this.ended(worker, threadId, code, failure);
        resolve();
      }),
    );
    log.log(`${name} started in worker thread ${threadId}`);
  }

  // request posts body to the running worker and resolves with its answer, or with undefined
  // when no worker runs, or it ends or does not answer within timeoutMs.
  request<T>(body: unknown, timeoutMs: number): Promise<T | undefined> {
    const worker = this.worker;
    if (!worker) return Promise.resolve(undefined);
    const id = this.nextRequestId++;
    return new Promise<T | undefined>((resolve) => {
      const timer = this.options.clock.setTimeout(() => settle(undefined), timeoutMs);
      const settle = (answer: unknown) => {
        timer.cancel();
        this.pending.delete(id);
        resolve(answer as T | undefined);
      };
      this.pending.set(id, settle);
      worker.postMessage({ kind: 'request', id, body } satisfies RequestMessage);
    });
  }

  // stop asks the worker to stop, waits for it to end (terminating it after stopTimeoutMs) and
  // starts no other.
  async stop(): Promise<void> {
    this.stopping = true;
    this.restartTimer?.cancel();
    const worker = this.worker;
    if (!worker) return;
    const { name, clock, log, stopTimeoutMs } = this.options;
    const threadId = worker.threadId;
    worker.postMessage({ kind: 'stop' } satisfies StopMessage);
    const deadline = clock.setTimeout(() => {
      log.error(`${name} did not stop within ${stopTimeoutMs / 1000} s: terminating worker thread ${threadId}`);
      void worker.terminate();
    }, stopTimeoutMs);
    await this.exited;
    deadline.cancel();
  }

  private answered(message: AnswerMessage): void {
    if (message?.kind === 'answer') this.pending.get(message.id)?.(message.body);
  }

  private ended(worker: Worker, threadId: number, code: number, failure: string): void {
    if (this.worker === worker) this.worker = null;
    for (const settle of [...this.pending.values()]) settle(undefined);
    if (this.stopping) return;
    const { name, clock, log, policy } = this.options;
    const what = `${name} worker thread ${threadId} ended unexpectedly with exit code ${code}${failure ? `: ${failure}` : ''}`;
    const decision = policy.crashed(clock.now());
    if (!decision.restart) {
      log.error(`${what}; giving up after ${decision.crashes} crashes in a row`);
      this.options.onGiveUp(what);
      return;
    }
    log.error(`${what}; restarting it in ${decision.delayMs / 1000} s (crash ${decision.crashes})`);
    this.restartTimer = clock.setTimeout(() => {
      this.restartTimer = null;
      if (!this.stopping) this.start();
    }, decision.delayMs);
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}
