// Informer keeps a local copy of a collection through the API: a list, then a watch from the
// list's resourceVersion with bookmarks, re-watching when the server ends the stream and
// relisting after 410 Expired, as client-go's reflector does (after a failure, with a wait that
// doubles up to 5 s, with jitter, and starts over once a list succeeds). Handlers hear of every change, and
// with a resync period of every cached object again (an update from an object to itself) each
// time the period passes, as a shared informer's resync does.
import { KubeObject } from '@plinth/api';
import { Backoff, Clock, isStatusError, Timer } from '@plinth/machinery';
import { ApiClient, WatchEvent, WatchStream } from './api-client';

export interface InformerHandlers {
  onAdd?(object: KubeObject): void;
  onUpdate?(object: KubeObject, old: KubeObject): void;
  onDelete?(object: KubeObject): void;
}

export function objectKey(object: KubeObject): string {
  return object.metadata.namespace ? `${object.metadata.namespace}/${object.metadata.name}` : (object.metadata.name ?? '');
}

class Expired extends Error {}

export class Informer {
  private readonly objects = new Map<string, KubeObject>();
  private readonly handlers: InformerHandlers[] = [];
  private stream: WatchStream | null = null;
  private stopped = false;
  private synced = false;
  private syncWaiters: (() => void)[] = [];
  private resourceVersion = '';
  private resyncTimer: Timer | null = null;
  private readonly backoff = new Backoff({ initialMs: 500, maxMs: 5000 });

  // resyncPeriodMs 0 never resyncs. transform makes what the informer keeps and hands out of
  // each object listed or watched (client-go's SetTransform): a controller that reads only
  // metadata keeps only that.
  constructor(
    private readonly client: ApiClient,
    private readonly path: string,
    private readonly clock: Clock,
    private readonly query: Record<string, string> = {},
    private readonly onError: (err: unknown) => void = () => undefined,
    private readonly resyncPeriodMs = 0,
    private readonly transform: (object: KubeObject) => KubeObject = (object) => object,
  ) {}

  addHandlers(handlers: InformerHandlers): void {
    this.handlers.push(handlers);
  }

  start(): void {
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    this.resyncTimer?.cancel();
    this.stream?.close();
  }

  hasSynced(): Promise<void> {
    if (this.synced) return Promise.resolve();
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  get(key: string): KubeObject | undefined {
    return this.objects.get(key);
  }

  list(): KubeObject[] {
    return [...this.objects.values()];
  }

  private async run(): Promise<void> {
    let needList = true;
    while (!this.stopped) {
      try {
        if (needList) await this.relist();
        needList = false;
        await this.watchOnce();
      } catch (err) {
        if (this.stopped) return;
        if (!(err instanceof Expired)) this.onError(err);
        needList = true;
        await new Promise<void>((resolve) => this.clock.setTimeout(resolve, err instanceof Expired ? 0 : this.backoff.next()));
      }
    }
  }

  private async relist(): Promise<void> {
    const list = await this.client.list(this.path, this.query);
    const seen = new Set<string>();
    for (const item of list.items) {
      const object = this.transform({ ...item } as KubeObject);
      const key = objectKey(object);
      seen.add(key);
      const old = this.objects.get(key);
      this.objects.set(key, object);
      if (!old) this.emit((h) => h.onAdd?.(object));
      else if (old.metadata.resourceVersion !== object.metadata.resourceVersion) this.emit((h) => h.onUpdate?.(object, old));
    }
    for (const [key, old] of [...this.objects]) {
      if (!seen.has(key)) {
        this.objects.delete(key);
        this.emit((h) => h.onDelete?.(old));
      }
    }
    this.resourceVersion = list.metadata.resourceVersion ?? '';
    this.backoff.reset();
    if (!this.synced) {
      this.synced = true;
      for (const resolve of this.syncWaiters.splice(0)) resolve();
      this.scheduleResync();
    }
  }

  private scheduleResync(): void {
    if (this.resyncPeriodMs <= 0 || this.stopped) return;
    this.resyncTimer = this.clock.setTimeout(() => {
      for (const object of this.objects.values()) this.emit((h) => h.onUpdate?.(object, object));
      this.scheduleResync();
    }, this.resyncPeriodMs);
  }

  private async watchOnce(): Promise<void> {
    let expired = false;
    const stream = this.client.watch(this.path, { ...this.query, resourceVersion: this.resourceVersion, allowWatchBookmarks: 'true' }, (event) => {
      if (event.type === 'ERROR') {
        if (event.object.code === 410) expired = true;
        stream.close();
        return;
      }
      this.apply(event);
    });
    this.stream = stream;
    try {
      await stream.done;
    } catch (err) {
      if (isStatusError(err) && err.code === 410) throw new Expired();
      throw err;
    }
    if (expired) throw new Expired();
  }

  private apply(event: WatchEvent): void {
    const received = event.object as KubeObject;
    if (received.metadata?.resourceVersion) this.resourceVersion = received.metadata.resourceVersion;
    if (event.type === 'BOOKMARK') return;
    const object = this.transform(received);
    const key = objectKey(object);
    const old = this.objects.get(key);
    if (event.type === 'DELETED') {
      this.objects.delete(key);
      this.emit((h) => h.onDelete?.(object));
      return;
    }
    this.objects.set(key, object);
    if (old) this.emit((h) => h.onUpdate?.(object, old));
    else this.emit((h) => h.onAdd?.(object));
  }

  private emit(fn: (h: InformerHandlers) => void): void {
    for (const handler of this.handlers) {
      try {
        fn(handler);
      } catch (err) {
        this.onError(err);
      }
    }
  }
}
