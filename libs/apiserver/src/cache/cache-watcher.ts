// CacheWatcher is one watch served from a watch cache: the cache hands it every event of its
// resource in revision order (first those of the window after its start revision, then each
// new one) and it keeps those its namespace and selectors see, as kube-apiserver's
// cacheWatcher does. Objects moving into or out of the selection arrive as ADDED and DELETED.
import { KubeObject } from '@plinth/api';
import { ListPredicate } from '@plinth/registry';
import { Channel } from '@plinth/storage';
import { SharedEncodings } from './shared-encodings';

export type CacheEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

// CacheEvent is one change of the cached resource. Its encodings are made once per format and
// client apiVersion, and shared by every watcher that sends it as the same event type; the
// watch cache forgets them once the event is no longer among the newest (a watcher replaying
// older events from the window encodes them again), so that a window of 100,000 events does
// not hold 100,000 encodings.
export class CacheEvent {
  // encodings: undefined until a watcher asks, null once forgotten.
  private encodings: SharedEncodings | null | undefined = undefined;

  constructor(
    readonly type: CacheEventType,
    readonly key: string,
    readonly revision: number,
    // object is the new state, or for DELETED the last state.
    readonly object: KubeObject,
    // previous is the state before a MODIFIED.
    readonly previous: KubeObject | undefined,
  ) {}

  // encoded is the event's shared encodings, made when a watcher first asks for them; once
  // they are forgotten, each watcher that asks gets its own.
  get encoded(): SharedEncodings {
    if (this.encodings === null) return new SharedEncodings();
    return (this.encodings ??= new SharedEncodings());
  }

  // forgetEncodings drops the shared encodings (a watcher that holds them already keeps them).
  forgetEncodings(): void {
    this.encodings = null;
  }
}

// CacheBookmark is one tick of the cache's bookmark timer: every change up to revision (the last
// the cache processed) has been handed out. Its encodings are made once per format and client
// apiVersion, shared by the watchers it is due to as an event's are.
export interface CacheBookmark {
  readonly revision: number;
  readonly encoded: SharedEncodings;
}

// CachedWatchItem is what a watcher sends: a change as this watcher sees it (an object leaving its
// selection is DELETED at its last state), or a bookmark; `shared` holds the encodings shared by
// every watcher that sends the same event or bookmark.
export type CachedWatchItem =
  | { readonly type: CacheEventType; readonly object: KubeObject; readonly shared: SharedEncodings }
  | { readonly type: 'BOOKMARK'; readonly revision: number; readonly shared: SharedEncodings };

// bookmarkPeriodMs is how often a long watch gets a bookmark, and bookmarkBeforeDeadlineMs how
// long before its deadline it gets its last one (kube-apiserver's cacheWatcher.nextBookmarkTime).
export const bookmarkPeriodMs = 60_000;
export const bookmarkBeforeDeadlineMs = 2_000;

export interface CacheWatcherOptions {
  // prefix is the keys the watcher sees (a collection, or a namespace of it).
  prefix: string;
  predicate: ListPredicate;
  // startRevision: the watcher sees changes after it.
  startRevision: number;
  bookmarks: boolean;
  // startedAt and deadline (clock milliseconds) time the watcher's bookmarks.
  startedAt: number;
  deadline: number;
}

export class CacheWatcher implements AsyncIterable<CachedWatchItem> {
  // lastRevision is the newest revision handed to this watcher (sent or filtered out).
  private lastRevision: number;
  // nextBookmarkAt is when the watcher is next due a bookmark (null: never again, or never).
  private nextBookmarkAt: number | null;
  private readonly channel: Channel<CachedWatchItem>;

  constructor(
    private readonly options: CacheWatcherOptions,
    onClose: (watcher: CacheWatcher) => void,
  ) {
    this.lastRevision = options.startRevision;
    this.nextBookmarkAt = options.bookmarks ? this.bookmarkTimeAfter(options.startedAt) : null;
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
    if (type) this.channel.push({ type, object: leftSelection(type, event) ?? event.object, shared: event.encoded });
  }

  // bookmarkDue says whether the watcher's bookmark time has come.
  bookmarkDue(now: number): boolean {
    return this.nextBookmarkAt !== null && this.nextBookmarkAt <= now;
  }

  // bookmark sends a due bookmark and re-arms the timer. As kube-apiserver's cacheWatcher, it
  // sends none at or before the revision the watcher started from.
  bookmark(bookmark: CacheBookmark, now: number): void {
    this.rearmBookmark(now);
    if (bookmark.revision > this.options.startRevision) this.channel.push({ type: 'BOOKMARK', revision: bookmark.revision, shared: bookmark.encoded });
  }

  // rearmBookmark sets the next bookmark time after a due one.
  rearmBookmark(now: number): void {
    this.nextBookmarkAt = this.bookmarkTimeAfter(now);
  }

  // bookmarkTimeAfter is a minute after now, or two seconds before the deadline if that is
  // sooner; null when that has already passed.
  private bookmarkTimeAfter(now: number): number | null {
    const next = Math.min(now + bookmarkPeriodMs, this.options.deadline - bookmarkBeforeDeadlineMs);
    return next >= now ? next : null;
  }

  // fail ends the watch with an error after the events already queued.
  fail(err: Error): void {
    this.channel.fail(err);
  }

  close(): void {
    this.channel.close();
  }

  // consume hands each item to handle as the cache delivers it, in the cache's dispatch, with no
  // promise per item: how the watch handler writes thousands of watchers' events. It resolves when
  // the watcher closes and rejects when it fails or handle throws.
  consume(handle: (item: CachedWatchItem) => void): Promise<void> {
    return this.channel.consume(handle);
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

// leftSelection is the object of a change a watcher sees as DELETED because the object left its
// selection: the state it last saw, at the change's revision (as kube-apiserver's cacheWatcher
// sends it); undefined for any other event.
function leftSelection(type: CacheEventType, event: CacheEvent): KubeObject | undefined {
  if (type !== 'DELETED' || event.type !== 'MODIFIED' || !event.previous) return undefined;
  return atRevision(event.previous, event.revision);
}

// atRevision is the object with its resourceVersion set to revision.
export function atRevision(object: KubeObject, revision: number): KubeObject {
  return { ...object, metadata: { ...object.metadata, resourceVersion: String(revision) } };
}
