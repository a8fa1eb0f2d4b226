// watchEtcd runs one etcd watch and hands its events to a Channel, as
// k8s.io/apiserver/pkg/storage/etcd3/watcher.go does. The Watch is returned at once; etcd3
// attaches the watcher to its shared watch stream in the background.
import { Etcd3, IEvent, IWatchResponse } from 'etcd3';
import { Channel, StorageError, StorageErrorCode, Watch, WatchEvent, WatchOptions } from '@plinth/storage';
import { interpretEtcdError, interpretWatchCancel, isStreamTeardown } from './errors';
import { toKeyValue } from './key-value';

// watchEtcd registers the watch in `open` until it ends, so that closing the store ends it.
export function watchEtcd(client: Etcd3, options: WatchOptions, open: Set<Watch>): Channel<WatchEvent> {
  const invalid = invalidWatchOptions(options);
  if (invalid) return failedWatch(invalid);
  const target = options.key ?? options.prefix ?? '';
  const startRevision = options.revision ?? 0;

  const builder = client.watch().withPreviousKV();
  if (options.key !== undefined) builder.key(options.key);
  else builder.prefix(target);
  if (startRevision > 0) builder.startRevision(String(startRevision + 1));
  // watcher() rather than create(): the listeners must be in place before the first response,
  // which can arrive in the same tick as the creation.
  const watcher = builder.watcher();
  let connected = false;
  // cancelledByEtcd is set when etcd ended the watcher itself: cancelling it again would wait
  // for an answer that never comes.
  let cancelledByEtcd = false;
  const channel: Channel<WatchEvent> = new Channel<WatchEvent>(() => {
    open.delete(channel);
    if (!cancelledByEtcd) watcher.cancel().catch(() => undefined);
  });
  open.add(channel);

  // 'data' is the one source of events: etcd3 also emits 'put' and 'delete' for each event of
  // a response, and listening to both would deliver every change twice.
  watcher.on('data', (response: IWatchResponse) => {
    if (response.events.length === 0) {
      // An empty response is a progress notification: every change up to its revision was sent.
      if (options.progressNotify) channel.push({ type: 'BOOKMARK', revision: Number(response.header.revision) });
      return;
    }
    for (const event of response.events) {
      const converted = toWatchEvent(event, target);
      if (converted instanceof StorageError) {
        channel.fail(converted);
        return;
      }
      channel.push(converted);
    }
  });
  watcher.on('connected', () => {
    connected = true;
  });
  watcher.on('error', (err: Error) => {
    cancelledByEtcd = true;
    channel.fail(asError(interpretWatchCancel(err, target, startRevision)));
  });
  watcher.on('disconnected', (err: Error) => {
    // etcd3 ends its shared stream when its last watcher leaves, and a watcher that arrives
    // before the stream is gone sees that end as a disconnection. It has delivered nothing yet,
    // so etcd3 may attach it again at the same start revision.
    if (!connected && isStreamTeardown(err)) return;
    // Any other loss of the stream ends the watch: etcd3 would resume a connected watcher from
    // the revision in the last response header, which skips events of an unfinished replay.
    // The caller watches again from the last revision it saw, as a Kubernetes reflector does.
    channel.fail(asError(interpretEtcdError(err, target, startRevision)));
  });
  return channel;
}

// invalidWatchOptions names what is wrong with a watch's options, or is null.
export function invalidWatchOptions(options: WatchOptions): StorageError | null {
  const target = options.key ?? options.prefix ?? '';
  const startRevision = options.revision ?? 0;
  if ((options.key === undefined) === (options.prefix === undefined) || target === '') {
    return StorageError.invalidArgument('watch needs exactly one of key and prefix, not empty');
  }
  if (!Number.isSafeInteger(startRevision) || startRevision < 0) {
    return StorageError.invalidArgument(`invalid watch revision ${startRevision}`);
  }
  return null;
}

// toWatchEvent converts one etcd event. A deletion carries the last state as kv; without the
// previous key-value (compacted before etcd sent the event) the deletion cannot be described,
// and the watch fails with Expired so that the caller lists again.
export function toWatchEvent(event: IEvent, target: string): WatchEvent | StorageError {
  const revision = Number(event.kv.mod_revision);
  if (event.type === 'Delete') {
    if (!event.prev_kv) {
      return new StorageError(StorageErrorCode.Expired, target, `the state before the deletion at revision ${revision} has been compacted`);
    }
    return { type: 'DELETED', revision, kv: toKeyValue(event.prev_kv) };
  }
  const kv = toKeyValue(event.kv);
  if (kv.createRevision === revision) return { type: 'ADDED', revision, kv };
  return event.prev_kv ? { type: 'MODIFIED', revision, kv, prevKv: toKeyValue(event.prev_kv) } : { type: 'MODIFIED', revision, kv };
}

export function failedWatch(err: StorageError): Channel<WatchEvent> {
  const channel = new Channel<WatchEvent>();
  channel.fail(err);
  return channel;
}

export function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
