import { FakeClock } from '@plinth/testing';
import { HistoryCompactor } from './compactor';
import { EmbeddedObjectStore } from './embedded';
import { StorageErrorCode } from './errors';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('HistoryCompactor', () => {
  it('compacts history older than the window, and nothing newer', async () => {
    const clock = new FakeClock();
    const store = new EmbeddedObjectStore({ clock });
    const compactor = new HistoryCompactor(store, { windowMs: 60_000, clock });
    const old = await store.create('/registry/a', bytes('1'));
    await compactor.tick();

    clock.advance(30_000);
    const mid = await store.update('/registry/a', bytes('2'), old.revision);
    await compactor.tick();
    await expect(store.get('/registry/a', { revision: old.revision })).resolves.toBeDefined();

    clock.advance(31_000);
    await store.update('/registry/a', bytes('3'), mid.revision);
    await compactor.tick();
    // The sample taken at t=0 (revision of `old`) is now older than the window.
    await expect(store.get('/registry/a', { revision: old.revision })).resolves.toBeDefined();
    await store.create('/registry/b', bytes('x'));
    clock.advance(30_000);
    await compactor.tick();
    await expect(store.get('/registry/a', { revision: old.revision })).rejects.toMatchObject({ code: StorageErrorCode.Expired });
    await expect(store.get('/registry/a', { revision: mid.revision })).resolves.toBeDefined();
    await store.close();
  });

  it('runs on its own timer once started and stops when stopped', async () => {
    const clock = new FakeClock();
    const store = new EmbeddedObjectStore({ clock });
    const compactSpy = jest.spyOn(store, 'compact');
    const compactor = new HistoryCompactor(store, { windowMs: 1_000, clock });
    await store.create('/registry/a', bytes('1'));
    compactor.start();
    await compactor.tick();
    await store.create('/registry/b', bytes('2'));
    for (let i = 0; i < 8; i++) {
      clock.advance(200);
      await compactor.tick();
    }
    expect(compactSpy).toHaveBeenCalled();
    compactor.stop();
    compactSpy.mockClear();
    await store.create('/registry/c', bytes('3'));
    clock.advance(5_000);
    expect(compactSpy).not.toHaveBeenCalled();
    await store.close();
  });

  it('reports a failing store to onError and keeps going', async () => {
    const clock = new FakeClock();
    const store = new EmbeddedObjectStore({ clock });
    const errors: unknown[] = [];
    jest.spyOn(store, 'currentRevision').mockRejectedValueOnce(new Error('down'));
    const compactor = new HistoryCompactor(store, { windowMs: 1_000, clock, onError: (err) => errors.push(err) });
    await compactor.tick();
    expect(errors).toHaveLength(1);
    await expect(compactor.tick()).resolves.toBeUndefined();
    await store.close();
  });
});
