import { Registry } from '@plinth/metrics';
import { EtcdServer, FakeClock, freePort, startEtcd } from '@plinth/testing';
import { EndpointDbSize, EtcdDbSizeMonitor, observeDbSize } from './db-size';

describe('etcd database size', () => {
  let etcd: EtcdServer;

  beforeAll(async () => (etcd = await startEtcd()));
  afterAll(() => etcd.stop());

  it('asks every endpoint, and gives -1 for one that does not answer', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const monitor = new EtcdDbSizeMonitor({ endpoints: [etcd.endpoint, dead], requestTimeoutMs: 10_000 });
    try {
      const [live, down] = await monitor.sizes();
      expect(live.endpoint).toBe(etcd.endpoint);
      expect(live.bytes).toBeGreaterThan(0);
      expect(down).toEqual({ endpoint: dead, bytes: -1 });
    } finally {
      monitor.close();
    }
  });

  it('polls at once and every interval; the cluster size is absent while no member answers', async () => {
    const registry = new Registry();
    const clock = new FakeClock();
    let answers: EndpointDbSize[] = [{ endpoint: 'https://a:2379', bytes: 4096 }, { endpoint: 'https://b:2379', bytes: -1 }];
    const stop = observeDbSize(registry, async () => answers, clock, 30_000);
    const settle = async () => {
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
    };
    await settle();
    expect(registry.expose()).toContain('apiserver_storage_db_total_size_in_bytes{endpoint="https://a:2379"} 4096\n');
    expect(registry.expose()).toContain('apiserver_storage_db_total_size_in_bytes{endpoint="https://b:2379"} -1\n');
    expect(registry.expose()).toContain('apiserver_storage_size_bytes{cluster="etcd-0"} 4096\n');
    answers = [{ endpoint: 'https://a:2379', bytes: -1 }, { endpoint: 'https://b:2379', bytes: -1 }];
    clock.advance(30_000);
    await settle();
    expect(registry.expose()).toContain('apiserver_storage_db_total_size_in_bytes{endpoint="https://a:2379"} -1\n');
    expect(registry.expose()).not.toContain('apiserver_storage_size_bytes');
    stop();
  });
});
