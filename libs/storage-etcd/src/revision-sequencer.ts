// RevisionSequencer puts the changes of one etcd in revision order from two sources: a watch
// over the whole keyspace, which sees every revision (etcd counts a revision only for a write
// that changed something), and the answers of this store's own single-key writes, which
// arrive before the watch echoes them. A write's event is emitted at once when every lower
// revision has been emitted; otherwise it is held until they have, or dropped when the watch
// gets there first. The watch's echo of a revision emitted from its write is dropped, so every
// revision is emitted once, in order, whichever source told it first.
import { WatchEvent } from '@plinth/storage';

// maxHeld bounds the writes waiting for a lower revision, and the written revisions the watch
// has not echoed yet; past it a write's event is left to the watch, which sends it anyway.
const maxHeld = 4096;

export class RevisionSequencer {
  private emittedRevision: number;
  // held are writes' events above the next revision to emit, by revision.
  private readonly held = new Map<number, WatchEvent>();
  // echoes are the revisions emitted from writes that the watch has not delivered yet.
  private readonly echoes = new Set<number>();

  // emitted starts as the revision the keyspace watch starts after.
  constructor(
    emitted: number,
    private readonly emit: (event: WatchEvent) => void,
  ) {
    this.emittedRevision = emitted;
  }

  // emitted is the revision up to which every change has been emitted.
  get emitted(): number {
    return this.emittedRevision;
  }

  // written takes the one event of a single-key write, from the write's own answer.
  written(event: WatchEvent): void {
    const { revision } = event;
    if (revision <= this.emittedRevision) return;
    if (revision !== this.emittedRevision + 1) {
      if (this.held.size < maxHeld) this.held.set(revision, event);
      return;
    }
    if (this.echoes.size >= maxHeld) return;
    this.emitWritten(event);
    this.release();
  }

  // watched takes the events of one watch response, in the order etcd sent them. It throws when
  // the watch goes back on what was emitted: the caller then starts over.
  watched(events: readonly WatchEvent[]): void {
    for (const event of events) {
      const { revision } = event;
      if (this.echoes.delete(revision)) continue;
      if (revision < this.emittedRevision) {
        throw new Error(`the keyspace watch sent revision ${revision} after ${this.emittedRevision}`);
      }
      this.emittedRevision = revision;
      this.emit(event);
    }
    this.release();
  }

  // release emits the held writes that have become next, and forgets those the watch passed.
  private release(): void {
    if (this.held.size === 0) return;
    for (let next = this.held.get(this.emittedRevision + 1); next; next = this.held.get(this.emittedRevision + 1)) {
      this.held.delete(next.revision);
      this.emitWritten(next);
    }
    for (const revision of this.held.keys()) if (revision <= this.emittedRevision) this.held.delete(revision);
  }

  private emitWritten(event: WatchEvent): void {
    this.emittedRevision = event.revision;
    this.echoes.add(event.revision);
    this.emit(event);
  }
}
