import { EmbeddedObjectStore } from './embedded';
import { CurrentRevisionReader } from './current-revision-reader';

// countingReads reads an embedded store's current revision, counting the reads and letting the
// test hold each one until it says.
function countingReads(store: EmbeddedObjectStore) {
  const held: (() => void)[] = [];
  let reads = 0;
  const read = async () => {
    reads++;
    const gate = new Promise<void>((release) => held.push(release));
    const revision = await store.currentRevision();
    await gate;
    return revision;
  };
  return { read, reads: () => reads, releaseAll: () => held.splice(0).forEach((release) => release()) };
}

const value = new TextEncoder().encode('{}');

describe('CurrentRevisionReader', () => {
  it('sends a read at once when none is on its way', async () => {
    const store = new EmbeddedObjectStore();
    const counting = countingReads(store);
    const reader = new CurrentRevisionReader(counting.read);
    const created = await store.create('/registry/leases/a', value);
    const answer = reader.read();
    expect(counting.reads()).toBe(1);
    counting.releaseAll();
    expect(await answer).toBe(created.revision);
  });

  it('answers the callers that ask while a read is on its way with one later read, which sees the writes before they asked', async () => {
    const store = new EmbeddedObjectStore();
    const counting = countingReads(store);
    const reader = new CurrentRevisionReader(counting.read);
    const first = reader.read();
    const written = await store.create('/registry/leases/b', value);
    const second = reader.read();
    const third = reader.read();
    expect(counting.reads()).toBe(1);
    counting.releaseAll();
    expect(await first).toBeLessThan(written.revision);
    await new Promise((resolve) => setImmediate(resolve));
    expect(counting.reads()).toBe(2);
    counting.releaseAll();
    expect(await Promise.all([second, third])).toEqual([written.revision, written.revision]);
  });

  it('sends the next read before the callers of the last one hear their answer, and after the send has left', async () => {
    // Each read's request leaves at the end of the turn that sent it, as node:http2 writes.
    const left: number[] = [];
    let reads = 0;
    const reader = new CurrentRevisionReader(async () => {
      const read = ++reads;
      await new Promise((resolve) => setImmediate(resolve));
      left.push(read);
      return read;
    });
    const first = reader.read();
    const second = reader.read().then((revision) => revision);
    // second asked while the first read was on its way: it waits for the second read.
    expect(reads).toBe(1);
    const heard = await first;
    expect(heard).toBe(1);
    expect(reads).toBe(2);
    expect(left).toEqual([1, 2]);
    expect(await second).toBe(2);
  });

  it('answers at once when nobody waits for the next read', async () => {
    const reader = new CurrentRevisionReader(async () => 5);
    let heard = 0;
    const answer = reader.read().then((revision) => (heard = revision));
    await Promise.resolve();
    await Promise.resolve();
    await Promise.resolve();
    expect(heard).toBe(5);
    await answer;
  });

  it('hands a failed read to the callers that shared it, and reads afresh for the next', async () => {
    let fail = true;
    const reader = new CurrentRevisionReader(async () => {
      if (fail) throw new Error('storage unreachable');
      return 7;
    });
    await expect(reader.read()).rejects.toThrow('storage unreachable');
    fail = false;
    expect(await reader.read()).toBe(7);
  });
});
