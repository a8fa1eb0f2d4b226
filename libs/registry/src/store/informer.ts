// StoreInformer keeps a consumer in step with one resource in storage: a list, then a watch
// from the list's revision, relisting after an error (410 Expired after compaction, a broken
// connection) after a wait that doubles up to 5 s, with jitter, reporting each failure and
// success to the link it depends on (which logs once when lost, once when back). It is the
// storage-side twin of a client informer, for components that sit
// beside storage (the authorizer's policy, the API server's caches).
import { KubeObject } from '@plinth/api';
import { Backoff, Clock, LinkState, unwatchedLink } from '@plinth/machinery';
import { Watch } from '@plinth/storage';
import { ResourceStore } from './resource-store';

export interface InformerHandler {
  // replace hands over the full state after a (re)list.
  replace(objects: KubeObject[], revision: number): void;
  upsert(object: KubeObject, revision: number): void;
  remove(object: KubeObject, revision: number): void;
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
    while (!this.stopped) {
      try {
        await this.listAndWatch();
      } catch (err) {
        if (this.stopped) return;
        this.link.failed(err);
        await new Promise<void>((resolve) => this.clock.setTimeout(resolve, this.backoff.next()));
      }
    }
  }

  private async listAndWatch(): Promise<void> {
    const list = await this.store.list(undefined);
    if (this.stopped) return;
    this.link.ok();
    this.backoff.reset();
    this.handler.replace(list.items, list.revision);
    this.handler.progress?.(list.revision);
    const watch = this.store.watch(undefined, list.revision, true);
    this.watch = watch;
    for await (const event of watch) {
      if (event.kv) {
        const object = this.store.decode(event.kv, event.revision);
        if (event.type === 'DELETED') this.handler.remove(object, event.revision);
        else this.handler.upsert(object, event.revision);
      }
      this.handler.progress?.(event.revision);
    }
  }
}
