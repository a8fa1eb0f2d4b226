// StoreInformer keeps a consumer in step with one resource in storage: a list, then a watch
// from the list's revision. After an error (a broken connection, storage restarting) it waits
// (doubling up to 5 s, with jitter) and watches again from the last revision it handed over, as
// a Kubernetes reflector does, so that its consumer sees every change in order; it lists again
// only when that revision was compacted (410 Expired) or it never listed. Each failure and
// success is reported to the link it depends on (which logs once when lost, once when back).
// It is the storage-side twin of a client informer, for components that sit beside storage
// (the authorizer's policy, the API server's caches).
import { KubeObject } from '@plinth/api';
import { Backoff, Clock, LinkState, unwatchedLink } from '@plinth/machinery';
import { isStorageError, KeyValue, StorageErrorCode, Watch } from '@plinth/storage';
import { ResourceStore } from './resource-store';

export interface InformerHandler {
  // replace hands over the full state after a (re)list, with what storage holds each object as
  // (stored[i] is objects[i]'s).
  replace(objects: KubeObject[], revision: number, stored: KeyValue[]): void;
  // upsert and remove hand over one change with what storage holds it as: its key (a cache
  // keeping it by key keeps that string, not one more copy) and its stored bytes.
  upsert(object: KubeObject, revision: number, stored: KeyValue): void;
  remove(object: KubeObject, revision: number, stored: KeyValue): void;
  // progress reports that everything up to revision has been handed over.
  progress?(revision: number): void;
}

export class StoreInformer {
  private watch: Watch | null = null;
  private stopped = false;
  private readonly backoff = new Backoff({ initialMs: 100, maxMs: 5000 });

  constructor(
    private readonly store: ResourceStore,
    private readonly handler: InformerHandler,
    private readonly clock: Clock,
    private readonly link: LinkState = unwatchedLink('storage'),
  ) {}

  start(): void {
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    this.watch?.close();
  }

  private async run(): Promise<void> {
    // revision is the newest revision handed over; null until the first list.
    let revision: number | null = null;
    while (!this.stopped) {
      try {
        if (revision === null) {
          revision = await this.list();
        } else {
          // The link is back when storage answers; the watch then resumes where it broke.
          await this.store.currentRevision();
          this.link.ok();
        }
        if (this.stopped) return;
        this.backoff.reset();
        await this.watchFrom(revision, (seen) => (revision = seen));
      } catch (err) {
        if (this.stopped) return;
        if (isStorageError(err, StorageErrorCode.Expired)) revision = null;
        this.link.failed(err);
        await new Promise<void>((resolve) => this.clock.setTimeout(resolve, this.backoff.next()));
      }
    }
  }

  private async list(): Promise<number> {
    const list = await this.store.listStored();
    this.link.ok();
    if (this.stopped) return list.revision;
    this.handler.replace(list.objects, list.revision, list.stored);
    this.handler.progress?.(list.revision);
    return list.revision;
  }

  private async watchFrom(revision: number, seen: (revision: number) => void): Promise<void> {
    const watch = this.store.watch(undefined, revision, true);
    this.watch = watch;
    for await (const event of watch) {
      if (event.kv) {
        const object = this.store.decode(event.kv, event.revision);
        if (event.type === 'DELETED') this.handler.remove(object, event.revision, event.kv);
        else this.handler.upsert(object, event.revision, event.kv);
      }
      seen(event.revision);
      this.handler.progress?.(event.revision);
    }
  }
}
