// CacheWatcher is one watch served from a watch cache: the cache hands it every event of its
// resource in revision order (first those of the window after its start revision, then each
// new one) and it keeps those its namespace and selectors see, as kube-apiserver's
// cacheWatcher does. Objects moving into or out of the selection arrive as ADDED and DELETED.
import { KubeObject } from '@plinth/api';
import { ListPredicate } from '@plinth/registry';
import { Channel } from '@plinth/storage';

export type CacheEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

// CacheEvent is one change of the cached resource. Its encodings are made once per format and
// client apiVersion, and shared by every watcher that sends it as the same event type.
export interface CacheEvent {
  readonly type: CacheEventType;
  readonly key: string;
  readonly revision: number;
  // object is the new state, or for DELETED the last state.
  readonly object: KubeObject;
  // previous is the state before a MODIFIED.
  readonly previous?: KubeObject;
  readonly encoded: Map<string, Uint8Array>;
}

// CacheProgress says that every change up to revision has been handed out. Its bookmark's
// encodings are made once per format and client apiVersion, shared as an event's are.
export interface CacheProgress {
  readonly revision: number;
  readonly encoded: Map<string, Uint8Array>;
}

export type CachedWatchItem = { type: CacheEventType; event: CacheEvent } | { type: 'BOOKMARK'; progress: CacheProgress };

export interface CacheWatcherOptions {
  // prefix is the keys the watcher sees (a collection, or a namespace of it).
  prefix: string;
  predicate: ListPredicate;
  // startRevision: the watcher sees changes after it.
  startRevision: number;
  bookmarks: boolean;
}

export class CacheWatcher implements AsyncIterable<CachedWatchItem> {
  // lastRevision is the newest revision handed to this watcher (sent or filtered out).
  private lastRevision: number;
  private readonly channel: Channel<CachedWatchItem>;

  constructor(
    private readonly options: CacheWatcherOptions,
    onClose: (watcher: CacheWatcher) => void,
  ) {
    this.lastRevision = options.startRevision;
    this.channel = new Channel<CachedWatchItem>(() => onClose(this));
  }

  get closed(): boolean {
    return this.channel.isClosed;
  }

  // deliver takes one event; an event at or before what the watcher has seen is ignored, so a
  // watcher that replayed the window is not handed its events again.
  deliver(event: CacheEvent): void {
    if (event.revision <= this.lastRevision) return;
    this.lastRevision = event.revision;
    if (!event.key.startsWith(this.options.prefix)) return;
    const type = visibleAs(event, this.options.predicate);
    if (type) this.channel.push({ type, event });
  }

  // progress tells the watcher that every change up to its revision has been delivered.
  progress(progress: CacheProgress): void {
    if (progress.revision <= this.lastRevision) return;
    this.lastRevision = progress.revision;
    if (this.options.bookmarks) this.channel.push({ type: 'BOOKMARK', progress });
  }

  // fail ends the watch with an error after the events already queued.
  fail(err: Error): void {
    this.channel.fail(err);
  }

  close(): void {
    this.channel.close();
  }

  [Symbol.asyncIterator](): AsyncIterator<CachedWatchItem> {
    return this.channel[Symbol.asyncIterator]();
  }
}

// visibleAs is the event a watcher with this predicate sees, or null when it sees none.
export function visibleAs(event: CacheEvent, predicate: ListPredicate): CacheEventType | null {
  if (predicate.empty) return event.type;
  const matches = predicate.matches(event.object);
  if (event.type !== 'MODIFIED') return matches ? event.type : null;
  const matched = event.previous ? predicate.matches(event.previous) : false;
  if (matches) return matched ? 'MODIFIED' : 'ADDED';
  return matched ? 'DELETED' : null;
}
