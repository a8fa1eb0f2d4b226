// Watches of the distributed gateway (gateway → storage service → etcd), served from its watch
// cache: a list-then-watch client of a quiet resource is not sent 410 Gone when etcd compacted
// past the list's resourceVersion, and thousands of watches closing at once leave the gateway's
// link to storage serving.
import { Agent, request as httpsRequest } from 'node:https';
import { IncomingMessage } from 'node:http';
import { GrpcObjectStore, storageClientCredentials } from '@plinth/storage-grpc';
import { DistributedPlinth, startDistributed } from '../distributed';
import { eventually } from '@plinth/testing';

interface WatchEventLine {
  type: string;
  object: { kind?: string; code?: number; reason?: string; metadata?: { name?: string } };
}

interface OpenWatch {
  events: WatchEventLine[];
  ended: Promise<void>;
  waitFor(count: number): Promise<WatchEventLine[]>;
  close(): void;
}

const storageClasses = '/apis/storage.k8s.io/v1/storageclasses';
const leases = '/apis/coordination.k8s.io/v1/namespaces/default/leases';

function storageClass(name: string) {
  return { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name }, provisioner: 'example.com/quiet' };
}

function lease(name: string) {
  return { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name }, spec: { holderIdentity: 'test' } };
}

// openWatch starts a watch and resolves once its response began (the gateway has registered it).
function openWatch(plinth: DistributedPlinth, path: string, agent?: Agent): Promise<OpenWatch> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ host: '127.0.0.1', port: plinth.port, path, ca: plinth.ca, agent, headers: { authorization: 'Bearer admin-token' } }, (res: IncomingMessage) => {
      if (res.statusCode !== 200) {
        reject(new Error(`watch ${path} answered ${res.statusCode}`));
        res.resume();
        return;
      }
      const events: WatchEventLine[] = [];
      let waiting: { count: number; resolve: (events: WatchEventLine[]) => void } | null = null;
      let buffered = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffered += chunk;
        for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
          events.push(JSON.parse(buffered.slice(0, newline)) as WatchEventLine);
          buffered = buffered.slice(newline + 1);
        }
        if (waiting && events.length >= waiting.count) waiting.resolve(events);
      });
      const ended = new Promise<void>((done) => res.on('close', () => done()));
      resolve({
        events,
        ended,
        waitFor: (count) =>
          events.length >= count
            ? Promise.resolve(events)
            : Promise.race([
                new Promise<WatchEventLine[]>((done) => (waiting = { count, resolve: done })),
                ended.then(() => {
                  throw new Error(`the watch ended after ${events.length} events: ${JSON.stringify(events)}`);
                }),
              ]),
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('distributed gateway: watches from the watch cache', () => {
  let plinth: DistributedPlinth;
  let storage: GrpcObjectStore;

  beforeAll(async () => {
    plinth = await startDistributed({});
    storage = new GrpcObjectStore({ address: plinth.storageAddress, credentials: storageClientCredentials(plinth.pki.gatewayClient) });
  }, 120000);

  afterAll(async () => {
    await storage?.close();
    await plinth?.stop();
  });

  async function create(path: string, body: unknown): Promise<void> {
    const answer = await plinth.request('POST', path, 'admin-token', body);
    expect(answer.status).toBe(201);
  }

  it('lets a list-then-watch client of a quiet resource watch on after etcd compacted past its list', async () => {
    await create(storageClasses, storageClass('quiet-1'));
    for (let round = 0; round < 3; round++) {
      const listed = await plinth.request('GET', storageClasses, 'admin-token');
      expect(listed.status).toBe(200);
      const resourceVersion = JSON.parse(listed.body).metadata.resourceVersion as string;
      // Other resources are written, and etcd compacts past the list's resourceVersion.
      for (let i = 0; i < 3; i++) await create(leases, lease(`busy-${round}-${i}`));
      const current = await storage.currentRevision();
      expect(current).toBeGreaterThan(Number(resourceVersion));
      await storage.compact(current);
      const watch = await openWatch(plinth, `${storageClasses}?watch=1&resourceVersion=${resourceVersion}&timeoutSeconds=30`);
      try {
        await create(storageClasses, storageClass(`quiet-after-${round}`));
        const events = await watch.waitFor(1);
        expect(events.map((e) => [e.type, e.object.metadata?.name])).toEqual([['ADDED', `quiet-after-${round}`]]);
      } finally {
        watch.close();
      }
    }
  }, 120000);

  it('gives a list of a quiet resource a current resourceVersion once etcd reports progress', async () => {
    await create(storageClasses, storageClass('quiet-current'));
    const written = await plinth.request('POST', leases, 'admin-token', lease('elsewhere'));
    expect(written.status).toBe(201);
    const writtenRevision = Number(JSON.parse(written.body).metadata.resourceVersion);
    // etcd (progress notifications every second here) tells the gateway's storage watch that
    // nothing changed in storage classes up to its current revision.
    const listedRevision = await eventually(async () => Number(JSON.parse((await plinth.request('GET', storageClasses, 'admin-token')).body).metadata.resourceVersion), {
      until: (revision) => revision >= writtenRevision,
      what: 'the list revision catching up with the write',
    });
    expect(listedRevision).toBeGreaterThanOrEqual(writtenRevision);
  }, 60000);

  it('keeps serving writes after 2,000 watches close at once', async () => {
    const agent = new Agent({ maxSockets: Infinity, maxCachedSessions: 100 });
    const listed = JSON.parse((await plinth.request('GET', leases, 'admin-token')).body).metadata.resourceVersion as string;
    const watches: OpenWatch[] = [];
    try {
      for (let batch = 0; batch < 20; batch++) {
        const opened = await Promise.all(Array.from({ length: 100 }, () => openWatch(plinth, `${leases}?watch=1&resourceVersion=${listed}&timeoutSeconds=600`, agent)));
        watches.push(...opened);
      }
      await create(leases, lease('seen-by-all'));
      const delivered = await Promise.all(watches.map((w) => w.waitFor(1)));
      expect(delivered.every((events) => events[0].type === 'ADDED' && events[0].object.metadata?.name === 'seen-by-all')).toBe(true);
    } finally {
      for (const watch of watches) watch.close();
      agent.destroy();
    }
    await Promise.all(watches.map((w) => w.ended));
    expect(watches).toHaveLength(2000);
    const after = await openWatch(plinth, `${leases}?watch=1&resourceVersion=${listed}&timeoutSeconds=30`);
    try {
      for (let i = 0; i < 20; i++) await create(leases, lease(`after-close-${i}`));
      const events = await after.waitFor(21);
      expect(events.slice(1).map((e) => e.object.metadata?.name)).toEqual(Array.from({ length: 20 }, (_, i) => `after-close-${i}`));
    } finally {
      after.close();
    }
    expect(plinth.exited()).toEqual([]);
  }, 300000);
});
