// RevisionTrackingStore passes every call to a store and remembers, per resource, the newest
// revision this process wrote, so that reads served from a watch cache can wait until the
// cache has seen the process's own writes (read-your-writes through one API server).
import { DeletePreconditions, DeleteResult, GetOptions, KeyValue, ListOptions, ListResult, ObjectStore, Watch, WatchOptions } from '@plinth/storage';

export class RevisionTrackingStore implements ObjectStore {
  private readonly written = new Map<string, number>();

  constructor(private readonly inner: ObjectStore) {}

  // lastWrittenRevision is the newest revision written under a resource prefix
  // (/registry/<group>/<resource>/).
  lastWrittenRevision(resourcePrefix: string): number {
    return this.written.get(resourcePrefix) ?? 0;
  }

  get(key: string, options?: GetOptions): Promise<KeyValue> {
    return this.inner.get(key, options);
  }

  list(options: ListOptions): Promise<ListResult> {
    return this.inner.list(options);
  }

  async create(key: string, value: Uint8Array): Promise<KeyValue> {
    return this.track(await this.inner.create(key, value));
  }

  async update(key: string, value: Uint8Array, expectedRevision: number): Promise<KeyValue> {
    return this.track(await this.inner.update(key, value, expectedRevision));
  }

  async delete(key: string, preconditions?: DeletePreconditions): Promise<DeleteResult> {
    const result = await this.inner.delete(key, preconditions);
    this.record(key, result.revision);
    return result;
  }

  watch(options: WatchOptions): Watch {
    return this.inner.watch(options);
  }

  currentRevision(): Promise<number> {
    return this.inner.currentRevision();
  }

  compact(revision: number): Promise<void> {
    return this.inner.compact(revision);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private track(kv: KeyValue): KeyValue {
    this.record(kv.key, kv.revision);
    return kv;
  }

  private record(key: string, revision: number): void {
    const prefix = resourcePrefixOf(key);
    if (revision > (this.written.get(prefix) ?? 0)) this.written.set(prefix, revision);
  }
}

// resourcePrefixOf cuts a key /registry/<group>/<resource>/... to its resource prefix.
// It runs on every write: it finds the fourth slash rather than splitting the key.
export function resourcePrefixOf(key: string): string {
  let slash = -1;
  for (let found = 0; found < 4; found++) {
    slash = key.indexOf('/', slash + 1);
    if (slash < 0) return key;
  }
  return key.slice(0, slash + 1);
}
