// A create, update, patch or delete whose deadline is later than 34 s gives up at 34 s with the
// finisher's 504, a Status like any error (kube-apiserver's requestTimeoutUpperBound). The
// server's store holds the creates of one key; the test waits out the 34 s (idle).
import { EmbeddedObjectStore, KeyValue } from '@plinth/storage';
import { suiteServer } from './http';

const leases = '/apis/coordination.platform.io/v1/namespaces/default/leases';

// HeldWrites is an embedded store whose creates of a key naming "held" wait for release.
class HeldWrites extends EmbeddedObjectStore {
  private release: () => void = () => undefined;
  private readonly released = new Promise<void>((resolve) => (this.release = resolve));
  held = 0;

  override async create(key: string, value: Uint8Array): Promise<KeyValue> {
    if (key.includes('held')) {
      this.held++;
      await this.released;
    }
    return super.create(key, value);
  }

  letGo(): void {
    this.release();
  }
}

describe('API server: the finisher bound of writes', () => {
  const store = new HeldWrites({ progressNotifyIntervalMs: 200 });
  const server = suiteServer({}, { store });
  afterAll(() => store.close());

  it('answers a create still running at 34 s with the finisher 504 Status', async () => {
    const res = await server.request('POST', leases, { body: { metadata: { name: 'held' } } });
    store.letGo();
    expect(store.held).toBe(1);
    expect({ status: res.status, type: res.headers.get('content-type'), json: res.json }).toEqual({
      status: 504,
      type: 'application/json',
      json: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Timeout: request did not complete within requested timeout - context deadline exceeded',
        reason: 'Timeout',
        details: {},
        code: 504,
      },
    });
  }, 60_000);
});
