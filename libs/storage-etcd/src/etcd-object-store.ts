// EtcdObjectStore is the ObjectStore over etcd v3, in the manner of
// k8s.io/apiserver/pkg/storage/etcd3/store.go: get, list, create and update are one request
// each (a range or a txn); delete with preconditions reads first, then deletes with a compare
// on the revision it checked.
import { Etcd3 } from 'etcd3';
import {
  DeletePreconditions,
  DeleteResult,
  GetOptions,
  KeyValue,
  ListOptions,
  ListResult,
  ObjectStore,
  StorageError,
  StorageErrorCode,
  Watch,
  WatchOptions,
  checkDeletePreconditions,
  decodeContinue,
  encodeContinue,
  isStorageError,
  keyAfter,
  prefixEnd,
} from '@plinth/storage';
import { EtcdObjectStoreOptions, newEtcdClient } from './client';
import { interpretEtcdError } from './errors';
import { EtcdRequest, etcdSpan } from './etcd-span';
import { EtcdRequestMetrics } from './request-metrics';
import { bytes, toKeyValue } from './key-value';
import { LiveWatches } from './live-watches';

// anyKey is what currentRevision ranges over: only the response header is read.
const anyKey = Buffer.from([0]);

export class EtcdObjectStore implements ObjectStore {
  private readonly client: Etcd3;
  private readonly watches = new Set<Watch>();
  // readAttempts lets a read that found one endpoint unreachable try the others; writes are
  // never repeated, as a repeated txn could see its own first attempt.
  private readonly readAttempts: number;
  private readonly metrics: EtcdRequestMetrics | null;
  private readonly live: LiveWatches;

  constructor(options: EtcdObjectStoreOptions & { metrics?: EtcdRequestMetrics }) {
    this.client = newEtcdClient(options);
    this.metrics = options.metrics ?? null;
    this.readAttempts = options.endpoints.length;
    this.live = new LiveWatches(this.client, () => this.currentRevision(), this.watches);
  }

  async get(key: string, options: GetOptions = {}): Promise<KeyValue> {
    const revision = checkRevision(options.revision);
    const response = await this.read({ method: 'Range', operation: 'get', key, revision }, () => this.client.kv.range({ key: Buffer.from(key), revision }));
    const kv = response.kvs[0];
    if (!kv) throw StorageError.keyNotFound(key, Number(response.header.revision));
    return toKeyValue(kv);
  }

  async list(options: ListOptions): Promise<ListResult> {
    const { prefix } = options;
    if (!prefix) throw StorageError.invalidArgument('list needs a prefix');
    const limit = options.limit ?? 0;
    if (!Number.isSafeInteger(limit) || limit < 0) throw StorageError.invalidArgument(`invalid limit ${limit}`);
    let start = prefix;
    let revision = checkRevision(options.revision);
    if (options.continue) {
      const position = decodeContinue(options.continue, prefix);
      start = position.startKey;
      revision = position.revision;
    }
    const rangeEnd = prefixEnd(prefix);
    const response = await this.read({ method: 'Range', operation: 'list', key: start, rangeEnd, revision }, () =>
      this.client.kv.range({ key: Buffer.from(start), range_end: Buffer.from(rangeEnd), limit, revision }), prefix,
    );
    const items = response.kvs.map(toKeyValue);
    // Every page reads at the revision of the first one, which the continue token carries.
    const snapshot = revision > 0 ? revision : Number(response.header.revision);
    if (!response.more || items.length === 0) return { items, revision: snapshot };
    return {
      items,
      revision: snapshot,
      continue: encodeContinue(keyAfter(items[items.length - 1].key), prefix, snapshot),
      // count is the number of keys from this page's start to the end of the prefix.
      remainingItemCount: Number(response.count) - items.length,
    };
  }

  async create(key: string, value: Uint8Array): Promise<KeyValue> {
    const etcdKey = Buffer.from(key);
    const response = await this.write({ method: 'Txn', operation: 'create', key }, () =>
      this.client.kv.txn({
        compare: [{ key: etcdKey, target: 'Create', result: 'Equal', create_revision: 0 }],
        success: [{ request_put: { key: etcdKey, value: bytes(value) } }],
      }),
    );
    const revision = Number(response.header.revision);
    if (!response.succeeded) throw StorageError.keyExists(key, revision);
    const kv: KeyValue = { key, value, revision, createRevision: revision };
    this.live.written({ type: 'ADDED', revision, kv });
    return kv;
  }

  async update(key: string, value: Uint8Array, expectedRevision: number): Promise<KeyValue> {
    const etcdKey = Buffer.from(key);
    // A missing key has revision 0, so the compare alone would let update create it.
    const expected = Number.isSafeInteger(expectedRevision) && expectedRevision > 0 ? expectedRevision : -1;
    // The put returns the previous key-value: its createRevision is the key's, and it is the
    // prevKv of the update's watch event. On failure a keys-only range of the key tells a missing
    // key from a newer revision.
    const response = await this.write({ method: 'Txn', operation: 'update', key }, () =>
      this.client.kv.txn({
        compare: [{ key: etcdKey, target: 'Mod', result: 'Equal', mod_revision: expected }],
        success: [{ request_put: { key: etcdKey, value: bytes(value), prev_kv: true } }],
        failure: [{ request_range: { key: etcdKey, keys_only: true } }],
      }),
    );
    if (!response.succeeded) {
      const current = response.responses[0].response_range.kvs[0];
      if (!current) throw StorageError.keyNotFound(key, Number(response.header.revision));
      throw StorageError.conflict(
        key,
        'the object has been modified; please apply your changes to the latest version and try again',
        Number(current.mod_revision),
      );
    }
    const previous = response.responses[0].response_put.prev_kv;
    if (!previous) throw StorageError.unreachable(`etcd answered the update of ${key} without its previous value`);
    const prevKv = toKeyValue(previous);
    const revision = Number(response.header.revision);
    const kv: KeyValue = { key, value, revision, createRevision: prevKv.createRevision };
    this.live.written({ type: 'MODIFIED', revision, kv, prevKv });
    return kv;
  }

  async delete(key: string, preconditions: DeletePreconditions = {}): Promise<DeleteResult> {
    const etcdKey = Buffer.from(key);
    if (preconditions.revision === undefined && preconditions.uid === undefined) {
      const response = await this.write({ method: 'DeleteRange', operation: 'delete', key }, () => this.client.kv.deleteRange({ key: etcdKey, prev_kv: true }));
      const deleted = response.prev_kvs[0];
      if (!deleted) throw StorageError.keyNotFound(key, Number(response.header.revision));
      return this.deleted(toKeyValue(deleted), Number(response.header.revision));
    }
    // With only a revision precondition the compare is the check, and nothing is read first.
    let expected = preconditions.revision ?? 0;
    if (preconditions.uid !== undefined) {
      const current = await this.get(key);
      checkDeletePreconditions(current, preconditions);
      expected = current.revision;
    }
    for (;;) {
      const response = await this.write({ method: 'Txn', operation: 'delete', key }, () =>
        this.client.kv.txn({
          compare: [{ key: etcdKey, target: 'Mod', result: 'Equal', mod_revision: expected }],
          success: [{ request_delete_range: { key: etcdKey, prev_kv: true } }],
          failure: [{ request_range: { key: etcdKey } }],
        }),
      );
      const revision = Number(response.header.revision);
      if (response.succeeded) {
        const deleted = response.responses[0].response_delete_range.prev_kvs[0];
        if (!deleted) throw StorageError.keyNotFound(key, revision);
        return this.deleted(toKeyValue(deleted), revision);
      }
      const latest = response.responses[0].response_range.kvs[0];
      if (!latest) throw StorageError.keyNotFound(key, revision);
      // The key changed since it was checked: check again, and retry on the new state.
      const current = toKeyValue(latest);
      checkDeletePreconditions(current, preconditions);
      expected = current.revision;
    }
  }

  watch(options: WatchOptions): Watch {
    return this.live.watch(options);
  }

  async currentRevision(): Promise<number> {
    const response = await this.read({ method: 'Range', operation: 'currentRevision', key: '\u0000' }, () => this.client.kv.range({ key: anyKey, count_only: true }), '');
    return Number(response.header.revision);
  }

  async compact(revision: number): Promise<void> {
    try {
      const compactTo = checkRevision(revision);
      const request: EtcdRequest = { method: 'Compact', operation: 'compact', key: '', revision: compactTo };
      await etcdSpan(request, this.measured(request, () => this.client.kv.compact({ revision: compactTo, physical: true })));
    } catch (err) {
      const interpreted = interpretEtcdError(err, '', revision);
      // History before an already compacted revision is gone: nothing is left to do.
      if (isStorageError(interpreted, StorageErrorCode.Expired)) return;
      throw interpreted;
    }
  }

  async close(): Promise<void> {
    this.live.close();
    for (const watch of [...this.watches]) watch.close();
    this.client.close();
  }

  // deleted hands the watches a deletion's event from its answer.
  private deleted(deleted: KeyValue, revision: number): DeleteResult {
    this.live.written({ type: 'DELETED', revision, kv: deleted });
    return { deleted, revision };
  }

  // read sends a range request, each attempt in its own client span; errorKey is the key its
  // errors name.
  // measured counts and times a request in the etcd request metrics, when the store has them.
  private measured<T>(request: EtcdRequest, call: () => Promise<T>): () => Promise<T> {
    const metrics = this.metrics;
    return metrics ? () => metrics.measure(request.operation, request.key, call) : call;
  }

  private async read<T extends { header: { revision: string } }>(span: EtcdRequest, request: () => Promise<T>, errorKey = span.key): Promise<T> {
    let unstarted = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        return await etcdSpan(span, this.measured(span, request));
      } catch (err) {
        if (neverStarted(err) && unstarted++ === 0) continue;
        const interpreted = interpretEtcdError(err, errorKey, span.revision ?? 0);
        if (attempt < this.readAttempts && isStorageError(interpreted, StorageErrorCode.Unreachable)) continue;
        throw interpreted;
      }
    }
  }

  // write sends a txn or delete, each attempt in its own client span.
  private async write<T extends { header: { revision: string } }>(span: EtcdRequest, request: () => Promise<T>): Promise<T> {
    try {
      return await etcdSpan(span, this.measured(span, request));
    } catch (err) {
      if (!neverStarted(err)) throw interpretEtcdError(err, span.key);
    }
    // A write that never started cannot have been applied: it is safe to send once more.
    try {
      return await etcdSpan(span, this.measured(span, request));
    } catch (err) {
      throw interpretEtcdError(err, span.key);
    }
  }
}

// neverStarted recognises a call that never reached etcd: etcd 3.4 serves gRPC over TLS
// through Go's HTTP/2 server, which refuses a stream (REFUSED_STREAM) that arrives while it
// ends a cancelled watch stream, and etcd3 then replaces the channel the next call was
// waiting on. The call can be sent again as it is.
function neverStarted(err: unknown): boolean {
  const message = err instanceof Error ? err.message : '';
  return /Stream refused by server|Channel closed before call started/.test(message);
}

function checkRevision(revision: number | undefined): number {
  if (revision === undefined) return 0;
  if (!Number.isSafeInteger(revision) || revision < 0) throw StorageError.invalidArgument(`invalid revision ${revision}`);
  return revision;
}
