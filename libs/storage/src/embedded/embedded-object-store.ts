// EmbeddedObjectStore is the single-process ObjectStore behind `npm start`: an ordered key
// space with per-key version history (MVCC), a revision log that watches replay from, and
// optional persistence under a data directory. It keeps etcd's semantics: one global revision,
// compare-and-swap writes, reads and watches at older revisions until they are compacted.
import { Clock, realClock } from '@plinth/machinery';
import { Channel } from '../channel';
import { decodeContinue, encodeContinue, keyAfter, prefixEnd } from '../continue-token';
import { maxRequestBytes, StorageError } from '../errors';
import {
  DeletePreconditions,
  DeleteResult,
  GetOptions,
  KeyValue,
  ListOptions,
  ListResult,
  ObjectStore,
  Watch,
  WatchEvent,
  WatchOptions,
} from '../object-store';
import { checkDeletePreconditions } from '../preconditions';
import { decodeValue, encodeValue, Journal, JournalContents } from './journal';
import { KeyHistory, toKeyValue, Version } from './key-history';
import { SortedKeys } from '../sorted-keys';

export interface EmbeddedObjectStoreOptions {
  // dataDir persists the store; without it the store lives in memory only.
  dataDir?: string;
  // progressNotifyIntervalMs is how often an idle watch that asked for progress gets a BOOKMARK.
  progressNotifyIntervalMs?: number;
  clock?: Clock;
}

interface Watcher {
  readonly start: string;
  readonly end: string;
  readonly channel: Channel<WatchEvent>;
}

export class EmbeddedObjectStore implements ObjectStore {
  private readonly histories = new Map<string, KeyHistory>();
  private readonly keys = new SortedKeys();
  // log holds every event after compactedRevision - 1, in revision order, for watch replay.
  private log: WatchEvent[] = [];
  private readonly watchers = new Set<Watcher>();
  private revision = 0;
  private compactedRevision = 0;
  private readonly journal: Journal | null = null;
  private readonly clock: Clock;
  private readonly progressNotifyIntervalMs: number;

  constructor(options: EmbeddedObjectStoreOptions = {}) {
    this.clock = options.clock ?? realClock;
    this.progressNotifyIntervalMs = options.progressNotifyIntervalMs ?? 5000;
    if (options.dataDir) {
      const { journal, contents } = Journal.open(options.dataDir);
      this.restore(contents);
      this.journal = journal;
    }
  }

  async get(key: string, options: GetOptions = {}): Promise<KeyValue> {
    const revision = this.readRevision(key, options.revision);
    const kv = this.histories.get(key)?.liveAt(revision);
    if (!kv) throw StorageError.keyNotFound(key, this.revision);
    return kv;
  }

  async list(options: ListOptions): Promise<ListResult> {
    const { prefix } = options;
    let startKey = prefix;
    let revision: number;
    if (options.continue) {
      const position = decodeContinue(options.continue, prefix);
      startKey = position.startKey;
      revision = this.readRevision(prefix, position.revision);
    } else {
      revision = this.readRevision(prefix, options.revision);
    }
    const limit = options.limit && options.limit > 0 ? options.limit : Infinity;
    const items: KeyValue[] = [];
    let remaining = 0;
    for (const key of this.keys.between(startKey, prefixEnd(prefix))) {
      const history = this.histories.get(key);
      if (items.length < limit) {
        const kv = history?.liveAt(revision);
        if (kv) items.push(kv);
      } else if (history?.at(revision)?.value) {
        // The keys after a full page are only counted (remainingItemCount), not copied out.
        remaining++;
      }
    }
    if (remaining === 0) return { items, revision };
    const last = items[items.length - 1];
    return {
      items,
      revision,
      continue: encodeContinue(keyAfter(last.key), prefix, revision),
      remainingItemCount: remaining,
    };
  }

  async create(key: string, written: Uint8Array): Promise<KeyValue> {
    checkRequestSize(key, written);
    const current = this.histories.get(key)?.latest;
    if (current?.value) throw StorageError.keyExists(key, this.revision);
    const revision = this.revision + 1;
    const value = ownedBytes(written);
    return this.put(key, value, { revision, createRevision: revision, value }, undefined);
  }

  async update(key: string, written: Uint8Array, expectedRevision: number): Promise<KeyValue> {
    checkRequestSize(key, written);
    const value = ownedBytes(written);
    const history = this.histories.get(key);
    const current = history?.latest;
    if (!history || !current?.value) throw StorageError.keyNotFound(key, this.revision);
    if (current.revision !== expectedRevision) {
      throw StorageError.conflict(
        key,
        `the object has been modified; expected revision ${expectedRevision}, current revision ${current.revision}`,
        current.revision,
      );
    }
    const prev = toKeyValue(key, current);
    return this.put(key, value, { revision: this.revision + 1, createRevision: current.createRevision, value }, prev);
  }

  async delete(key: string, preconditions?: DeletePreconditions): Promise<DeleteResult> {
    const history = this.histories.get(key);
    const current = history?.latest;
    if (!history || !current?.value) throw StorageError.keyNotFound(key, this.revision);
    const deleted = toKeyValue(key, current);
    checkDeletePreconditions(deleted, preconditions);
    const revision = ++this.revision;
    history.append({ revision, createRevision: current.createRevision, value: null });
    this.journal?.append({ r: revision, k: key });
    this.publish({ type: 'DELETED', revision, kv: deleted });
    return { deleted, revision };
  }

  watch(options: WatchOptions): Watch {
    const { start, end } = watchRange(options);
    const from = options.revision && options.revision > 0 ? options.revision : this.revision;
    let timer: { cancel(): void } | undefined;
    const channel = new Channel<WatchEvent>(() => {
      this.watchers.delete(watcher);
      timer?.cancel();
    });
    const watcher: Watcher = { start, end, channel };
    if (from + 1 < this.compactedRevision) {
      channel.fail(StorageError.expired(start, from, this.compactedRevision));
      return watchOf(channel);
    }
    for (const event of this.log) {
      if (event.revision > from && inRange(event, start, end)) channel.push(event);
    }
    this.watchers.add(watcher);
    if (options.progressNotify) {
      timer = this.clock.setInterval(() => channel.push({ type: 'BOOKMARK', revision: this.revision }), this.progressNotifyIntervalMs);
    }
    return watchOf(channel);
  }

  async currentRevision(): Promise<number> {
    return this.revision;
  }

  async compact(revision: number): Promise<void> {
    if (revision > this.revision) {
      throw StorageError.invalidArgument(`cannot compact to future revision ${revision} (current revision ${this.revision})`);
    }
    if (revision <= this.compactedRevision) {
      throw StorageError.expired('', revision, this.compactedRevision);
    }
    this.compactedRevision = revision;
    for (const [key, history] of this.histories) {
      if (history.compact(revision)) {
        this.histories.delete(key);
        this.keys.remove(key);
      }
    }
    const firstKept = this.log.findIndex((event) => event.revision >= revision);
    this.log = firstKept < 0 ? [] : this.log.slice(firstKept);
    this.journal?.rewrite(this.snapshot());
  }

  async close(): Promise<void> {
    for (const watcher of [...this.watchers]) watcher.channel.close();
    this.journal?.close();
  }

  // readRevision resolves the revision a read happens at, failing for compacted or future ones.
  private readRevision(key: string, requested: number | undefined): number {
    if (!requested || requested <= 0) return this.revision;
    if (requested < this.compactedRevision) throw StorageError.expired(key, requested, this.compactedRevision);
    if (requested > this.revision) throw StorageError.futureRevision(key, requested);
    return requested;
  }

  private put(key: string, value: Uint8Array, version: Version, prev: KeyValue | undefined): KeyValue {
    let history = this.histories.get(key);
    if (!history) {
      history = new KeyHistory(key);
      this.histories.set(key, history);
      this.keys.add(key);
    }
    this.revision = version.revision;
    history.append(version);
    this.journal?.append({ r: version.revision, k: key, v: encodeValue(value), c: version.createRevision });
    const kv = toKeyValue(key, version);
    const type = version.createRevision === version.revision ? 'ADDED' : 'MODIFIED';
    this.publish({ type, revision: version.revision, kv, prevKv: prev });
    return kv;
  }

  private publish(event: WatchEvent): void {
    this.log.push(event);
    for (const watcher of this.watchers) {
      if (inRange(event, watcher.start, watcher.end)) watcher.channel.push(event);
    }
  }

  private snapshot() {
    const keys = [];
    for (const [key, history] of this.histories) {
      const latest = history.latest;
      if (latest?.value) keys.push({ r: latest.revision, k: key, v: encodeValue(latest.value), c: latest.createRevision });
    }
    return { revision: this.revision, keys };
  }

  private restore(contents: JournalContents): void {
    for (const record of contents.snapshot.keys) this.replay(record.k, record.r, record.c, record.v, false);
    this.revision = contents.snapshot.revision;
    this.compactedRevision = contents.snapshot.revision;
    for (const record of contents.records) this.replay(record.k, record.r, record.c, record.v, true);
  }

  private replay(key: string, revision: number, createRevision: number | undefined, value: string | undefined, logged: boolean): void {
    let history = this.histories.get(key);
    if (!history) {
      history = new KeyHistory(key);
      this.histories.set(key, history);
      this.keys.add(key);
    }
    const previous = history.latest;
    const version: Version = value === undefined
      ? { revision, createRevision: previous?.createRevision ?? revision, value: null }
      : { revision, createRevision: createRevision ?? revision, value: decodeValue(value) };
    history.append(version);
    this.revision = Math.max(this.revision, revision);
    if (!logged) return;
    const prev = previous?.value ? toKeyValue(key, previous) : undefined;
    if (version.value) {
      this.log.push({ type: version.createRevision === revision ? 'ADDED' : 'MODIFIED', revision, kv: toKeyValue(key, version), prevKv: prev });
    } else if (prev) {
      this.log.push({ type: 'DELETED', revision, kv: prev });
    }
  }
}

function watchRange(options: WatchOptions): { start: string; end: string } {
  if (options.key !== undefined && options.prefix === undefined) return { start: options.key, end: keyAfter(options.key) };
  if (options.prefix !== undefined && options.key === undefined) return { start: options.prefix, end: prefixEnd(options.prefix) };
  throw StorageError.invalidArgument('watch needs exactly one of key and prefix');
}

function inRange(event: WatchEvent, start: string, end: string): boolean {
  const key = event.kv?.key;
  return key !== undefined && key >= start && key < end;
}

function watchOf(channel: Channel<WatchEvent>): Watch {
  return {
    [Symbol.asyncIterator]: () => channel[Symbol.asyncIterator](),
    close: () => channel.close(),
    get queued() {
      return channel.queued;
    },
  };
}

// checkRequestSize refuses a write etcd would refuse for its size, before anything changes.
// ownedBytes is a value the store can keep: the value itself when it owns its memory, a copy
// when it is a view into a larger buffer (a slice of a gRPC message, of Buffer's pool), which
// keeping the value would otherwise hold on to whole.
function ownedBytes(value: Uint8Array): Uint8Array {
  return value.byteOffset === 0 && value.byteLength === value.buffer.byteLength ? value : new Uint8Array(value);
}

function checkRequestSize(key: string, value: Uint8Array): void {
  if (Buffer.byteLength(key) + value.byteLength > maxRequestBytes) throw StorageError.requestTooLarge(key);
}
