// A watch client that stops reading cannot grow the server's memory without bound: past its
// buffer (watcherBufferBytes) the server drops what waits for it and ends its watch cleanly,
// counted in apiserver_terminated_watchers_total, as kube-apiserver terminates a cacheWatcher
// that cannot keep up. Other watchers of the resource get every event.
import { get, IncomingMessage } from 'node:http';
import { adminToken, openWatch, suiteServer } from './http';
import { eventually } from '@plinth/testing';

const serviceAccounts = '/api/v1/namespaces/default/serviceaccounts';
// 200 KiB of annotations a ServiceAccount (annotations may have 256 KiB): the paused client's
// socket buffers and then its watch's 4 MiB bound fill after some tens of them; maxCreated
// bounds the loop should the watch never end.
const payload = 'x'.repeat(200 * 1024);
const maxCreated = 300;

// pausedWatch opens a watch and stops reading its response at once: the socket's buffers fill
// and the server's writes back up.
function pausedWatch(url: string, path: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = get(url + path, { headers: { authorization: `Bearer ${adminToken}` } }, (res) => {
      res.pause();
      resolve(res);
    });
    req.on('error', reject);
  });
}

// readToEnd resumes a paused response and collects its newline-delimited events up to its end;
// it fails if the connection breaks instead of ending.
function readToEnd(res: IncomingMessage): Promise<{ type: string; object: { metadata: { name: string; resourceVersion: string } } }[]> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => {
      const lines = Buffer.concat(chunks).toString('utf8').split('\n').filter((line) => line.trim() !== '');
      resolve(lines.map((line) => JSON.parse(line)));
    });
    res.on('error', reject);
    res.resume();
  });
}

describe('API server: slow watchers', () => {
  const server = suiteServer();
  const { request } = server;

  const terminatedWatchers = async () => {
    const metrics = await request('GET', '/metrics');
    const line = metrics.text.split('\n').find((l) => l.startsWith('apiserver_terminated_watchers_total{resource="serviceaccounts"}'));
    return line ? Number(line.split(' ').pop()) : 0;
  };

  it('sends initial events past the bound to a client that reads them, and keeps its watch', async () => {
    const namespace = '/api/v1/namespaces/big-list/serviceaccounts';
    expect((await request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'big-list' } } })).status).toBe(201);
    // 8 MiB of objects, written to the watch at once as its initial events.
    const count = 40;
    for (let i = 0; i < count; i++) {
      expect((await request('POST', namespace, { body: { metadata: { name: `listed-${i}`, annotations: { payload } } } })).status).toBe(201);
    }
    const watch = await openWatch(server.url, `${namespace}?watch=true`);
    // The namespace's default ServiceAccount may come among them.
    const listedNames = () => watch.events.filter((e) => e.type === 'ADDED' && e.object.metadata.name.startsWith('listed-')).map((e) => e.object.metadata.name);
    await eventually(async () => listedNames().length, { until: (seen) => seen >= count, what: 'the initial events', timeoutMs: 60_000 });
    expect(listedNames().sort()).toEqual(Array.from({ length: count }, (_, i) => `listed-${i}`).sort());
    expect((await request('POST', namespace, { body: { metadata: { name: 'later' } } })).status).toBe(201);
    await eventually(() => watch.events.some((e) => e.object.metadata.name === 'later'), { what: 'the later event' });
    watch.close();
    expect(await terminatedWatchers()).toBe(0);
  }, 120_000);

  it('ends the watch of a client that stops reading, drops what waited for it and counts it; a reading watcher gets every event', async () => {
    const start = (await request('GET', serviceAccounts)).json.metadata.resourceVersion;
    const reader = await openWatch(server.url, `${serviceAccounts}?watch=true&resourceVersion=${start}`);
    const stalled = await pausedWatch(server.url, `${serviceAccounts}?watch=true&resourceVersion=${start}`);
    expect(stalled.statusCode).toBe(200);
    expect(await terminatedWatchers()).toBe(0);

    let created = 0;
    while (created < maxCreated && (await terminatedWatchers()) === 0) {
      const answer = await request('POST', serviceAccounts, { body: { metadata: { name: `big-${created}`, annotations: { payload } } } });
      expect(answer.status).toBe(201);
      created++;
    }
    expect(await terminatedWatchers()).toBe(1);
    expect(created).toBeLessThan(maxCreated);

    // The stalled client, reading again, finds its stream ended cleanly (no ERROR event) after
    // an ordered prefix of the events: it would watch again from the last one.
    const seen = await readToEnd(stalled);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.length).toBeLessThan(created);
    expect(seen.map((e) => e.type)).toEqual(Array(seen.length).fill('ADDED'));
    expect(seen.map((e) => e.object.metadata.name)).toEqual(Array.from({ length: seen.length }, (_, i) => `big-${i}`));

    // The reading watcher is unaffected: every event, in order, and its stream still open.
    const events = await reader.waitFor(created, 60_000);
    expect(events.map((e) => e.object.metadata.name)).toEqual(Array.from({ length: created }, (_, i) => `big-${i}`));
    const after = await request('POST', serviceAccounts, { body: { metadata: { name: 'after' } } });
    expect(after.status).toBe(201);
    expect((await reader.waitFor(created + 1))[created].object.metadata.name).toBe('after');
    reader.close();
    expect(await terminatedWatchers()).toBe(1);
  }, 120_000);
});
