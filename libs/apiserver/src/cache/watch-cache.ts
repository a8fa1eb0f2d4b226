// WatchCache keeps the current objects of one resource in memory through a StoreInformer (a
// list, then one watch of storage, relisting after 410), as kube-apiserver's watch cache does,
// and serves gets, lists and watches from them. Reads wait until the cache has caught up with a
// given revision (the API server's own last write), so a client always reads its writes; when
// the cache cannot catch up in time, the caller falls back to storage.
//
// A continue token's page is served from the cache too when nothing after the token's position
// changed since its revision (the cached objects there are then those of that snapshot; the list
// handler still asks storage whether the snapshot is compacted); otherwise storage serves it, at
// that revision.
//
// Watches: the cache keeps a window of the resource's recent events, sized as kube-apiserver's
// (EventWindow: the events of the last 75 s, 100 to 102,400 of them, and at most 64 MiB of
// stored objects). A watcher starts from any
// revision inside the window (or from the revision of a list the cache served, which always is),
// replays the events after it, then gets each new event: one storage watch per resource feeds
// every watcher. Events are handed out in order, one connection's watchers together, yielding to
// the event loop every `dispatchBatch` watchers, so that thousands of watchers do not starve the
// requests and each HTTP/2 session sends its streams' frames as they are written; a watcher
// gets every event pending when a round began at once, so that its connection writes them
// together.
import { KubeObject } from '@plinth/api';
import { Clock, LinkState, Timer } from '@plinth/machinery';
import { collectionPrefix, InformerHandler, ListPredicate, objectKey, ResourceStore, StoreInformer } from '@plinth/registry';
import { ContinuePosition, decodeContinue, encodeContinue, keyAfter, prefixEnd, SortedKeys } from '@plinth/storage';
import { cacheCatchUpMs, ReadBound } from './read-bound';
import { CacheBookmark, CacheEvent, CacheEventType, CacheWatcher } from './cache-watcher';
import { defaultUpperBound, EventWindow } from './event-window';
import { keepStoredItem } from '../item-json';
import { Interner } from './interner';
import { SharedEncodings } from './shared-encodings';
import { WatcherSet } from './watcher-set';

export interface CachedPage {
  items: KubeObject[];
  revision: number;
  continue?: string;
  remainingItemCount?: number;
}

export interface CacheWatchOptions {
  namespace: string | undefined;
  predicate: ListPredicate;
  bookmarks: boolean;
  // deadline is when the watch ends (clock milliseconds); its last bookmark comes 2 s before.
  deadline: number;
  // connection is what the watcher writes to (an HTTP/2 session, an HTTP/1.1 socket): the
  // dispatch hands an event to one connection's watchers together.
  connection?: object;
}

export interface WatchCacheOptions {
  // windowSize caps how many recent events are kept for watchers starting in the past (the
  // window grows to it while its events are fresh).
  windowSize?: number;
  // dispatchBatch is how many watchers get an event before the dispatch yields.
  dispatchBatch?: number;
  // encodedEvents is how many of the newest events keep their encodings for the watchers that
  // start or fall behind (older ones are encoded again when a watcher replays them).
  encodedEvents?: number;
}

export const defaultWindowSize = defaultUpperBound;
// bookmarkTickMs is how often the cache hands a bookmark to the watchers due one (jittered by a
// quarter, as kube-apiserver's cacher does).
const bookmarkTickMs = 1000;
const bookmarkTickJitter = 0.25;
// defaultDispatchBatch: node:http2 spends less CPU a write when a session sends its frames often
// (a throw-away server writing to 10,000 streams on 10 sessions, yielding every N writes:
// 2.4-2.9 µs a write at 32 to 128, 3.3-3.7 at 256, 3.9-4.4 at 1,024 and more).
const defaultDispatchBatch = 64;
// defaultEncodedEvents: the newest 1,024 events keep their encodings for the watchers that start
// or fall behind (an event forgets them only once every watcher has been handed it); older ones
// are encoded again by a watcher replaying them. A burst's events then hold no encodings, which
// kept about 0.7 KB an event (the objects' list items are their stored bytes, item-json.ts).
// This was off (every event of the window kept them) while forgetting seemed to cost the
// all-in-one 2.3x the CPU a create at 100,000 Leases; the kept encodings were then slices of
// node's buffer pool, each keeping an 8 KiB slab, and with them in memory of their own the
// CPU a create is what it was with forgetting off (ARCHITECTURE, "Memory per stored object").
export const defaultEncodedEvents = 1024;
// unknownConnection groups the watchers started without a connection.
const unknownConnection = {};

interface Waiter {
  revision: number;
  resolve(caughtUp: boolean): void;
}

export class WatchCache {
  private readonly objects = new Map<string, KubeObject>();
  private readonly keys = new SortedKeys();
  private revision = 0;
  private ready = false;
  private waiters: Waiter[] = [];
  private stopped = false;
  private readonly informer: StoreInformer;
  private readonly dispatchBatch: number;
  private readonly encodedEvents: number;
  private readonly interner = new Interner();
  // window holds the recent events, oldest first; oldestRevision is the oldest revision a
  // watcher may start from (the relist's, until the window first drops an event).
  private readonly window: EventWindow<CacheEvent>;
  private oldestRevision = 0;
  private readonly watchers = new WatcherSet<CacheWatcher>();
  // pending holds the events (and bookmark ticks) not yet handed to every watcher.
  private pending: (CacheEvent | CacheBookmark)[] = [];
  private pendingHead = 0;
  private dispatching = false;
  // handedOutRevision is the revision of the newest event every watcher has been handed (or that
  // had no watcher to go to): older events may forget their encodings.
  private handedOutRevision = 0;
  // lastRecorded is the revision of the newest event in the window (of the relist, before one):
  // the cached objects are those of every revision from it to the cache's revision.
  private lastRecorded = 0;
  // processedRevision is the revision of the last event or progress notification the cache
  // processed (0 until the first): what its bookmarks carry.
  private processedRevision = 0;
  private bookmarkTimer: Timer | null = null;

  constructor(
    private readonly store: ResourceStore,
    private readonly clock: Clock,
    storageLink?: LinkState,
    options: WatchCacheOptions = {},
  ) {
    this.window = new EventWindow(clock, options.windowSize ?? defaultWindowSize);
    this.dispatchBatch = options.dispatchBatch ?? defaultDispatchBatch;
    this.encodedEvents = options.encodedEvents ?? defaultEncodedEvents;
    this.informer = new StoreInformer(store, this.handler(), clock, storageLink);
  }

  start(): void {
    this.informer.start();
    this.scheduleBookmarks();
  }

  stop(): void {
    this.stopped = true;
    this.informer.stop();
    this.bookmarkTimer?.cancel();
    this.release(false);
    this.clearPending();
    for (const watcher of this.watchers.snapshot()) watcher.close();
  }

  // size is the number of objects cached.
  get size(): number {
    return this.objects.size;
  }

  // watcherCount is the number of open watches the cache serves.
  get watcherCount(): number {
    return this.watchers.size;
  }

  get currentRevision(): number {
    return this.ready ? this.revision : 0;
  }

  // get returns the object (shared: callers must not change it), undefined when absent, or
  // null when the cache could not catch up with the bound's revision within its wait.
  async get(namespace: string | undefined, name: string, bound: ReadBound): Promise<KubeObject | undefined | null> {
    if (!(await this.waitFor(bound))) return null;
    return this.objects.get(objectKey(this.store.def, namespace, name));
  }

  // list returns one page of the matching objects at the cache's revision, or null when the
  // cache is behind the bound.
  async list(namespace: string | undefined, predicate: ListPredicate, limit: number, bound: ReadBound): Promise<CachedPage | null> {
    if (!(await this.waitFor(bound))) return null;
    return this.page(namespace, predicate, limit);
  }

  // continuePage returns the page a continue token asks for when the cached objects are those of
  // the token's revision, or null (storage serves it; a malformed token is storage's to refuse).
  continuePage(namespace: string | undefined, predicate: ListPredicate, limit: number, token: string): CachedPage | null {
    let position: ContinuePosition;
    try {
      position = decodeContinue(token, collectionPrefix(this.store.def, namespace));
    } catch {
      return null;
    }
    if (!this.ready || this.revision < position.revision) return null;
    if (this.lastRecorded > position.revision && !this.unchangedSince(position.revision, position.startKey, collectionEnd(this.store.def, namespace))) return null;
    return this.page(namespace, predicate, limit, position);
  }

  // unchangedSince tells whether no event after revision touched a key in [start, end): the
  // cached objects there are then those of that revision, however much the resource changed
  // elsewhere (Leases renewed in another namespace, or before the page). It needs the window to
  // hold every event after the revision.
  private unchangedSince(revision: number, start: string, end: string): boolean {
    if (revision < this.oldestRevision) return false;
    for (let index = this.window.firstAfter(revision); index < this.window.length; index++) {
      const key = this.window.at(index).key;
      if (key >= start && key < end) return false;
    }
    return true;
  }

  // watch starts a watcher after startRevision, or answers null when the cache cannot serve it:
  // it did not catch up with that revision in time, or the revision is older than its window
  // (storage may still hold that history).
  async watch(startRevision: number, options: CacheWatchOptions): Promise<CacheWatcher | null> {
    if (!(await this.waitFor({ revision: startRevision, waitMs: cacheCatchUpMs }))) return null;
    if (startRevision < this.oldestRevision) return null;
    return this.subscribe(startRevision, options);
  }

  // listAndWatch returns the matching objects at the cache's revision and a watcher of the
  // changes after them, or null when the cache is behind the bound.
  async listAndWatch(bound: ReadBound, options: CacheWatchOptions): Promise<{ items: KubeObject[]; revision: number; watcher: CacheWatcher } | null> {
    if (!(await this.waitFor(bound))) return null;
    const page = this.page(options.namespace, options.predicate, 0);
    return { items: page.items, revision: page.revision, watcher: this.subscribe(page.revision, options) };
  }

  // page cuts a page at the cache's revision, or at a continue token's position and revision.
  private page(namespace: string | undefined, predicate: ListPredicate, limit: number, from?: ContinuePosition): CachedPage {
    const prefix = collectionPrefix(this.store.def, namespace);
    const { start, end } = this.keys.range(prefix);
    const revision = from?.revision ?? this.revision;
    const items: KubeObject[] = [];
    let index = from ? Math.max(start, this.keys.lowerBound(from.startKey)) : start;
    for (; index < end && (limit <= 0 || items.length < limit); index++) {
      const object = this.objects.get(this.keys.at(index));
      if (object && predicate.matches(object)) items.push(object);
    }
    const page: CachedPage = { items, revision };
    if (index >= end) return page;
    if (predicate.empty) {
      page.remainingItemCount = end - index;
    } else if (!this.anyMatchFrom(index, end, predicate)) {
      return page;
    }
    page.continue = encodeContinue(keyAfter(this.keys.at(index - 1)), prefix, revision);
    return page;
  }

  private anyMatchFrom(start: number, end: number, predicate: ListPredicate): boolean {
    for (let index = start; index < end; index++) {
      const object = this.objects.get(this.keys.at(index));
      if (object && predicate.matches(object)) return true;
    }
    return false;
  }

  // subscribe registers a watcher and replays the window's events after startRevision to it.
  private subscribe(startRevision: number, options: CacheWatchOptions): CacheWatcher {
    const connection = options.connection ?? unknownConnection;
    const watcher = new CacheWatcher(
      {
        prefix: collectionPrefix(this.store.def, options.namespace),
        predicate: options.predicate,
        startRevision,
        bookmarks: options.bookmarks,
        startedAt: this.clock.now(),
        deadline: options.deadline,
      },
      (closed) => this.watchers.delete(closed, connection),
    );
    for (let index = this.window.firstAfter(startRevision); index < this.window.length; index++) watcher.deliver(this.window.at(index));
    this.watchers.add(watcher, connection);
    return watcher;
  }

  // keep makes an object the cache's: its repeated parts shared with the other objects, frozen.
  private keep(object: KubeObject): KubeObject {
    this.interner.shareRepeatedParts(object);
    return Object.freeze(object);
  }

  // keepStored keeps an object read from storage, listed from its stored bytes when it is a
  // built-in one (item-json.ts).
  private keepStored(object: KubeObject, stored: Uint8Array): KubeObject {
    const kept = this.keep(object);
    if (!this.store.def.unstructured) keepStoredItem(kept, stored);
    return kept;
  }

  // handler keeps the objects and the window current from the informer; every step moves the
  // revision and releases the readers waiting for it. A relist (the informer's first, or after
  // storage compacted past it) starts a new window: the watchers of the old one end, as
  // kube-apiserver's cacher ends them, and resume from their last revision (from storage, when
  // it is older than the new window).
  private handler(): InformerHandler {
    return {
      replace: (objects, revision, stored) => {
        this.objects.clear();
        objects.forEach((object, index) => this.objects.set(stored[index].key, this.keepStored(object, stored[index].value)));
        this.keys.replace(this.objects.keys());
        this.revision = revision;
        this.ready = true;
        this.window.clear();
        this.oldestRevision = revision;
        this.clearPending();
        this.lastRecorded = revision;
        for (const watcher of this.watchers.snapshot()) watcher.close();
        this.watchers.clear();
      },
      upsert: (object, revision, { key, value }) => {
        const previous = this.objects.get(key);
        if (!previous) this.keys.add(key);
        this.objects.set(key, this.keepStored(object, value));
        this.record(previous ? 'MODIFIED' : 'ADDED', key, object, revision, value.length, previous);
      },
      remove: (object, revision, { key, value }) => {
        this.objects.delete(key);
        this.keys.remove(key);
        this.record('DELETED', key, this.keep(object), revision, value.length);
      },
      progress: (revision) => {
        this.revision = Math.max(this.revision, revision);
        this.processedRevision = Math.max(this.processedRevision, revision);
        this.release(true);
      },
    };
  }

  private record(type: CacheEventType, key: string, object: KubeObject, revision: number, size: number, previous?: KubeObject): void {
    const event = new CacheEvent(type, key, revision, object, previous);
    this.lastRecorded = revision;
    this.processedRevision = Math.max(this.processedRevision, revision);
    const dropped = this.window.push(event, size);
    if (dropped) this.oldestRevision = dropped.revision;
    this.enqueue(event);
    // The event that has just left the newest `encodedEvents` forgets its encodings, if every
    // watcher has had it; else the dispatch round that hands it out forgets it after.
    const cooled = this.window.length - 1 - this.encodedEvents;
    if (cooled >= 0) {
      const old = this.window.at(cooled);
      if (old.revision <= this.handedOutRevision) old.forgetEncodings();
    }
  }

  // forgetHandedOut makes the events of a finished dispatch round that are no longer among the
  // newest `encodedEvents` forget their encodings.
  private forgetHandedOut(items: (CacheEvent | CacheBookmark)[]): void {
    for (const item of items) if (isEvent(item)) this.handedOutRevision = Math.max(this.handedOutRevision, item.revision);
    const boundary = this.window.length - 1 - this.encodedEvents;
    if (boundary < 0) return;
    const newestCooled = this.window.at(boundary).revision;
    for (const item of items) {
      if (isEvent(item) && item.revision <= newestCooled) item.forgetEncodings();
    }
  }

  // scheduleBookmarks runs the bookmark timer: about every second, the watchers whose bookmark
  // time has come get one carrying the last revision processed, queued behind the events not yet
  // handed out. Storage's progress notifications are not forwarded: they only move that
  // revision (kube-apiserver's Cacher.dispatchEvents). While the cache processed nothing, due
  // watchers are only re-armed.
  private scheduleBookmarks(): void {
    if (this.stopped) return;
    const delay = bookmarkTickMs * (1 + Math.random() * bookmarkTickJitter);
    this.bookmarkTimer = this.clock.setTimeout(() => {
      this.tickBookmarks();
      this.scheduleBookmarks();
    }, delay);
  }

  private tickBookmarks(): void {
    if (this.processedRevision > 0) {
      this.enqueue({ revision: this.processedRevision, encoded: new SharedEncodings() });
      return;
    }
    const now = this.clock.now();
    for (const watcher of this.watchers.snapshot()) if (watcher.bookmarkDue(now)) watcher.rearmBookmark(now);
  }

  private enqueue(item: CacheEvent | CacheBookmark): void {
    if (this.watchers.size === 0 && !this.dispatching) {
      if (isEvent(item)) this.handedOutRevision = item.revision;
      return;
    }
    this.pending.push(item);
    if (!this.dispatching) void this.dispatch();
  }

  // dispatch hands the pending events to the watchers in order, yielding between batches of
  // watchers. Each batch gets every event pending when the round began, so that a watcher
  // behind by several events writes them together (one write of its connection rather than one
  // an event: the fan-out's cost per event falls as it falls behind). A relist empties the
  // queue under it (pendingHead back to 0), closing the watchers the round still holds, and the
  // loop goes on from there.
  private async dispatch(): Promise<void> {
    this.dispatching = true;
    try {
      while (this.pendingHead < this.pending.length) {
        const items = this.pending.slice(this.pendingHead);
        this.pendingHead = this.pending.length;
        const watchers = this.watchers.snapshot();
        const now = this.clock.now();
        for (let start = 0; start < watchers.length; start += this.dispatchBatch) {
          if (start > 0) await yieldToEventLoop();
          const end = Math.min(watchers.length, start + this.dispatchBatch);
          for (let index = start; index < end; index++) handOut(watchers[index], items, now);
        }
        this.forgetHandedOut(items);
      }
      this.clearPending();
    } finally {
      this.dispatching = false;
    }
  }

  private clearPending(): void {
    this.pending = [];
    this.pendingHead = 0;
  }

  private async waitFor({ revision, waitMs }: ReadBound): Promise<boolean> {
    if (this.ready && this.revision >= revision) return true;
    if (this.stopped || waitMs <= 0) return false;
    return new Promise((resolve) => {
      const waiter: Waiter = { revision, resolve: () => undefined };
      const timer = this.clock.setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, waitMs);
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

// handOut gives one watcher the events and bookmark ticks of a dispatch round, in order.
function handOut(watcher: CacheWatcher, items: (CacheEvent | CacheBookmark)[], now: number): void {
  for (const item of items) {
    if (isEvent(item)) watcher.deliver(item);
    else if (watcher.bookmarkDue(now)) watcher.bookmark(item, now);
  }
}

// collectionEnd is the smallest key after every key of the collection.
function collectionEnd(def: ResourceStore['def'], namespace: string | undefined): string {
  return prefixEnd(collectionPrefix(def, namespace));
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function isEvent(item: CacheEvent | CacheBookmark): item is CacheEvent {
  return 'type' in item;
}
