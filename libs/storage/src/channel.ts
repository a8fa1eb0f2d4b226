// Channel is an unbounded queue consumed as an async iterator: producers push, the consumer
// awaits. fail() ends the iteration with an error after the queued items; close() ends it at
// once. It is how every backend hands watch events to its reader. A reader that handles items
// synchronously may consume() them instead: each push then reaches it at once, with no promise
// per item (a watch cache's fan-out to thousands of watchers).
export class Channel<T> implements AsyncIterable<T> {
  private readonly queue: T[] = [];
  private head = 0;
  private waiter: ((result: IteratorResult<T>) => void) | null = null;
  private failWaiter: ((err: Error) => void) | null = null;
  private consumer: Consumer<T> | null = null;
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
    if (this.consumer) {
      this.handOver(this.consumer, item);
      return;
    }
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
    if (this.consumer) this.consumer.reject(err);
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
    this.consumer?.resolve();
    if (!this.error) this.onClose();
  }

  // consume hands every item to handle, the queued ones first, then each as it is pushed, in the
  // pusher's call. It resolves when the channel closes and rejects with fail()'s error, or with
  // what handle threw (the channel is then closed). A channel has one reader: consume it or
  // iterate it, once.
  consume(handle: (item: T) => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const consumer: Consumer<T> = { handle, resolve, reject };
      while (this.head < this.queue.length && !this.closed) {
        const item = this.queue[this.head++];
        if (!this.handOver(consumer, item)) return;
      }
      this.queue.length = 0;
      this.head = 0;
      if (this.closed) resolve();
      else if (this.error) reject(this.error);
      else this.consumer = consumer;
    });
  }

  // handOver gives the consumer one item; when it throws, the channel closes and consume rejects.
  private handOver(consumer: Consumer<T>, item: T): boolean {
    try {
      consumer.handle(item);
      return true;
    } catch (err) {
      consumer.reject(err instanceof Error ? err : new Error(String(err)));
      this.close();
      return false;
    }
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

interface Consumer<T> {
  handle(item: T): void;
  resolve(): void;
  reject(err: Error): void;
}
