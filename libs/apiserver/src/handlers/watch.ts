// WATCH of a collection: a chunked stream of JSON events, one per line (ADDED, MODIFIED,
// DELETED, BOOKMARK, ERROR), after k8s.io/apiserver/pkg/endpoints/handlers/watch.go. Without a
// resourceVersion (or with "0") the stream starts with the current objects as ADDED events;
// sendInitialEvents adds the initial-events-end bookmark. Objects moving into or out of a
// selector arrive as ADDED and DELETED.
import { IncomingMessage } from 'node:http';
import { KubeObject } from '@plinth/api';
import { cloneJson, encodeProtobufObject, encodeProtobufStatus, encodeWatchFrame, isStatusError, resourceExpired, Status, stringifyJson } from '@plinth/machinery';
import { ListPredicate } from '@plinth/registry';
import { isStorageError, StorageErrorCode, WatchEvent } from '@plinth/storage';
import { atRevision, CacheWatcher } from '../cache/cache-watcher';
import { resetResponse, responseGone, toStatusError } from '../http/respond';
import { ListOptions, parseResourceVersion } from '../list-options';
import { clientApiVersion, namespaceOf, present, RequestScope } from '../scope';
import { buildPredicate } from '../selectors';
import { toTable } from '../table-output';
import { partialObjectMetadata } from '../output';

export type ApiWatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface ApiWatchEvent {
  type: ApiWatchEventType;
  object: unknown;
}

// WatchItem is one event a watcher sends: a change (with the encodings shared by the watchers
// of a watch cache), or a bookmark.
type WatchItem = { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: KubeObject; shared?: Map<string, Uint8Array> } | { type: 'BOOKMARK'; revision: number; shared?: Map<string, Uint8Array> };

// WatchSource is where a watch's events come from: the resource's watch cache, or (caching off,
// or a revision the cache cannot serve) a watch of storage. consume hands each event to handle
// until the source closes (it resolves) or fails (it rejects).
interface WatchSource {
  initial: KubeObject[];
  startRevision: number;
  consume(handle: (item: WatchItem) => void): Promise<void>;
  close(): void;
}

export async function watchResource(scope: RequestScope, options: ListOptions): Promise<void> {
  const predicate = buildPredicate(scope.def, options.labelSelector, options.fieldSelector);
  const initialEvents = options.sendInitialEvents ?? (options.resourceVersion === '' || options.resourceVersion === '0');
  const requested = parseResourceVersion(options.resourceVersion);
  const timeoutMs = watchTimeoutMs(scope, options);
  const deadline = scope.server.clock.now() + timeoutMs;
  const source = (await watchCached(scope, options, predicate, initialEvents, requested, deadline)) ?? (await watchStorage(scope, predicate, initialEvents, requested));
  const { startRevision } = source;
  const stream = new EventStream(scope, watcherBufferBytes, () => {
    scope.server.countTerminatedWatcher(scope.def);
    source.close();
  });
  const timer = scope.server.clock.setTimeout(() => source.close(), Math.max(0, deadline - scope.server.clock.now()));
  // The request's context ends when its response closes: the client went away, perhaps while
  // the watch was being set up (its connection cut under a thousand streams), before any
  // listener here could hear of it.
  const onClose = () => source.close();
  const cancelClose = scope.context.onDone(onClose);
  const termination = scope.server.watches;
  termination.watching(scope.res);
  const cancelEnd = termination.onEnded(onClose);
  stream.start();
  try {
    for (const object of source.initial) stream.send('ADDED', object);
    if (options.sendInitialEvents && options.allowWatchBookmarks) stream.sendBookmark(String(startRevision), true);
    stream.boundFromHere();
    await source.consume((item) => {
      if (item.type === 'BOOKMARK') stream.sendBookmark(String(item.revision), false, item.shared);
      else stream.send(item.type, item.object, item.shared);
    });
  } catch (err) {
    stream.sendError(watchError(err, startRevision));
  } finally {
    timer.cancel();
    cancelClose();
    cancelEnd();
    source.close();
    if (termination.ended.aborted) await termination.released();
    stream.end();
  }
}

// watchCached serves the watch from the resource's watch cache, or answers null when it cannot:
// caching is off, the cache did not catch up in time, or the revision is older than its window.
// With bookmarks allowed, the cache sends them on kube-apiserver's schedule: two seconds before
// the deadline and every minute.
async function watchCached(scope: RequestScope, options: ListOptions, predicate: ListPredicate, initialEvents: boolean, requested: number, deadline: number): Promise<WatchSource | null> {
  const cache = scope.server.cacheFor(scope.def);
  if (!cache) return null;
  const watchOptions = { namespace: namespaceOf(scope), predicate, bookmarks: options.allowWatchBookmarks, deadline, connection: connectionOf(scope.req) };
  if (initialEvents) {
    const bound = await scope.server.readBound(scope.def, options.resourceVersion, requested);
    const listed = bound && (await cache.listAndWatch(bound, watchOptions));
    scope.server.countConsistentRead(scope.def, options.resourceVersion, listed ? 'cache' : 'storage');
    return listed && cachedSource(listed.watcher, listed.items, listed.revision);
  }
  const watcher = await cache.watch(requested, watchOptions);
  return watcher && cachedSource(watcher, [], requested);
}

// connectionOf is what the watch's events travel on: its HTTP/2 session (node:http2's
// compatibility request carries its stream), or its HTTP/1.1 socket.
function connectionOf(req: IncomingMessage): object {
  const stream = (req as IncomingMessage & { stream?: { session?: object } }).stream;
  return stream?.session ?? req.socket;
}

function cachedSource(watcher: CacheWatcher, initial: KubeObject[], startRevision: number): WatchSource {
  return { initial, startRevision, consume: (handle) => watcher.consume(handle), close: () => watcher.close() };
}

// watchStorage serves the watch from a watch of storage. As kube-apiserver's direct etcd watch,
// it sends no progress bookmarks.
async function watchStorage(scope: RequestScope, predicate: ListPredicate, initialEvents: boolean, requested: number): Promise<WatchSource> {
  const namespace = namespaceOf(scope);
  let startRevision = requested;
  let initial: KubeObject[] = [];
  if (initialEvents) {
    const list = await scope.store.list(namespace, { predicate });
    initial = list.items;
    startRevision = list.revision;
  }
  const watch = scope.store.watch(namespace, startRevision, false);
  async function consume(handle: (item: WatchItem) => void): Promise<void> {
    for await (const event of watch) {
      const translated = translate(scope, event, predicate);
      if (translated) handle(translated);
    }
  }
  return { initial, startRevision, consume, close: () => watch.close() };
}

// translate turns a storage event into the API event a selector-filtered watcher sees.
function translate(scope: RequestScope, event: WatchEvent, predicate: ListPredicate): WatchItem | null {
  if (!event.kv) return null;
  const object = scope.store.decode(event.kv, event.revision);
  if (event.type === 'DELETED') return predicate.matches(object) ? { type: 'DELETED', object } : null;
  const matches = predicate.matches(object);
  if (event.type === 'ADDED') return matches ? { type: 'ADDED', object } : null;
  const previous = event.prevKv ? scope.store.decode(event.prevKv) : null;
  const matched = previous ? predicate.matches(previous) : false;
  if (matches && matched) return { type: 'MODIFIED', object };
  if (matches) return { type: 'ADDED', object };
  if (matched && previous) return { type: 'DELETED', object: atRevision(previous, event.revision) };
  return null;
}

function watchError(err: unknown, startRevision: number): Status {
  if (isStorageError(err, StorageErrorCode.Expired)) {
    return resourceExpired(`too old resource version: ${startRevision} (${err.revision})`).errStatus;
  }
  if (isStatusError(err)) return err.errStatus;
  return toStatusError(err).errStatus;
}

function watchTimeoutMs(scope: RequestScope, options: ListOptions): number {
  if (options.timeoutSeconds !== undefined && options.timeoutSeconds > 0) return options.timeoutSeconds * 1000;
  const min = scope.server.options.minRequestTimeoutSeconds;
  return Math.floor((min + Math.random() * min) * 1000);
}

// watcherBufferBytes bounds what one watch holds for a client that does not read (beyond the
// response's own 16 KiB high-water mark), as kube-apiserver bounds each cacheWatcher's input
// channel. 4 MiB holds any single object (etcd takes requests up to 1.5 MiB) and about a
// thousand events of a few KiB, so a client that merely lags through a burst keeps its watch,
// while a thousand stalled watches cannot hold more than about 4 GiB.
const watcherBufferBytes = 4 * 1024 * 1024;

// endGraceMs is how long an ended watch waits for its client to take what was written.
const endGraceMs = 10_000;

// EventStream writes events on a streamed 200 response (chunked over HTTP/1.1): newline-delimited
// JSON, or with protobuf negotiated, length-prefixed frames of enveloped WatchEvents. While the
// response's buffer is full (res.write answered false) events wait in `pending` until it drains;
// when they would go past bufferLimit bytes the client is not keeping up: they are dropped and
// onOverflow ends the watch, so that the client sees its stream end and watches again from the
// last event it read. The initial events (up to boundFromHere) are not bounded, as a list's
// answer is not: they wait ahead of the rest and do not count against the bound.
class EventStream {
  private started = false;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  // unboundedBytes are the initial events still pending (at the head of pending).
  private unboundedBytes = 0;
  private bounded = false;
  private waitingForDrain = false;
  private overflowed = false;
  // encodingKeys name this watch's format and apiVersion in the shared encodings, by event type.
  private readonly encodingKeys: Record<ApiWatchEventType, string>;

  constructor(
    private readonly scope: RequestScope,
    private readonly bufferLimit: number,
    private readonly onOverflow: () => void,
  ) {
    const prefix = `${this.protobuf ? 'protobuf' : 'json'} ${clientApiVersion(scope)}`;
    this.encodingKeys = { ADDED: `${prefix} ADDED`, MODIFIED: `${prefix} MODIFIED`, DELETED: `${prefix} DELETED`, BOOKMARK: `${prefix} BOOKMARK`, ERROR: `${prefix} ERROR` };
  }

  start(): void {
    const { res } = this.scope;
    res.statusCode = 200;
    res.setHeader('Content-Type', this.protobuf ? 'application/vnd.kubernetes.protobuf;stream=watch' : 'application/json');
    res.setHeader('Cache-Control', 'no-cache, private');
    // Without a length, node:http sends an HTTP/1.1 body chunked (Transfer-Encoding: chunked,
    // as kube-apiserver's watch); HTTP/2 frames it and forbids the header.
    res.flushHeaders();
    this.started = true;
  }

  // send writes one change. Its encoding is shared through `shared` by every watcher of the
  // same format and apiVersion (a table is made for each watcher): the first watcher to send it
  // encodes it, the others only write the bytes.
  send(type: ApiWatchEventType, object: KubeObject, shared?: Map<string, Uint8Array>): void {
    if (this.scope.representation.type === 'partial') {
      this.write({ type, object: partialObjectMetadata(this.scope, object) });
      return;
    }
    if (this.scope.representation.type === 'table') {
      const presented = present(this.scope, object);
      this.write({ type, object: toTable(this.scope, [presented], { resourceVersion: object.metadata.resourceVersion }) });
      return;
    }
    const encoded = shared?.get(this.encodingKeys[type]);
    if (encoded) {
      this.writeEncoded(encoded);
      return;
    }
    this.writeShared(shared, type, { type, object: present(this.scope, object) });
  }

  // sendBookmark writes a bookmark; one of progress (not the initial-events-end) is encoded once
  // per format and apiVersion, shared through `shared` as a change's is.
  sendBookmark(resourceVersion: string, initialEventsEnd: boolean, shared?: Map<string, Uint8Array>): void {
    const encoded = initialEventsEnd ? undefined : shared?.get(this.encodingKeys.BOOKMARK);
    if (encoded) {
      this.writeEncoded(encoded);
      return;
    }
    const event: ApiWatchEvent = { type: 'BOOKMARK', object: this.bookmarkObject(resourceVersion, initialEventsEnd) };
    this.writeShared(initialEventsEnd ? undefined : shared, 'BOOKMARK', event);
  }

  // bookmarkObject is the kind's zero value as Go writes it (annotations its conversion sets
  // included), with the bookmark's revision.
  private bookmarkObject(resourceVersion: string, initialEventsEnd: boolean): unknown {
    const { metadata: zeroMetadata, ...zero } = cloneJson(this.scope.def.zeroValue ?? {}) as { metadata?: { annotations?: Record<string, string> } };
    const metadata: Record<string, unknown> = { resourceVersion, creationTimestamp: null };
    const annotations: Record<string, string> = { ...zeroMetadata?.annotations };
    if (initialEventsEnd) {
      const domain = this.scope.clientGroup.endsWith('k8s.io') ? 'k8s.io' : 'platform.io';
      annotations[`${domain}/initial-events-end`] = 'true';
    }
    if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
    return { kind: this.scope.def.kind, apiVersion: clientApiVersion(this.scope), metadata, ...zero };
  }

  // writeShared encodes and writes an event, keeping its encoding in `shared` (when given) for
  // the other watchers of this format and apiVersion.
  private writeShared(shared: Map<string, Uint8Array> | undefined, type: ApiWatchEventType, event: ApiWatchEvent): void {
    const encoded = this.encode(event);
    shared?.set(this.encodingKeys[type], encoded);
    this.writeEncoded(encoded);
  }

  sendError(status: Status): void {
    if (!this.started) this.start();
    this.write({ type: 'ERROR', object: status });
  }

  boundFromHere(): void {
    this.bounded = true;
  }

  // end writes what waits for the buffer to drain, then ends the response. A client that has
  // not taken the rest within endGraceMs (it stopped reading, or never opened its HTTP/2
  // flow-control window) gets its stream reset (HTTP/2 RST_STREAM CANCEL, the connection closed
  // over HTTP/1.1), so that the ended watch holds no buffers for as long as the client stays.
  end(): void {
    const { res } = this.scope;
    if (res.writableEnded || responseGone(res)) return;
    for (const chunk of this.pending.splice(0)) res.write(chunk);
    this.pendingBytes = 0;
    this.unboundedBytes = 0;
    res.end();
    if (res.writableFinished) return;
    const reset = this.scope.server.clock.setTimeout(() => resetResponse(res), endGraceMs);
    res.once('finish', () => reset.cancel());
    res.once('close', () => reset.cancel());
  }

  private get protobuf(): boolean {
    return this.scope.representation.type === 'protobuf';
  }

  private write(event: ApiWatchEvent): void {
    this.writeEncoded(this.encode(event));
  }

  private writeEncoded(encoded: Uint8Array): void {
    const { res } = this.scope;
    if (this.overflowed || res.writableEnded || responseGone(res)) return;
    if (!this.waitingForDrain) {
      if (!res.write(encoded)) this.waitForDrain();
      return;
    }
    if (!this.bounded) this.unboundedBytes += encoded.length;
    else if (this.pendingBytes - this.unboundedBytes + encoded.length > this.bufferLimit) {
      this.overflow();
      return;
    }
    this.pending.push(encoded);
    this.pendingBytes += encoded.length;
  }

  private waitForDrain(): void {
    this.waitingForDrain = true;
    this.scope.res.once('drain', () => {
      this.waitingForDrain = false;
      this.flush();
    });
  }

  // flush writes what waited while the buffer was full, until it is full again.
  private flush(): void {
    const { res } = this.scope;
    if (res.writableEnded || responseGone(res)) return;
    let written = 0;
    while (written < this.pending.length) {
      const chunk = this.pending[written++];
      this.pendingBytes -= chunk.length;
      this.unboundedBytes = Math.max(0, this.unboundedBytes - chunk.length);
      if (!res.write(chunk)) {
        this.pending.splice(0, written);
        this.waitForDrain();
        return;
      }
    }
    this.pending = [];
  }

  private overflow(): void {
    this.overflowed = true;
    this.pending = [];
    this.pendingBytes = 0;
    this.unboundedBytes = 0;
    this.onOverflow();
  }

  private encode(event: ApiWatchEvent): Uint8Array {
    return this.protobuf ? this.protobufFrame(event) : Buffer.from(`${stringifyJson(event, event.object)}\n`);
  }

  private protobufFrame(event: ApiWatchEvent): Uint8Array {
    const object = event.object as { apiVersion: string; kind: string };
    const encoded = event.type === 'ERROR' ? encodeProtobufStatus(object) : encodeProtobufObject(object.apiVersion, object.kind, object);
    return encodeWatchFrame(clientApiVersion(this.scope), event.type, encoded);
  }
}
