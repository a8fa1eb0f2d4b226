// LiveWatches serves the store's watches from one etcd watch over the whole keyspace (the
// feed), put in revision order with the store's own writes by a RevisionSequencer: an event of
// a write this store made reaches its watchers from the write's answer, without waiting for
// etcd to echo it. Every other change (other writers, other storage replicas, updates, leases)
// comes from the feed. A watch that starts before what the feed has emitted reads that history
// from an etcd watch of its own (watchEtcd), as every watch did before, and takes over from the
// feed once that one has passed the revision the feed stood at (a revision boundary both have
// reached, so nothing is sent twice or skipped). When the feed fails, the watches it serves fail
// as a lost etcd watch does (the caller watches again from its last revision), and the next
// watch starts a new feed.
import { Etcd3, IWatchResponse, Watcher } from 'etcd3';
import { Channel, StorageError, StorageErrorCode, Watch, WatchEvent, WatchOptions } from '@plinth/storage';
import { interpretEtcdError, interpretWatchCancel, isStreamTeardown } from './errors';
import { RevisionSequencer } from './revision-sequencer';
import { asError, failedWatch, invalidWatchOptions, toWatchEvent, watchEtcd } from './watch';

// maxShadow bounds the events a watch replaying its history keeps from the feed; past it the
// watch stays on its own etcd watch.
const maxShadow = 10_000;

interface Feed {
  readonly sequencer: RevisionSequencer;
  readonly watcher: Watcher;
  connected: boolean;
}

// Subscriber is a watch fed by the feed: the events after `after` of its key or prefix.
interface Subscriber {
  readonly options: WatchOptions;
  readonly after: number;
  deliver(event: WatchEvent): void;
  // progressed is the feed's progress notification: every change up to revision was delivered.
  progressed(revision: number): void;
  lost(err: Error): void;
}

export class LiveWatches {
  private feed: Feed | null = null;
  private starting: Promise<Feed | null> | null = null;
  private readonly subscribers = new Set<Subscriber>();
  private closed = false;

  // open holds every watch until it ends, so that closing the store ends it.
  constructor(
    private readonly client: Etcd3,
    private readonly currentRevision: () => Promise<number>,
    private readonly open: Set<Watch>,
  ) {}

  watch(options: WatchOptions): Watch {
    const invalid = invalidWatchOptions(options);
    if (invalid) return failedWatch(invalid);
    let detach = () => undefined as void;
    const channel: Channel<WatchEvent> = new Channel<WatchEvent>(() => {
      this.open.delete(channel);
      detach();
    });
    this.open.add(channel);
    const attach = (feed: Feed | null) => {
      if (channel.isClosed || this.closed) return;
      detach = feed ? this.subscribe(channel, options, feed) : this.replay(channel, options, null);
    };
    if (this.feed) attach(this.feed);
    else void this.startFeed().then(attach);
    return channel;
  }

  // written hands the feed the event of a write this store made, from the write's answer.
  written(event: WatchEvent): void {
    this.feed?.sequencer.written(event);
  }

  close(): void {
    this.closed = true;
    const feed = this.feed;
    this.feed = null;
    feed?.watcher.cancel().catch(() => undefined);
  }

  // subscribe attaches a watch to the feed, replaying its history first when it starts before
  // the feed's last revision. It returns how to detach it.
  private subscribe(channel: Channel<WatchEvent>, options: WatchOptions, feed: Feed): () => void {
    const start = options.revision ?? 0;
    const emitted = feed.sequencer.emitted;
    if (start !== 0 && start < emitted) return this.replay(channel, options, emitted);
    const subscriber: Subscriber = {
      options,
      after: Math.max(start, emitted),
      deliver: (event) => channel.push(event),
      progressed: (revision) => {
        if (options.progressNotify && revision >= subscriber.after) channel.push({ type: 'BOOKMARK', revision });
      },
      lost: (err) => channel.fail(err),
    };
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  // replay serves a watch from an etcd watch of its own. With handOverAt, the feed's last
  // revision when the watch started, it keeps the feed's later events meanwhile and takes over
  // from the feed once its own watch has passed handOverAt; without, it stays on its own watch.
  private replay(channel: Channel<WatchEvent>, options: WatchOptions, handOverAt: number | null): () => void {
    const own = watchEtcd(this.client, { ...options, progressNotify: true }, this.open);
    let shadow: WatchEvent[] | null = null;
    let live = false;
    const abandon = () => {
      if (subscriber) this.subscribers.delete(subscriber);
      shadow = null;
    };
    const subscriber: Subscriber | null =
      handOverAt === null
        ? null
        : {
            options,
            after: handOverAt,
            deliver: (event) => {
              if (live) channel.push(event);
              else if (shadow && shadow.push(event) > maxShadow) abandon();
            },
            progressed: (revision) => {
              if (live && options.progressNotify) channel.push({ type: 'BOOKMARK', revision });
            },
            lost: (err) => (live ? channel.fail(err) : abandon()),
          };
    if (subscriber) {
      shadow = [];
      this.subscribers.add(subscriber);
    }
    const goLive = () => {
      live = true;
      own.close();
      for (const event of shadow ?? []) channel.push(event);
      shadow = null;
    };
    const replaying = (event: WatchEvent) => {
      if (shadow === null || handOverAt === null) {
        if (event.type !== 'BOOKMARK' || options.progressNotify) channel.push(event);
        return;
      }
      // The own watch has sent everything up to handOverAt once it sends a later revision or
      // a progress notification at or past it; the feed's events after handOverAt follow.
      if (event.revision > handOverAt || (event.type === 'BOOKMARK' && event.revision === handOverAt)) {
        goLive();
        return;
      }
      if (event.type !== 'BOOKMARK' || options.progressNotify) channel.push(event);
    };
    own.consume(replaying).catch((err: unknown) => {
      if (!live) channel.fail(asError(err));
    });
    return () => {
      if (subscriber) this.subscribers.delete(subscriber);
      own.close();
    };
  }

  private startFeed(): Promise<Feed | null> {
    this.starting ??= this.openFeed().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  // openFeed watches the whole keyspace from the current revision on; null when etcd could not
  // tell that revision (the watches then use their own etcd watches).
  private async openFeed(): Promise<Feed | null> {
    let revision: number;
    try {
      revision = await this.currentRevision();
    } catch {
      return null;
    }
    if (this.closed) return null;
    const sequencer = new RevisionSequencer(revision, (event) => this.dispatch(event));
    const watcher = this.client.watch().prefix('').withPreviousKV().startRevision(String(revision + 1)).watcher();
    const feed: Feed = { sequencer, watcher, connected: false };
    this.feed = feed;
    watcher.on('data', (response: IWatchResponse) => this.received(feed, response));
    watcher.on('connected', () => {
      feed.connected = true;
    });
    watcher.on('error', (err: Error) => this.lose(feed, asError(interpretWatchCancel(err, '', revision)), false));
    watcher.on('disconnected', (err: Error) => {
      // As for watchEtcd: a watcher that arrived while etcd3 closed its stream is attached again.
      if (!feed.connected && isStreamTeardown(err)) return;
      this.lose(feed, asError(interpretEtcdError(err, '', revision)), true);
    });
    return feed;
  }

  private received(feed: Feed, response: IWatchResponse): void {
    if (this.feed !== feed) return;
    if (response.events.length === 0) {
      const revision = feed.sequencer.emitted;
      for (const subscriber of this.subscribers) subscriber.progressed(revision);
      return;
    }
    const events: WatchEvent[] = [];
    for (const raw of response.events) {
      const event = toWatchEvent(raw, '');
      if (event instanceof StorageError) {
        // The error names the key, for lose() to tell the watches it concerns.
        this.lose(feed, new StorageError(event.code, raw.kv.key.toString('utf8'), event.message, event.revision), true);
        return;
      }
      events.push(event);
    }
    try {
      feed.sequencer.watched(events);
    } catch (err) {
      this.lose(feed, StorageError.unreachable(asError(err).message), true);
    }
  }

  private dispatch(event: WatchEvent): void {
    const key = event.kv?.key ?? '';
    for (const subscriber of this.subscribers) {
      if (event.revision > subscriber.after && matches(subscriber.options, key)) subscriber.deliver(event);
    }
  }

  // lose ends the feed: a watch it serves fails with err when the change concerns it (a deletion
  // whose state was compacted), else as unreachable, so that the caller watches again.
  private lose(feed: Feed, err: Error, cancel: boolean): void {
    if (this.feed !== feed) return;
    this.feed = null;
    if (cancel) feed.watcher.cancel().catch(() => undefined);
    const key = err instanceof StorageError && err.code === StorageErrorCode.Expired ? err.key : null;
    const subscribers = [...this.subscribers];
    this.subscribers.clear();
    for (const subscriber of subscribers) {
      subscriber.lost(key !== null && matches(subscriber.options, key) ? err : StorageError.unreachable(`the store's watch of etcd ended: ${err.message}`));
    }
  }
}

function matches(options: WatchOptions, key: string): boolean {
  return options.key !== undefined ? key === options.key : key.startsWith(options.prefix ?? '');
}
