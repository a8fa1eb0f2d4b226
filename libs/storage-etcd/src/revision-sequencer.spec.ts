import { WatchEvent } from '@plinth/storage';
import { RevisionSequencer } from './revision-sequencer';

function event(revision: number, key = `/k/${revision}`, type: WatchEvent['type'] = 'ADDED'): WatchEvent {
  return { type, revision, kv: { key, value: Buffer.from(key), revision, createRevision: revision } };
}

function sequencer(emitted = 0): { sequencer: RevisionSequencer; out: WatchEvent[] } {
  const out: WatchEvent[] = [];
  return { sequencer: new RevisionSequencer(emitted, (e) => out.push(e)), out };
}

const revisionsOf = (events: WatchEvent[]) => events.map((e) => `${e.revision}${e.kv?.key}`);

// random is a small seeded generator, so that a failing interleaving can be replayed.
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('RevisionSequencer', () => {
  it("emits a write's event at once when it is next, and drops the watch's echo of it", () => {
    const { sequencer: s, out } = sequencer(10);
    s.written(event(11));
    expect(revisionsOf(out)).toEqual(['11/k/11']);
    s.watched([event(11)]);
    s.watched([event(12)]);
    expect(revisionsOf(out)).toEqual(['11/k/11', '12/k/12']);
    expect(s.emitted).toBe(12);
  });

  it('holds a write until the watch has delivered every lower revision', () => {
    const { sequencer: s, out } = sequencer(10);
    s.written(event(13));
    s.written(event(12));
    expect(out).toEqual([]);
    s.watched([event(11, '/other/a'), event(11, '/other/b')]);
    expect(revisionsOf(out)).toEqual(['11/other/a', '11/other/b', '12/k/12', '13/k/13']);
    s.watched([event(12), event(13), event(14)]);
    expect(revisionsOf(out)).toEqual(['11/other/a', '11/other/b', '12/k/12', '13/k/13', '14/k/14']);
  });

  it('emits a held write once when the watch delivers it first', () => {
    const { sequencer: s, out } = sequencer(10);
    s.written(event(12));
    s.watched([event(11), event(12)]);
    s.written(event(12));
    s.watched([event(13)]);
    expect(revisionsOf(out)).toEqual(['11/k/11', '12/k/12', '13/k/13']);
  });

  it('ignores a write the watch delivered before its answer came', () => {
    const { sequencer: s, out } = sequencer(10);
    s.watched([event(11)]);
    s.written(event(11));
    s.written(event(12));
    expect(revisionsOf(out)).toEqual(['11/k/11', '12/k/12']);
  });

  it('refuses a watch that goes back on what it emitted', () => {
    const { sequencer: s } = sequencer(10);
    s.watched([event(11), event(12)]);
    expect(() => s.watched([event(11)])).toThrow('the keyspace watch sent revision 11 after 12');
  });

  it('emits every revision once and in order, however writes and the watch interleave', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const next = random(seed);
      // The history: revisions 101..300, each a write of this store (one event) or another
      // writer's (one to three events).
      const history: WatchEvent[][] = [];
      const own: WatchEvent[] = [];
      for (let revision = 101; revision <= 300; revision++) {
        if (next() < 0.6) {
          const mine = event(revision);
          own.push(mine);
          history.push([mine]);
        } else {
          const count = 1 + Math.floor(next() * 3);
          history.push(Array.from({ length: count }, (_, i) => event(revision, `/other/${revision}/${i}`, 'MODIFIED')));
        }
      }
      // The watch delivers the history in order, in responses of one to four revisions; the
      // answers of the writes arrive in any order, each at any point of the watch's delivery.
      const responses: WatchEvent[][] = [];
      for (let i = 0; i < history.length; ) {
        const take = 1 + Math.floor(next() * 4);
        responses.push(history.slice(i, i + take).flat());
        i += take;
      }
      const steps: (() => void)[] = [];
      const { sequencer: s, out } = sequencer(100);
      for (const response of responses) steps.push(() => s.watched(response));
      for (const mine of own) {
        const at = Math.floor(next() * (steps.length + 1));
        steps.splice(at, 0, () => s.written(mine));
      }
      for (const step of steps) step();
      expect({ seed, emitted: revisionsOf(out) }).toEqual({ seed, emitted: revisionsOf(history.flat()) });
    }
  });
});
