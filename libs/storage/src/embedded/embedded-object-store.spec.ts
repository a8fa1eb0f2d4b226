import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runObjectStoreConformance } from '../conformance';
import { EmbeddedObjectStore } from './embedded-object-store';

runObjectStoreConformance('embedded', { create: async () => new EmbeddedObjectStore({ progressNotifyIntervalMs: 200 }) }, { progressNotify: true });

describe('EmbeddedObjectStore persistence', () => {
  let dir: string;
  const bytes = (s: string) => new TextEncoder().encode(s);
  const text = (v: Uint8Array) => new TextDecoder().decode(v);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'plinth-embedded-'));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps objects and revisions across a restart', async () => {
    const first = new EmbeddedObjectStore({ dataDir: dir });
    const a = await first.create('/registry/a', bytes('{"n":1}'));
    await first.update('/registry/a', bytes('{"n":2}'), a.revision);
    await first.create('/registry/b', bytes('{"n":3}'));
    await first.delete('/registry/b');
    const revision = await first.currentRevision();
    await first.close();

    const second = new EmbeddedObjectStore({ dataDir: dir });
    expect(await second.currentRevision()).toBe(revision);
    const got = await second.get('/registry/a');
    expect(text(got.value)).toBe('{"n":2}');
    expect(got.createRevision).toBe(a.revision);
    await expect(second.get('/registry/b')).rejects.toMatchObject({ code: 'KeyNotFound' });
    const next = await second.create('/registry/c', bytes('{}'));
    expect(next.revision).toBe(revision + 1);
    await second.close();
  });

  it('restores from the snapshot a compaction wrote, plus the writes after it', async () => {
    const first = new EmbeddedObjectStore({ dataDir: dir });
    const a = await first.create('/registry/a', bytes('1'));
    await first.update('/registry/a', bytes('2'), a.revision);
    await first.compact(await first.currentRevision());
    await first.create('/registry/b', bytes('3'));
    await first.close();

    const second = new EmbeddedObjectStore({ dataDir: dir });
    const list = await second.list({ prefix: '/registry/' });
    expect(list.items.map((kv) => [kv.key, text(kv.value)])).toEqual([
      ['/registry/a', '2'],
      ['/registry/b', '3'],
    ]);
    await expect(second.get('/registry/a', { revision: a.revision })).rejects.toMatchObject({ code: 'Expired' });
    await second.close();
  });

  it('ignores a torn last line of the log', async () => {
    const first = new EmbeddedObjectStore({ dataDir: dir });
    await first.create('/registry/a', bytes('1'));
    await first.close();
    appendFileSync(join(dir, 'wal.jsonl'), '{"r":2,"k":"/registry/b","v":"M');
    const second = new EmbeddedObjectStore({ dataDir: dir });
    expect(await second.currentRevision()).toBe(1);
    await second.close();
  });
});

describe('EmbeddedObjectStore values', () => {
  it('keeps a copy of a value that is a view into a larger buffer, and a value that owns its memory as it is', async () => {
    const store = new EmbeddedObjectStore({});
    try {
      const message = new TextEncoder().encode('head{"n":1}tail');
      const view = message.subarray(4, 11);
      await store.create('/registry/view', view);
      message.set(new TextEncoder().encode('{"n":9}'), 4);
      const kept = await store.get('/registry/view');
      expect(new TextDecoder().decode(kept.value)).toBe('{"n":1}');
      expect(kept.value.buffer.byteLength).toBe(kept.value.byteLength);

      const owned = new TextEncoder().encode('{"n":2}');
      const created = await store.create('/registry/owned', owned);
      expect((await store.get('/registry/owned')).value).toBe(owned);
      const updateView = message.subarray(4, 11);
      await store.update('/registry/owned', updateView, created.revision);
      message.set(new TextEncoder().encode('{"n":0}'), 4);
      expect(new TextDecoder().decode((await store.get('/registry/owned')).value)).toBe('{"n":9}');
    } finally {
      await store.close();
    }
  });
});
