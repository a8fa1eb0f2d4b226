// Consistent reads across gateway replicas: two gateways over one storage service and etcd,
// each with its own watch caches. A read at resourceVersion "" on one gateway sees every write
// finished before it on the other (kube-apiserver reads etcd for it; a gateway waits until its
// cache has seen storage's current revision, or reads storage), and a watch from such a list's
// resourceVersion misses nothing written after it.
import { Agent, request as httpsRequest } from 'node:https';
import { eventually } from '@plinth/testing';
import { Cluster, startCluster } from './cluster';

const adminToken = 'admin-token';
const namespace = 'consistent-reads';
const leases = `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`;

interface LeaseList {
  metadata: { resourceVersion: string; continue?: string };
  items: { metadata: { name: string } }[];
}

describe('consistent reads across two gateways', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await startCluster({ gateways: 2 });
    expect((await cluster.request(0, 'POST', '/api/v1/namespaces', adminToken, { metadata: { name: namespace } })).status).toBe(201);
    // Both gateways' lease caches are running before the loop: the reads below are the
    // ones a lagging cache would answer.
    for (const gateway of [0, 1]) {
      const answer = await cluster.request(gateway, 'GET', leases, adminToken);
      expect(`${answer.status} ${answer.body}`).toMatch(/^200 /);
    }
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  const create = async (gateway: number, name: string) => {
    const answer = await cluster.request(gateway, 'POST', leases, adminToken, { metadata: { name }, spec: { holderIdentity: name } });
    expect(answer.status).toBe(201);
  };
  const list = async (gateway: number, query = ''): Promise<LeaseList> => {
    const answer = await cluster.request(gateway, 'GET', `${leases}${query}`, adminToken);
    expect(answer.status).toBe(200);
    return JSON.parse(answer.body) as LeaseList;
  };
  const names = (l: LeaseList) => l.items.map((item) => item.metadata.name);

  // consistentReads is a gateway's count of consistent reads of a resource by what served them.
  const consistentReads = async (gateway: number, resource: string): Promise<{ cache: number; storage: number }> => {
    const metrics = (await cluster.request(gateway, 'GET', '/metrics', adminToken)).body;
    const count = (source: string) => {
      const line = metrics.split('\n').find((l) => l.startsWith(`plinth_watch_cache_consistent_reads_total{resource="${resource}",source="${source}"} `));
      return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
    };
    return { cache: count('cache'), storage: count('storage') };
  };
  const total = (counts: { cache: number; storage: number }) => counts.cache + counts.storage;

  it('lists and gets on one gateway what was created on the other just before, every time, counting each read by what served it', async () => {
    const before = [await consistentReads(0, 'leases.coordination.platform.io'), await consistentReads(1, 'leases.coordination.platform.io')];
    for (let i = 0; i < 40; i++) {
      const [writer, reader] = i % 2 === 0 ? [0, 1] : [1, 0];
      await create(writer, `loop-${i}`);
      expect(names(await list(reader))).toContain(`loop-${i}`);
      expect((await cluster.request(reader, 'GET', `${leases}/loop-${i}`, adminToken)).status).toBe(200);
    }
    // A list and a get on each gateway 20 times; reads at a resourceVersion are not counted.
    expect((await list(0, '?resourceVersion=0')).items.length).toBeGreaterThanOrEqual(40);
    const after = [await consistentReads(0, 'leases.coordination.platform.io'), await consistentReads(1, 'leases.coordination.platform.io')];
    expect(after.map((counts, gateway) => total(counts) - total(before[gateway]))).toEqual([40, 40]);
  }, 120_000);

  it('counts the consistent read of a resource whose cache has just started as served by storage', async () => {
    // Nothing read runtimeclasses on gateway 1 before: its watch cache starts with this read, and
    // has listed nothing yet.
    const path = '/apis/node.k8s.io/v1/runtimeclasses';
    const before = await consistentReads(1, 'runtimeclasses.node.platform.io');
    expect(before).toEqual({ cache: 0, storage: 0 });
    expect((await cluster.request(1, 'GET', path, adminToken)).status).toBe(200);
    expect(await consistentReads(1, 'runtimeclasses.node.platform.io')).toEqual({ cache: 0, storage: 1 });
  }, 60_000);

  it('gets on one gateway what the other acknowledged before the GET was sent, while revision reads are always on their way', async () => {
    // GETs in a loop on both gateways keep a revision read on its way almost always, in each
    // gateway and in the storage service, which both share them: a GET that arrives while one
    // is out must wait for the next, as a read taken before the write would miss it.
    await create(0, 'steady');
    const agents = [new Agent({ keepAlive: true, ca: cluster.ca }), new Agent({ keepAlive: true, ca: cluster.ca })];
    let running = true;
    let background = 0;
    const loop = async (gateway: number) => {
      while (running) {
        const answer = await cluster.request(gateway, 'GET', `${leases}/steady`, adminToken, undefined, agents[gateway]);
        expect(answer.status).toBe(200);
        background++;
      }
    };
    const loops = [0, 1, 0, 1, 0, 1, 0, 1].map(loop);
    try {
      for (let i = 0; i < 60; i++) {
        const [writer, reader] = i % 2 === 0 ? [0, 1] : [1, 0];
        await create(writer, `shared-${i}`);
        const answer = await cluster.request(reader, 'GET', `${leases}/shared-${i}`, adminToken, undefined, agents[reader]);
        expect(`${answer.status} shared-${i}`).toBe(`200 shared-${i}`);
      }
    } finally {
      running = false;
      await Promise.all(loops);
      for (const agent of agents) agent.destroy();
    }
    // The loops did run beside the checked GETs.
    expect(background).toBeGreaterThan(60);
  }, 120_000);

  it('lists on one gateway what the other created while its cache had lost its storage watch', async () => {
    // A restarted storage service ends every cache's watch; each gateway's cache watches again
    // after its backoff (up to seconds), and until then it holds the objects of before.
    const storage = cluster.members.get('storage');
    if (!storage) throw new Error('no storage member');
    await storage.kill('SIGKILL');
    await storage.start();
    // Gateway 1 reaches storage again (a read of storage answers) before its cache, whose next
    // try comes after its backoff.
    let answered = 0;
    await eventually(async () => (answered = (await cluster.request(1, 'GET', '/api/v1/namespaces', adminToken)).status) === 200, {
      what: () => `gateway 1 answering after the storage restart (last answer ${answered})`,
      timeoutMs: 60_000,
    });
    let created = 0;
    await eventually(async () => (created = (await cluster.request(0, 'POST', leases, adminToken, { metadata: { name: 'after-restart' }, spec: { holderIdentity: 'x' } })).status) === 201, {
      what: () => `a create after the storage restart (last answer ${created})`,
      timeoutMs: 60_000,
    });
    expect(names(await list(1))).toContain('after-restart');
    expect((await cluster.request(1, 'GET', `${leases}/after-restart`, adminToken)).status).toBe(200);
  }, 120_000);

  it('pages through on one gateway everything created on the other just before', async () => {
    for (let i = 0; i < 5; i++) await create(0, `paged-${i}`);
    const seen: string[] = [];
    let page = await list(1, '?limit=3');
    seen.push(...names(page));
    while (page.metadata.continue) {
      page = await list(1, `?limit=3&continue=${encodeURIComponent(page.metadata.continue)}`);
      seen.push(...names(page));
    }
    expect(seen).toEqual(expect.arrayContaining(['paged-0', 'paged-1', 'paged-2', 'paged-3', 'paged-4']));
  }, 60_000);

  it('sees on a watch from the other gateway list resourceVersion every later create', async () => {
    await create(0, 'before-watch');
    const listed = await list(1);
    expect(names(listed)).toContain('before-watch');
    const watch = openWatch(cluster, 1, `${leases}?watch=true&resourceVersion=${listed.metadata.resourceVersion}`);
    try {
      await create(0, 'after-watch');
      const event = await watch.until((e) => e.object.metadata.name === 'after-watch');
      expect(event.type).toBe('ADDED');
      expect(watch.events.map((e) => e.object.metadata.name)).not.toContain('before-watch');
    } finally {
      watch.close();
    }
  }, 60_000);
});

interface WatchEvent {
  type: string;
  object: { metadata: { name: string } };
}

// openWatch streams a watch's events from a gateway; until resolves with the first event that
// matches (the test's timeout bounds the wait) and fails when the stream ends first.
function openWatch(cluster: Cluster, gateway: number, path: string) {
  const events: WatchEvent[] = [];
  let listeners: (() => void)[] = [];
  let ended: Error | null = null;
  const notify = () => listeners.forEach((listener) => listener());
  const req = httpsRequest({ host: '127.0.0.1', port: cluster.gatewayPort(gateway), path, ca: cluster.ca, agent: false, headers: { authorization: `Bearer ${adminToken}` } }, (res) => {
    let buffered = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        if (line) events.push(JSON.parse(line) as WatchEvent);
      }
      notify();
    });
    res.on('close', () => {
      ended = new Error(`the watch ended (status ${res.statusCode}) after ${events.length} events`);
      notify();
    });
  });
  req.on('error', (err) => {
    ended = err;
    notify();
  });
  req.end();
  return {
    events,
    until(match: (event: WatchEvent) => boolean): Promise<WatchEvent> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (found) resolve(found);
          else if (ended) reject(ended);
          else return;
          listeners = listeners.filter((listener) => listener !== check);
        };
        listeners.push(check);
        check();
      });
    },
    close: () => req.destroy(),
  };
}
