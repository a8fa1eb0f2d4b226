// answerSupervisor is the worker thread's side of ThreadSupervisor: it answers the supervisor's
// requests and, asked to stop, runs stop and ends the thread (exit code 0, which the supervisor
// takes for a clean stop since it asked for it).
import { isMainThread, parentPort } from 'node:worker_threads';

export interface StopMessage {
  kind: 'stop';
}

export interface RequestMessage {
  kind: 'request';
  id: number;
  body: unknown;
}

export interface AnswerMessage {
  kind: 'answer';
  id: number;
  body: unknown;
}

export interface SupervisedThread {
  // stop ends the thread's work; the thread exits once it resolves (or rejects).
  stop(): Promise<void>;
  // answer answers a request of the supervisor.
  answer(body: unknown): unknown;
}

export function answerSupervisor(thread: SupervisedThread, log: (line: string) => void): void {
  const port = parentPort;
  if (isMainThread || !port) throw new Error('answerSupervisor runs in a worker thread');
  port.on('message', (message: StopMessage | RequestMessage) => {
    if (message?.kind === 'request') {
      void Promise.resolve()
        .then(() => thread.answer(message.body))
        .then(
          (body) => port.postMessage({ kind: 'answer', id: message.id, body } satisfies AnswerMessage),
          (err: unknown) => {
            log(`answering the supervisor failed: ${(err as Error).message}`);
            port.postMessage({ kind: 'answer', id: message.id, body: undefined } satisfies AnswerMessage);
          },
        );
    } else if (message?.kind === 'stop') {
      void thread
        .stop()
        .catch((err: unknown) => log(`stopping failed: ${(err as Error).message}`))
        .finally(() => process.exit(0));
    }
  });
}
