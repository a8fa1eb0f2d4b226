// CurrentRevisionReader reads a store's current revision for consistent reads (KEP-2340's
// consistent reads from cache, etcd's ReadIndex batching), one read at a time: a caller that
// asks while a read is on its way never takes that read's answer (it may have been taken before
// a write that finished before the caller asked) but joins the next one, which is sent once
// that read is answered. A read that starts after a caller asked reflects every write finished
// before the caller asked, so sharing it keeps each caller's read consistent. The gateway
// shares one for all its consistent reads (at 16 GETs in flight one revision read serves
// about eight), the storage service one for all its gateways' CurrentRevision calls (each
// gateway has one out at a time, so it is three gateways or more that share). When callers
// wait for the next read, it is sent before the last one's callers hear their answer, and
// they hear it a turn of the event loop later: node:http2 sends what a turn wrote at its end,
// so the next read's request would otherwise wait behind all that its callers do with the
// answer (at 16 GETs in flight, the gateway writing eight responses: the revision read's
// round trip went from 1.2-2.0 to 0.8-1.1 ms, and the GETs' rate up by half).
export class CurrentRevisionReader {
  private inFlight = false;
  private next: { promise: Promise<number>; resolve(revision: number): void; reject(err: unknown): void } | null = null;

  constructor(private readonly readCurrent: () => Promise<number>) {}

  read(): Promise<number> {
    if (!this.next) {
      let resolve!: (revision: number) => void;
      let reject!: (err: unknown) => void;
      const promise = new Promise<number>((res, rej) => ((resolve = res), (reject = rej)));
      this.next = { promise, resolve, reject };
    }
    const { promise } = this.next;
    if (!this.inFlight) void this.send();
    return promise;
  }

  private async send(): Promise<void> {
    const batch = this.next;
    if (!batch) return;
    this.next = null;
    this.inFlight = true;
    let settle: () => void;
    try {
      const revision = await this.readCurrent();
      settle = () => batch.resolve(revision);
    } catch (err) {
      settle = () => batch.reject(err);
    }
    this.inFlight = false;
    if (!this.next) return settle();
    void this.send();
    setImmediate(settle);
  }
}
