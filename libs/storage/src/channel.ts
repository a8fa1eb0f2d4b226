// Channel is an unbounded queue consumed as an async iterator: producers push, the consumer
// awaits. fail() ends the iteration with an error after the queued items; close() ends it at
// once. It is how every backend hands watch events to its reader.
export class Channel<T> implements AsyncIterable<T> {
  private readonly queue: T[] = [];
  private head = 0;
  private waiter: ((result: IteratorResult<T>) => void) | null = null;
  private failWaiter: ((err: Error) => void) | null = null;
  private error: Error | null = null;
  private closed = false;

  constructor(private readonly onClose: () => void = () => undefined) {}

  get isClosed(): boolean {
    return this.closed;
  }

  // queued counts the items pushed and not yet handed out.
  get queued(): number {
    return this.queue.length - this.head;
  }

  push(item: T): void {
    if (this.closed || this.error) return;
    if (this.waiter) {
      const resolve = this.waiter;
      this.clearWaiters();
      resolve({ value: item, done: false });
      return;
    }
    this.queue.push(item);
  }

  fail(err: Error): void {
    if (this.closed || this.error) return;
    this.error = err;
    if (this.failWaiter) {
      const reject = this.failWaiter;
      this.clearWaiters();
      reject(err);
    }
    this.onClose();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.length = 0;
    this.head = 0;
    if (this.waiter) {
      const resolve = this.waiter;
      this.clearWaiters();
      resolve({ value: undefined, done: true });
    }
    if (!this.error) this.onClose();
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => this.next(),
      return: async () => {
        this.close();
        return { value: undefined, done: true };
      },
    };
  }

  private next(): Promise<IteratorResult<T>> {
    if (this.head < this.queue.length) {
      const value = this.queue[this.head++];
      if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue.splice(0, this.head);
        this.head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    if (this.error) return Promise.reject(this.error);
    return new Promise((resolve, reject) => {
      this.waiter = resolve;
      this.failWaiter = reject;
    });
  }

  private clearWaiters(): void {
    this.waiter = null;
    this.failWaiter = null;
  }
}
