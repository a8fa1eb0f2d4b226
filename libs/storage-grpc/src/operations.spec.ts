import { EmbeddedObjectStore } from '@plinth/storage';
import { storeOperations } from './operations';

// HeldRevisions is an embedded store whose revision reads wait until the test releases them,
// counting them: the reads the storage service would send to etcd.
class HeldRevisions extends EmbeddedObjectStore {
  reads = 0;
  private readonly held: (() => void)[] = [];

  override async currentRevision(): Promise<number> {
    this.reads++;
    const revision = await super.currentRevision();
    await new Promise<void>((release) => this.held.push(release));
    return revision;
  }

  release(): void {
    this.held.splice(0).forEach((release) => release());
  }
}

const value = new TextEncoder().encode('{}');

describe('storeOperations: CurrentRevision', () => {
  it('answers concurrent calls with one store read that started after each call arrived', async () => {
    const store = new HeldRevisions();
    const operations = storeOperations(store);
    const first = operations.currentRevision({});
    const written = await store.create('/registry/leases/a', value);
    // Three gateways ask after the write was acknowledged, while the first read is out.
    const later = [operations.currentRevision({}), operations.currentRevision({}), operations.currentRevision({})];
    expect(store.reads).toBe(1);
    store.release();
    expect((await first).revision).toBeLessThan(written.revision);
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.reads).toBe(2);
    store.release();
    for (const answer of await Promise.all(later)) expect(answer.revision).toBe(written.revision);
  });
});
