// WatchCache keeps the current objects of one resource in memory, from a list and then a
// watch of storage (relisting after 410), as kube-apiserver's watch cache does. Reads wait
// until the cache has caught up with a given revision (the API server's own last write), so a
// client always reads its writes; when the cache cannot catch up in time, the caller falls
// back to storage.
import { KubeObject } from '@plinth/api';
import { Clock } from '@plinth/machinery';
import { ListPredicate, ResourceStore } from '@plinth/registry';
import { collectionPrefix, objectKey } from '@plinth/registry';
import { encodeContinue, keyAfter, Watch } from '@plinth/storage';

export interface CachedPage {
  items: KubeObject[];
  revision: number;
  continue?: string;
  remainingItemCount?: number;
}

interface Waiter {
  revision: number;
  resolve(caughtUp: boolean): void;
}

export class WatchCache {
  private readonly objects = new Map<string, KubeObject>();
  private sortedKeys: string[] | null = null;
  private revision = 0;
  private ready = false;
  private waiters: Waiter[] = [];
  private watch: Watch | null = null;
  private stopped = false;

  constructor(
    private readonly store: ResourceStore,
    private readonly clock: Clock,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  start(): void {
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    this.watch?.close();
    this.release(false);
  }

  get currentRevision(): number {
    return this.ready ? this.revision : 0;
  }

  // get returns the object (shared: callers must not change it), undefined when absent, or
  // null when the cache could not catch up with minRevision within the wait.
  async get(namespace: string | undefined, name: string, minRevision: number): Promise<KubeObject | undefined | null> {
    if (!(await this.waitFor(minRevision))) return null;
    return this.objects.get(objectKey(this.store.def, namespace, name));
  }

  // list returns one page of the matching objects at the cache's revision, or null when the
  // cache is behind. A continue token resumes in storage at that revision.
  async list(namespace: string | undefined, predicate: ListPredicate, limit: number, minRevision: number): Promise<CachedPage | null> {
    if (!(await this.waitFor(minRevision))) return null;
    const prefix = collectionPrefix(this.store.def, namespace);
    const items: KubeObject[] = [];
    let remaining = 0;
    let lastKey = '';
    for (const key of this.keys()) {
      if (!key.startsWith(prefix)) continue;
      const object = this.objects.get(key);
      if (!object || !predicate.matches(object)) continue;
      if (limit > 0 && items.length >= limit) {
        remaining++;
        if (!predicate.empty) break;
        continue;
      }
      items.push(object);
      lastKey = key;
    }
    const page: CachedPage = { items, revision: this.revision };
    if (remaining > 0) {
      page.continue = encodeContinue(keyAfter(lastKey), prefix, this.revision);
      if (predicate.empty) page.remainingItemCount = remaining;
    }
    return page;
  }

  private keys(): string[] {
    this.sortedKeys ??= [...this.objects.keys()].sort();
    return this.sortedKeys;
  }

  private async waitFor(revision: number, timeoutMs = 3000): Promise<boolean> {
    if (this.ready && this.revision >= revision) return true;
    if (this.stopped) return false;
    return new Promise((resolve) => {
      const waiter: Waiter = { revision, resolve: () => undefined };
      const timer = this.clock.setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs);
      waiter.resolve = (caughtUp) => {
        timer.cancel();
        resolve(caughtUp);
      };
      this.waiters.push(waiter);
    });
  }

  private release(caughtUp: boolean): void {
    const due = caughtUp ? this.waiters.filter((w) => this.revision >= w.revision) : this.waiters;
    if (due.length === 0) return;
    this.waiters = this.waiters.filter((w) => !due.includes(w));
    for (const waiter of due) waiter.resolve(caughtUp);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.listAndWatch();
      } catch (err) {
        if (this.stopped) return;
        this.onError(err);
        this.ready = false;
        await new Promise<void>((resolve) => this.clock.setTimeout(resolve, 100));
      }
    }
  }

  private async listAndWatch(): Promise<void> {
    const def = this.store.def;
    const list = await this.store.list(undefined);
    this.objects.clear();
    for (const object of list.items) this.objects.set(objectKey(def, object.metadata.namespace, object.metadata.name ?? ''), Object.freeze(object));
    this.sortedKeys = null;
    this.revision = list.revision;
    this.ready = true;
    this.release(true);
    const watch = this.store.watch(undefined, list.revision, true);
    this.watch = watch;
    for await (const event of watch) {
      if (event.kv) {
        if (event.type === 'DELETED') {
          this.objects.delete(event.kv.key);
          this.sortedKeys = null;
        } else {
          if (!this.objects.has(event.kv.key)) this.sortedKeys = null;
          this.objects.set(event.kv.key, Object.freeze(this.store.decode(event.kv)));
        }
      }
      this.revision = Math.max(this.revision, event.revision);
      this.release(true);
    }
  }
}
