// ObjectStore is the versioned key-value store every Plinth object lives in, shaped after the
// Kubernetes storage interface (k8s.io/apiserver/pkg/storage/interfaces.go). Values are opaque
// bytes (JSON-encoded objects by convention); revisions are the store's global, increasing
// write counter, and an object's resourceVersion is the revision of its last write.

export interface KeyValue {
  readonly key: string;
  readonly value: Uint8Array;
  // revision is the store revision of the last write of this key (its modRevision).
  readonly revision: number;
  // createRevision is the store revision at which this key was created.
  readonly createRevision: number;
}

export interface GetOptions {
  // revision reads the key as it was at this revision; 0 or absent reads the latest.
  revision?: number;
}

export interface ListOptions {
  // prefix selects the keys that start with it. It should end with '/'.
  prefix: string;
  // limit caps the number of items; 0 or absent means all.
  limit?: number;
  // continue resumes a paged list at the snapshot revision and key the token carries.
  continue?: string;
  // revision lists the keys as they were at this revision; 0 or absent lists the latest.
  // Ignored when continue is given (the token carries the revision).
  revision?: number;
}

export interface ListResult {
  readonly items: KeyValue[];
  // revision is the snapshot revision of the list, the same on every page.
  readonly revision: number;
  // continue is set when more items remain.
  readonly continue?: string;
  // remainingItemCount counts the items after this page, set when continue is.
  readonly remainingItemCount?: number;
}

export interface DeletePreconditions {
  // revision must equal the key's current revision.
  revision?: number;
  // uid must equal metadata.uid of the stored (JSON) object.
  uid?: string;
}

export interface DeleteResult {
  // deleted is the last stored state of the key.
  readonly deleted: KeyValue;
  // revision is the store revision of the deletion.
  readonly revision: number;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';

// WatchEvent is one change after the watch's start revision. For DELETED, kv is the last
// state before the deletion; `revision` is always the revision of the change itself. A
// BOOKMARK carries no kv: all changes up to its revision have been sent.
export interface WatchEvent {
  readonly type: WatchEventType;
  readonly revision: number;
  readonly kv?: KeyValue;
  readonly prevKv?: KeyValue;
}

export interface WatchOptions {
  // prefix watches all keys under it; key watches one key. Exactly one is required.
  prefix?: string;
  key?: string;
  // revision starts the watch after this revision (events with revision > it).
  // 0 or absent starts at the current revision (only future changes).
  revision?: number;
  // progressNotify asks for BOOKMARK events when the watch is idle.
  progressNotify?: boolean;
}

// Watch is a running watch: its events arrive in revision order, each once. The iterator
// throws a StorageError (Expired when the start revision was compacted) and ends after
// close().
export interface Watch extends AsyncIterable<WatchEvent> {
  close(): void;
  // queued counts the events that have arrived and that the iterator has not handed out yet
  // (absent: unknown), so that a reader may gather them into one message.
  readonly queued?: number;
}

export interface ObjectStore {
  get(key: string, options?: GetOptions): Promise<KeyValue>;
  list(options: ListOptions): Promise<ListResult>;
  // create fails with KeyExists if the key exists.
  create(key: string, value: Uint8Array): Promise<KeyValue>;
  // update is compare-and-swap: it fails with Conflict unless the key's revision equals
  // expectedRevision, and with KeyNotFound if the key does not exist.
  update(key: string, value: Uint8Array, expectedRevision: number): Promise<KeyValue>;
  // delete fails with KeyNotFound if the key does not exist and Conflict if a precondition
  // does not hold.
  delete(key: string, preconditions?: DeletePreconditions): Promise<DeleteResult>;
  watch(options: WatchOptions): Watch;
  currentRevision(): Promise<number>;
  // compact discards history before revision: reads, lists and watches at older revisions
  // fail with Expired.
  compact(revision: number): Promise<void>;
  close(): Promise<void>;
}
