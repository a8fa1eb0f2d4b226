// The messages of storage.proto mirror the ObjectStore types: a KeyValue, a list result and
// the delete preconditions have the same fields on both sides and pass through unchanged. Only
// watch events convert, for their enum type.
import { storagev1 } from '@plinth/proto';
import { KeyValue, StorageError, WatchEvent, WatchEventType, WatchOptions } from '@plinth/storage';

const wireEventType: Record<WatchEventType, storagev1.WatchEventType> = {
  ADDED: storagev1.WatchEventType.WATCH_EVENT_TYPE_ADDED,
  MODIFIED: storagev1.WatchEventType.WATCH_EVENT_TYPE_MODIFIED,
  DELETED: storagev1.WatchEventType.WATCH_EVENT_TYPE_DELETED,
  BOOKMARK: storagev1.WatchEventType.WATCH_EVENT_TYPE_BOOKMARK,
};

const eventTypeOf: (WatchEventType | undefined)[] = [];
for (const [type, wire] of Object.entries(wireEventType)) eventTypeOf[wire] = type as WatchEventType;

export function toWireEvent(event: WatchEvent): storagev1.WatchEvent {
  return { type: wireEventType[event.type], revision: event.revision, kv: event.kv, prevKv: event.prevKv };
}

export function fromWireEvent(event: storagev1.WatchEvent): WatchEvent {
  const type = eventTypeOf[event.type];
  if (type === undefined) throw StorageError.unreachable(`unknown watch event type ${event.type}`);
  return { type, revision: event.revision, kv: event.kv, prevKv: event.prevKv };
}

export function toWatchOptions(request: storagev1.WatchRequest): WatchOptions {
  return { prefix: request.prefix, key: request.key, revision: request.revision, progressNotify: request.progressNotify };
}

// requiredKv reads the key-value a successful response must carry.
export function requiredKv(kv: storagev1.KeyValue | undefined, method: string): KeyValue {
  if (kv === undefined) throw StorageError.unreachable(`${method} response without a key-value`);
  return kv;
}
