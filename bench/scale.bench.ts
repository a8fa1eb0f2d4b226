// The scale section: N watches open on one distributed gateway (gateway → storage service →
// etcd), then 50 creates at 10/s, each create timed from when it was sent; every watch should
// see every create. Prints create → event latency over all (watch, event) pairs, the events
// lost, the creates' own latency under that load, and the RSS the open watches added to the
// three processes, per thousand. BENCH_SCALE_WATCHES sets N.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { join } from 'node:path';
import { startEtcd, startNats } from '@plinth/testing';
import { LeanHttpsPool } from './lean-https';
import { memoryPerThousand, sampleRss } from './memory';
import { startAuthz, startGateway, startStorageService, writeHeapSnapshots } from './processes';
import { percentile } from './stats';

const creates = 50;
const createIntervalMs = 100;

export async function scaleBench(watches: number): Promise<string[]> {
  const etcdServer = await startEtcd({ progressNotifyInterval: '5s' });
  const nats = await startNats();
  const storage = await startStorageService(etcdServer.endpoint);
  const authz = await startAuthz(storage.address, nats.url);
  const gateway = await startGateway(storage.address, nats.url);
  const pki = (name: string) => readFileSync(join(gateway.dataDir, 'pki', name), 'utf8');
  const tls = { ca: pki('ca.crt'), cert: pki('admin.crt'), key: pki('admin.key') };
  // The pool that lists is not the one that creates: opening thousands of watches takes longer
  // than the gateway keeps an idle connection.
  let pool = new LeanHttpsPool(gateway.port, tls, {});
  const agent = new Agent({ maxSockets: Infinity, keepAlive: false, ...tls });
  const sentAt = new Map<string, bigint>();
  const latencies: number[] = [];
  const streams: (() => void)[] = [];
  try {
    const collection = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
    const services = [
      ['gateway', gateway],
      ['storage', storage],
      ['authz', authz],
    ] as const;
    const listed = JSON.parse((await pool.call('GET', collection)).body) as { metadata: { resourceVersion: string } };
    const beforeWatches = sampleRss(services);
    const open = () =>
      new Promise<void>((resolve, reject) => {
        let buffer = '';
        const req = request({ host: '127.0.0.1', port: gateway.port, path: `${collection}?watch=1&resourceVersion=${listed.metadata.resourceVersion}`, agent }, (res) => {
          if (res.statusCode !== 200) reject(new Error(`watch answered ${res.statusCode}`));
          resolve();
          res.on('data', (chunk: Buffer) => {
            const arrived = process.hrtime.bigint();
            buffer += chunk.toString();
            for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
              const name = /"name":"([^"]+)"/.exec(buffer.slice(0, nl))?.[1];
              buffer = buffer.slice(nl + 1);
              const sent = name === undefined ? undefined : sentAt.get(name);
              if (sent !== undefined) latencies.push(Number(arrived - sent) / 1e6);
            }
          });
        });
        req.on('error', reject);
        req.end();
        streams.push(() => req.destroy());
      });
    const opening = process.hrtime.bigint();
    for (let opened = 0; opened < watches; opened += 200) await Promise.all(Array.from({ length: Math.min(200, watches - opened) }, open));
    const openSeconds = Number(process.hrtime.bigint() - opening) / 1e9;
    const watchesMemory = memoryPerThousand('open watches', watches, beforeWatches, sampleRss(services));
    pool.close();
    pool = new LeanHttpsPool(gateway.port, tls, {});
    const createLatencies: number[] = [];
    let failedCreates = 0;
    const writes: Promise<void>[] = [];
    for (let i = 0; i < creates; i++) {
      const name = `scale-${i}`;
      const sent = process.hrtime.bigint();
      sentAt.set(name, sent);
      writes.push(
        pool.call('POST', collection, JSON.stringify({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name } }), 'application/json').then((res) => {
          if (res.status !== 201) throw new Error(`create answered ${res.status}: ${res.body.slice(0, 200)}`);
          createLatencies.push(Number(process.hrtime.bigint() - sent) / 1e6);
        }).catch((err: unknown) => {
          failedCreates++;
          console.error(`scale: a create failed: ${err instanceof Error ? err.message : String(err)}`);
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, createIntervalMs));
    }
    await Promise.all(writes);
    // Events still in flight get up to 30 s to arrive.
    const deadline = Date.now() + 30_000;
    while (latencies.length < watches * (creates - failedCreates) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const sorted = [...latencies].sort((a, b) => a - b);
    const createsSorted = [...createLatencies].sort((a, b) => a - b);
    const expected = watches * (creates - failedCreates);
    const lost = expected - latencies.length;
    return [
      `scale: ${watches} watches on the distributed gateway (opened in ${openSeconds.toFixed(1)} s), ${creates} creates at ${1000 / createIntervalMs}/s`,
      `  create → event: p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms; events lost ${lost} of ${expected} (${((100 * lost) / Math.max(1, expected)).toFixed(1)}%)`,
      `  creates under that load: p50 ${percentile(createsSorted, 50).toFixed(1)} ms, p99 ${percentile(createsSorted, 99).toFixed(1)} ms, ${failedCreates} failed`,
      watchesMemory,
    ];
  } finally {
    for (const stop of streams) stop();
    agent.destroy();
    pool.close();
    await writeHeapSnapshots([
      ['gateway', gateway],
      ['storage', storage],
      ['authz', authz],
    ]);
    await gateway.stop();
    await authz.stop();
    await storage.stop();
    await nats.stop();
    await etcdServer.stop();
  }
}
