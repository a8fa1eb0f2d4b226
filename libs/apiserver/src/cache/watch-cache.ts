// WatchCache keeps the current objects of one resource in memory through a StoreInformer (a
// list, then a watch of storage, relisting after 410), as kube-apiserver's watch cache does. Reads wait
// until the cache has caught up with a given revision (the API server's own last write), so a
// client always reads its writes; when the cache cannot catch up in time, the caller falls
// back to storage.
import { KubeObject } from '@plinth/api';
import { Clock, LinkState } from '@plinth/machinery';
import { collectionPrefix, InformerHandler, ListPredicate, objectKey, ResourceStore, StoreInformer } from '@plinth/registry';
import { encodeContinue, keyAfter } from '@plinth/storage';

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
  private stopped = false;
  private readonly informer: StoreInformer;

  constructor(
    private readonly store: ResourceStore,
    private readonly clock: Clock,
    storageLink?: LinkState,
  ) {
    this.informer = new StoreInformer(store, this.handler(), clock, storageLink);
  }

  start(): void {
    this.informer.start();
  }

  stop(): void {
    this.stopped = true;
    this.informer.stop();
    this.release(false);
  }

  // size is the number of objects cached.
  get size(): number {
    return this.objects.size;
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

  private keyOf(object: KubeObject): string {
    return objectKey(this.store.def, object.metadata.namespace, object.metadata.name ?? '');
  }

  // handler keeps the objects current from the informer; every step moves the revision and
  // releases the readers waiting for it.
  private handler(): InformerHandler {
    return {
      replace: (objects, revision) => {
        this.objects.clear();
        for (const object of objects) this.objects.set(this.keyOf(object), Object.freeze(object));
        this.sortedKeys = null;
        this.revision = revision;
        this.ready = true;
      },
      upsert: (object) => {
        const key = this.keyOf(object);
        if (!this.objects.has(key)) this.sortedKeys = null;
        this.objects.set(key, Object.freeze(object));
      },
      remove: (object) => {
        this.objects.delete(this.keyOf(object));
        this.sortedKeys = null;
      },
      progress: (revision) => {
        this.revision = Math.max(this.revision, revision);
        this.release(true);
      },
    };
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
}
