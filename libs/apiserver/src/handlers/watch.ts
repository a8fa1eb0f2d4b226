// WATCH of a collection: a chunked stream of JSON events, one per line (ADDED, MODIFIED,
// DELETED, BOOKMARK, ERROR), after k8s.io/apiserver/pkg/endpoints/handlers/watch.go. Without a
// resourceVersion (or with "0") the stream starts with the current objects as ADDED events;
// sendInitialEvents adds the initial-events-end bookmark. Objects moving into or out of a
// selector arrive as ADDED and DELETED.
import { KubeObject } from '@plinth/api';
import { encodeProtobufObject, encodeProtobufStatus, encodeWatchFrame, isStatusError, resourceExpired, Status } from '@plinth/machinery';
import { ListPredicate } from '@plinth/registry';
import { isStorageError, StorageErrorCode, Watch, WatchEvent } from '@plinth/storage';
import { toStatusError } from '../http/respond';
import { ListOptions, parseResourceVersion } from '../list-options';
import { clientApiVersion, namespaceOf, present, RequestScope } from '../scope';
import { buildPredicate } from '../selectors';
import { toTable } from '../table-output';

export type ApiWatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface ApiWatchEvent {
  type: ApiWatchEventType;
  object: unknown;
}

export async function watchResource(scope: RequestScope, options: ListOptions): Promise<void> {
  const predicate = buildPredicate(scope.def, options.labelSelector, options.fieldSelector);
  const namespace = namespaceOf(scope);
  const stream = new EventStream(scope);
  const initialEvents = options.sendInitialEvents ?? (options.resourceVersion === '' || options.resourceVersion === '0');
  let startRevision = parseResourceVersion(options.resourceVersion);
  let initial: KubeObject[] = [];
  if (initialEvents) {
    const list = await scope.store.list(namespace, { predicate });
    initial = list.items;
    startRevision = list.revision;
  }
  const watch = scope.store.watch(namespace, startRevision, options.allowWatchBookmarks);
  const timeoutMs = watchTimeoutMs(scope, options);
  const timer = scope.server.clock.setTimeout(() => watch.close(), timeoutMs);
  const onClose = () => watch.close();
  scope.req.on('close', onClose);
  const ended = scope.server.watchesEnded;
  ended.addEventListener('abort', onClose);
  if (ended.aborted) watch.close();
  stream.start();
  try {
    for (const object of initial) stream.send('ADDED', object);
    if (options.sendInitialEvents && options.allowWatchBookmarks) stream.sendBookmark(String(startRevision), true);
    await pump(scope, watch, predicate, stream, startRevision);
  } catch (err) {
    stream.sendError(watchError(err, startRevision));
  } finally {
    timer.cancel();
    scope.req.off('close', onClose);
    ended.removeEventListener('abort', onClose);
    watch.close();
    stream.end();
  }
}

async function pump(scope: RequestScope, watch: Watch, predicate: ListPredicate, stream: EventStream, startRevision: number): Promise<void> {
  for await (const event of watch) {
    if (event.type === 'BOOKMARK') {
      if (event.revision > startRevision) stream.sendBookmark(String(event.revision), false);
      continue;
    }
    const translated = translate(scope, event, predicate);
    if (translated) stream.send(translated.type, translated.object);
  }
}

// translate turns a storage event into the API event a selector-filtered watcher sees.
function translate(scope: RequestScope, event: WatchEvent, predicate: ListPredicate): { type: ApiWatchEventType; object: KubeObject } | null {
  if (!event.kv) return null;
  const object = scope.store.decode(event.kv, event.revision);
  if (event.type === 'DELETED') return predicate.matches(object) ? { type: 'DELETED', object } : null;
  const matches = predicate.matches(object);
  if (event.type === 'ADDED') return matches ? { type: 'ADDED', object } : null;
  const previous = event.prevKv ? scope.store.decode(event.prevKv) : null;
  const matched = previous ? predicate.matches(previous) : false;
  if (matches && matched) return { type: 'MODIFIED', object };
  if (matches) return { type: 'ADDED', object };
  if (matched) return { type: 'DELETED', object };
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

// EventStream writes events on a chunked 200 response: newline-delimited JSON, or with protobuf
// negotiated, length-prefixed frames of enveloped WatchEvents.
class EventStream {
  private started = false;

  constructor(private readonly scope: RequestScope) {}

  start(): void {
    const { res } = this.scope;
    res.statusCode = 200;
    res.setHeader('Content-Type', this.protobuf ? 'application/vnd.kubernetes.protobuf;stream=watch' : 'application/json');
    res.setHeader('Cache-Control', 'no-cache, private');
    res.setHeader('Transfer-Encoding', 'chunked');
    res.flushHeaders();
    this.started = true;
  }

  send(type: ApiWatchEventType, object: KubeObject): void {
    const presented = present(this.scope, object);
    const body = this.scope.representation.type === 'table' ? toTable(this.scope, [presented], { resourceVersion: object.metadata.resourceVersion }) : presented;
    this.write({ type, object: body });
  }

  sendBookmark(resourceVersion: string, initialEventsEnd: boolean): void {
    const metadata: Record<string, unknown> = { resourceVersion, creationTimestamp: null };
    if (initialEventsEnd) {
      const domain = this.scope.clientGroup.endsWith('k8s.io') ? 'k8s.io' : 'platform.io';
      metadata.annotations = { [`${domain}/initial-events-end`]: 'true' };
    }
    this.write({ type: 'BOOKMARK', object: { kind: this.scope.def.kind, apiVersion: clientApiVersion(this.scope), metadata } });
  }

  sendError(status: Status): void {
    if (!this.started) this.start();
    this.write({ type: 'ERROR', object: status });
  }

  end(): void {
    if (!this.scope.res.writableEnded) this.scope.res.end();
  }

  private get protobuf(): boolean {
    return this.scope.representation.type === 'protobuf';
  }

  private write(event: ApiWatchEvent): void {
    if (this.scope.res.writableEnded || this.scope.res.destroyed) return;
    this.scope.res.write(this.protobuf ? this.protobufFrame(event) : `${JSON.stringify(event)}\n`);
  }

  private protobufFrame(event: ApiWatchEvent): Uint8Array {
    const object = event.object as { apiVersion: string; kind: string };
    const encoded = event.type === 'ERROR' ? encodeProtobufStatus(object) : encodeProtobufObject(object.apiVersion, object.kind, object);
    return encodeWatchFrame(clientApiVersion(this.scope), event.type, encoded);
  }
}
