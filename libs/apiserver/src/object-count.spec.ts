import { Gauge, Registry } from '@plinth/metrics';
import { builtinDefinitions } from '@plinth/registry';
import { EmbeddedObjectStore, ObjectStore, StorageError } from '@plinth/storage';
import { FakeClock } from '@plinth/testing';
import { countObjects, countedResources, observeObjectCounts } from './object-count';

const settle = () => new Promise((r) => setImmediate(r));

describe('apiserver_storage_objects', () => {
  let store: EmbeddedObjectStore;

  beforeEach(() => (store = new EmbeddedObjectStore()));
  afterEach(() => store.close());

  it('counts the keys under a prefix, whatever their number', async () => {
    expect(await countObjects(store, '/registry/core/pods/')).toBe(0);
    for (const name of ['a', 'b', 'c']) await store.create(`/registry/core/pods/default/${name}`, new Uint8Array([1]));
    await store.create('/registry/core/podsx/default/a', new Uint8Array([1]));
    expect(await countObjects(store, '/registry/core/pods/')).toBe(3);
  });

  it('counts each stored resource once, named as kube-apiserver names it, and no virtual one', () => {
    const counted = countedResources(builtinDefinitions());
    const names = counted.map((c) => c.resource);
    expect(names).toEqual(expect.arrayContaining(['pods', 'namespaces', 'jobs.batch', 'daemonsets.apps']));
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(counted.map((c) => c.prefix)).size).toBe(counted.length);
    expect(names.some((n) => n.startsWith('subjectaccessreviews.'))).toBe(false);
  });

  it('polls at once and every period, and reports -1 for a resource storage did not count', async () => {
    const clock = new FakeClock();
    const gauge = new Registry().register(new Gauge({ name: 'apiserver_storage_objects', help: 'objects', labelNames: ['resource'] }));
    const pods = builtinDefinitions().filter((d) => d.resource === 'pods' || d.resource === 'namespaces');
    let failing = false;
    const flaky: ObjectStore = Object.create(store, {
      list: { value: (options: Parameters<ObjectStore['list']>[0]) => (failing ? Promise.reject(StorageError.unreachable('down')) : store.list(options)) },
    });
    const stop = observeObjectCounts(gauge, flaky, () => pods, clock, 60_000);
    await settle();
    expect(gauge.labels('pods').value).toBe(0);
    const [podPrefix] = countedResources(pods).filter((c) => c.resource === 'pods').map((c) => c.prefix);
    await store.create(`${podPrefix}default/a`, new Uint8Array([1]));
    await settle();
    expect(gauge.labels('pods').value).toBe(0);
    clock.advance(60_000);
    for (let i = 0; i < 5; i++) await settle();
    expect(gauge.labels('pods').value).toBe(1);
    failing = true;
    clock.advance(60_000);
    for (let i = 0; i < 5; i++) await settle();
    expect(gauge.labels('pods').value).toBe(-1);
    expect(gauge.labels('namespaces').value).toBe(-1);
    stop();
  });

  it('never polls with a period of 0', async () => {
    const gauge = new Registry().register(new Gauge({ name: 'apiserver_storage_objects', help: 'objects', labelNames: ['resource'] }));
    observeObjectCounts(gauge, store, () => builtinDefinitions(), new FakeClock(), 0)();
    await settle();
    expect(gauge.samples()).toEqual([]);
  });
});
