// The vs section: the same HTTPS load against Plinth distributed (gateway → storage service →
// etcd, authz over NATS), Plinth all-in-one (embedded store) and a real kube-apiserver (given by
// its kubeconfig), in one run, each work A B A B (every target once per round, two rounds), then
// the issue's table: each Plinth form's ratio to kube-apiserver and the RSS of every process.
// Ratios are speed ratios: above 1 Plinth is ahead (rates for GET and create, p50 latency for
// LIST and create → watch event); the memory ratio is Plinth's RSS over kube-apiserver's.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { dirname, join } from 'node:path';
import { readKubeconfig } from '@plinth/nest/controllers';
import { etcdBinary, findBinary } from '@plinth/testing';
import { LeanHttpsPool, LeanResponse } from './lean-https';
import { residentMiB } from './memory';
import { cpuSecondsOf, FormName, startForm } from './processes';
import { combine, Figures, runConcurrent, summarize } from './stats';

const inFlight = 16;
const listSize = 1000;
const pageSize = 500;
const rounds = 2;
const label = 'plinth-bench=perf-vs';
const warmBench = 'perf-vs-warm';
const warmLabel = `plinth-bench=${warmBench}`;
const collection = '/apis/storage.k8s.io/v1/storageclasses';

export interface VsCounts {
  writes: number;
  reads: number;
  lists: number;
  watches: number;
}

interface Target {
  readonly name: string;
  call(method: string, path: string, body?: unknown): Promise<LeanResponse>;
  stream(path: string, onLine: (line: string) => void): () => void;
  // rss lists the resident memory of the target's processes (MiB), by process.
  rss(): [string, number][];
  // cpuSeconds is the CPU time the target's processes have used so far (user and system).
  cpuSeconds(): number;
  close(): Promise<void>;
}

interface Endpoint {
  host: string;
  port: number;
  tls: { ca: string; cert?: string; key?: string };
  headers: Record<string, string>;
}

function target(name: string, endpoint: Endpoint, processes: [string, number][], stop: () => Promise<void>): Target {
  const pool = new LeanHttpsPool(endpoint.port, endpoint.tls, endpoint.headers, endpoint.host);
  const agent = new Agent({ keepAlive: true, ...endpoint.tls });
  return {
    name,
    call: (method, path, body) => pool.call(method, path, body === undefined ? undefined : JSON.stringify(body)),
    stream(path, onLine) {
      let buffer = '';
      const req = request({ host: endpoint.host, port: endpoint.port, path, agent, headers: endpoint.headers }, (res) => {
        res.on('data', (chunk: Buffer) => {
          buffer += chunk.toString();
          for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
            onLine(buffer.slice(0, nl));
            buffer = buffer.slice(nl + 1);
          }
        });
      });
      req.on('error', () => undefined);
      req.end();
      return () => req.destroy();
    },
    rss: () => processes.map(([process, pid]) => [process, residentMiB(pid)]),
    cpuSeconds: () => processes.reduce((sum, [, pid]) => sum + cpuSecondsOf(pid), 0),
    async close() {
      pool.close();
      agent.destroy();
      await stop();
    },
  };
}

function localEndpoint(port: number, dataDir: string): Endpoint {
  const pki = (file: string) => readFileSync(join(dataDir, 'pki', file), 'utf8');
  return { host: '127.0.0.1', port, tls: { ca: pki('ca.crt'), cert: pki('admin.crt'), key: pki('admin.key') }, headers: {} };
}

// startPlinth starts a form of Plinth as a target.
async function startPlinth(name: FormName): Promise<Target> {
  const form = await startForm(name);
  return target(name, localEndpoint(form.port, form.dataDir), form.services.map(([service, p]) => [service, p.pid]), () => form.stop());
}

// kubeApiserver is the server of the kubeconfig's current context; its pid (for its RSS) is
// BENCH_VS_PID, else the apiserver.pid beside the kubeconfig (as the oracle writes it), else
// the oldest kube-apiserver process.
function kubeApiserver(kubeconfig: string): Target {
  const credentials = readKubeconfig(kubeconfig);
  const server = new URL(credentials.server);
  const endpoint: Endpoint = {
    host: server.hostname,
    port: Number(server.port || 443),
    tls: { ca: credentials.caPem, ...(credentials.certPem ? { cert: credentials.certPem } : {}), ...(credentials.keyPem ? { key: credentials.keyPem } : {}) },
    headers: credentials.token ? { authorization: `Bearer ${credentials.token}` } : {},
  };
  const pidFile = join(dirname(kubeconfig), 'apiserver.pid');
  const pid = Number(process.env.BENCH_VS_PID ?? (existsSync(pidFile) ? readFileSync(pidFile, 'utf8') : execFileSync('pgrep', ['-o', '-x', 'kube-apiserver'], { encoding: 'utf8' })).trim());
  return target('kube-apiserver', endpoint, [['kube-apiserver', pid]], async () => undefined);
}

// etcdVersions names the etcd binaries both sides run: Plinth's (found as the tests find it)
// and, when the oracle's etcd.pid is beside the kubeconfig, kube-apiserver's.
function etcdVersions(kubeconfig: string): string {
  const version = (binary: string) => /etcd Version: (\S+)/.exec(execFileSync(binary, ['--version'], { encoding: 'utf8' }))?.[1] ?? 'unknown';
  const plinth = findBinary(etcdBinary);
  const pidFile = join(dirname(kubeconfig), 'etcd.pid');
  let theirs = 'unknown';
  try {
    const binary = readlinkSync(`/proc/${readFileSync(pidFile, 'utf8').trim()}/exe`);
    theirs = `${binary} ${version(binary)}`;
  } catch {
    // not the oracle's layout, or its etcd is not running
  }
  return `etcd: Plinth's ${plinth} ${version(plinth)}; kube-apiserver's ${theirs}`;
}

function expect2xx(res: LeanResponse): LeanResponse {
  if (res.status >= 300) throw new Error(`unexpected ${res.status}: ${res.body.slice(0, 300)}`);
  return res;
}

function storageClass(name: string, bench = 'perf-vs'): unknown {
  return { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name, labels: { 'plinth-bench': bench } }, provisioner: 'bench.example.com/none', parameters: { tier: 'bench' }, reclaimPolicy: 'Delete' };
}

async function deleteBenchObjects(t: Target): Promise<void> {
  expect2xx(await t.call('DELETE', `${collection}?labelSelector=${encodeURIComponent(label)}`));
  expect2xx(await t.call('DELETE', `${collection}?labelSelector=${encodeURIComponent(warmLabel)}`));
}

// warmUp brings every target to its steady state before anything is measured: a Node.js
// server's code paths run interpreted until V8 has compiled them (about 20,000 GETs here),
// which a Go server never pays; a server in production runs warm. Every target gets the same
// load: twice the measured GETs, a few LISTs, and creates of objects deleted again at once.
async function warmUp(t: Target, counts: VsCounts): Promise<void> {
  await runConcurrent(counts.reads * 2, inFlight, (i) => t.call('GET', `${collection}/perf-vs-l-${i % listSize}`).then(expect2xx));
  await runConcurrent(inFlight, inFlight, () => listAll(t, parsedPage));
  await runConcurrent(Math.min(2000, counts.writes), inFlight, (i) => t.call('POST', collection, storageClass(`perf-vs-w-${i}`, warmBench)).then(expect2xx));
  expect2xx(await t.call('DELETE', `${collection}?labelSelector=${encodeURIComponent(warmLabel)}`));
}

// A page of the LIST work, read in full (JSON.parse) or, as the measured lists read it, by
// scanning for what the load needs: its items (by their names) and its continue token. Parsing
// 500 objects would cost the load generator, on the same two cores, more than some servers
// spend answering; the warm-up checks that both readings agree.
interface PageReading {
  count: number;
  token: string;
}

function parsedPage(body: string): PageReading {
  const page = JSON.parse(body) as { items: unknown[]; metadata: { continue?: string } };
  return { count: page.items.length, token: page.metadata.continue ?? '' };
}

const listedName = '"name":"perf-vs-l-';

function scannedPage(body: string): PageReading {
  let count = 0;
  for (let at = body.indexOf(listedName); at >= 0; at = body.indexOf(listedName, at + listedName.length)) count++;
  return { count, token: /"continue":"([^"]*)"/.exec(body)?.[1] ?? '' };
}

async function listAll(t: Target, read: (body: string) => PageReading = scannedPage): Promise<number> {
  let count = 0;
  let token = '';
  do {
    const body = expect2xx(await t.call('GET', `${collection}?labelSelector=${encodeURIComponent(label)}&limit=${pageSize}${token ? `&continue=${encodeURIComponent(token)}` : ''}`)).body;
    const page = read(body);
    if (read === parsedPage) {
      const scanned = scannedPage(body);
      if (scanned.count !== page.count || scanned.token !== page.token) throw new Error(`${t.name}: a page scanned does not read as parsed (${scanned.count} vs ${page.count} items)`);
    }
    count += page.count;
    token = page.token;
  } while (token);
  return count;
}

async function watchLatency(t: Target, round: number, samples: number): Promise<Figures> {
  const listed = JSON.parse(expect2xx(await t.call('GET', `${collection}?limit=1`)).body) as { metadata: { resourceVersion: string } };
  const waiters = new Map<string, () => void>();
  const stop = t.stream(`${collection}?watch=1&resourceVersion=${listed.metadata.resourceVersion}`, (line) => {
    const event = JSON.parse(line) as { type: string; object: { metadata: { name: string } } };
    if (event.type === 'ADDED') waiters.get(event.object.metadata.name)?.();
  });
  const latencies: number[] = [];
  const t0 = process.hrtime.bigint();
  try {
    for (let i = 0; i < samples; i++) {
      const name = `perf-vs-w${round}-${i}`;
      const seen = new Promise<void>((resolve) => waiters.set(name, resolve));
      const start = process.hrtime.bigint();
      expect2xx(await t.call('POST', collection, storageClass(name)));
      await seen;
      latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  } finally {
    stop();
  }
  return summarize(latencies, Number(process.hrtime.bigint() - t0) / 1e9);
}

interface Work {
  // key names the work in BENCH_VS_WORKS: get, list, create, watch.
  key: string;
  name: string;
  // ratioBy: the figure the ratio compares (a rate, or p50 latency).
  ratioBy: 'rate' | 'latency';
  run(t: Target, round: number): Promise<Figures>;
}

function works(counts: VsCounts): Work[] {
  const per = (n: number) => Math.max(1, Math.floor(n / rounds));
  return [
    { key: 'get', name: 'GET one object', ratioBy: 'rate', run: (t) => runConcurrent(per(counts.reads), inFlight, (i) => t.call('GET', `${collection}/perf-vs-l-${i % listSize}`).then(expect2xx)) },
    {
      key: 'list',
      name: `LIST ${listSize.toLocaleString('en')} in pages of ${pageSize}, ${inFlight} at once`,
      ratioBy: 'latency',
      run: (t) =>
        runConcurrent(per(counts.lists), inFlight, async () => {
          const count = await listAll(t);
          if (count !== listSize) throw new Error(`${t.name} listed ${count} of ${listSize}`);
        }),
    },
    { key: 'create', name: 'POST create', ratioBy: 'rate', run: (t, round) => runConcurrent(per(counts.writes), inFlight, (i) => t.call('POST', collection, storageClass(`perf-vs-c${round}-${i}`)).then(expect2xx)) },
    { key: 'watch', name: 'create → watch event', ratioBy: 'latency', run: (t, round) => watchLatency(t, round, per(counts.watches)) },
  ];
}

// selectedWorks are the works BENCH_VS_WORKS names (get, list, create, watch; all by default),
// to keep a run that looks at one path short.
function selectedWorks(counts: VsCounts): Work[] {
  const keys = process.env.BENCH_VS_WORKS?.split(',').filter(Boolean);
  const all = works(counts);
  if (!keys?.length) return all;
  const unknown = keys.filter((key) => !all.some((work) => work.key === key));
  if (unknown.length > 0) throw new Error(`BENCH_VS_WORKS: no work named ${unknown.join(', ')} (get, list, create, watch)`);
  return all.filter((work) => keys.includes(work.key));
}

function ratio(work: Work, plinth: Figures, kube: Figures): number {
  return work.ratioBy === 'rate' ? plinth.opsPerSecond / kube.opsPerSecond : kube.p50 / plinth.p50;
}

export async function vsBench(kubeconfig: string, counts: VsCounts): Promise<string[]> {
  const kube = kubeApiserver(kubeconfig);
  const targets: Target[] = [];
  try {
    targets.push(await startPlinth('distributed'), await startPlinth('all-in-one'), kube);
    await deleteBenchObjects(kube);
    for (const t of targets) {
      await runConcurrent(listSize, inFlight, (i) => t.call('POST', collection, storageClass(`perf-vs-l-${i}`)).then(expect2xx));
      await warmUp(t, counts);
    }
    const figures = new Map<string, Map<string, Measured>>();
    for (const work of selectedWorks(counts)) {
      const byTarget = new Map<string, Measured>(targets.map((t) => [t.name, { runs: [], cpuSeconds: 0 }]));
      figures.set(work.name, byTarget);
      for (let round = 0; round < rounds; round++) {
        for (const t of targets) {
          const measured = byTarget.get(t.name) as Measured;
          const cpu = t.cpuSeconds();
          measured.runs.push(await work.run(t, round));
          measured.cpuSeconds += t.cpuSeconds() - cpu;
        }
      }
    }
    const memory = new Map(targets.map((t) => [t.name, t.rss()]));
    return [...table(counts, figures, memory), '', etcdVersions(kubeconfig)];
  } finally {
    await deleteBenchObjects(kube).catch((err: unknown) => console.error(`vs: cleaning up kube-apiserver's StorageClasses failed: ${String(err)}`));
    for (const t of targets) await t.close();
  }
}

// Measured is a work's rounds on one target and the CPU its processes spent in them.
interface Measured {
  runs: Figures[];
  cpuSeconds: number;
}

function table(counts: VsCounts, figures: Map<string, Map<string, Measured>>, memory: Map<string, [string, number][]>): string[] {
  const f = (n: number, d = 0) => n.toFixed(d).padStart(8);
  const names = ['kube-apiserver', 'distributed', 'all-in-one'];
  const lines = [
    `vs: Plinth distributed and all-in-one beside kube-apiserver, HTTPS, ${inFlight} in flight, ${rounds} rounds A B A B (${counts.reads} GETs, ${counts.lists} LISTs, ${counts.writes} creates, ${counts.watches} watch events each)`,
    `${'work'.padEnd(40)}${names.map((n) => `| ${n.padEnd(14)}${'ops/s'.padStart(8)}${'p50ms'.padStart(8)}${'p99ms'.padStart(8)}`).join('')}`,
  ];
  const summary = ['', '| work | all-in-one | distributed |', '|---|---|---|'];
  const cpuLines = ['', `server CPU per operation, µs (the servers' processes, without etcd; ratio: kube-apiserver's over Plinth's)`];
  for (const work of works(counts)) {
    const byTarget = figures.get(work.name);
    if (!byTarget) continue;
    const combined = new Map([...byTarget].map(([name, measured]) => [name, combine(measured.runs)]));
    const perOp = (name: string) => ((byTarget.get(name)?.cpuSeconds ?? 0) * 1e6) / Math.max(1, combined.get(name)?.ops ?? 0);
    cpuLines.push(`${work.name.padEnd(40)}${names.map((n) => `| ${`${perOp(n).toFixed(0)} µs${n === 'kube-apiserver' ? '' : ` (${(perOp('kube-apiserver') / perOp(n)).toFixed(2)}x)`}`.padEnd(38)}`).join('')}`);
    const kube = combined.get('kube-apiserver') as Figures;
    let row = work.name.padEnd(40);
    for (const name of names) {
      const fig = combined.get(name) as Figures;
      row += `| ${(name === 'kube-apiserver' ? '' : `${ratio(work, fig, kube).toFixed(2)}x`).padEnd(14)}${f(fig.opsPerSecond)}${f(fig.p50, 2)}${f(fig.p99, 2)}`;
    }
    lines.push(row);
    const cell = (name: string) => {
      const fig = combined.get(name) as Figures;
      return work.ratioBy === 'rate' ? `${ratio(work, fig, kube).toFixed(1)}x (${fig.opsPerSecond.toFixed(0)}/s vs ${kube.opsPerSecond.toFixed(0)}/s)` : `${ratio(work, fig, kube).toFixed(1)}x (p50 ${fig.p50.toFixed(1)} ms vs ${kube.p50.toFixed(1)} ms)`;
    };
    summary.push(`| ${work.name} | ${cell('all-in-one')} | ${cell('distributed')} |`);
  }
  const total = (name: string) => (memory.get(name) ?? []).reduce((sum, [, mib]) => sum + mib, 0);
  const parts = (name: string) => (memory.get(name) ?? []).map(([process, mib]) => `${process} ${mib.toFixed(0)}`).join(' + ');
  const kubeRss = total('kube-apiserver');
  lines.push(`${'RSS after the run (MiB)'.padEnd(40)}${names.map((n) => `| ${`${total(n).toFixed(0)} MiB`.padEnd(38)}`).join('')}`);
  lines.push(`  ${names.map((n) => `${n}: ${parts(n)}`).join('; ')}`);
  summary.push(`| memory (RSS) after that run, Plinth / kube-apiserver | ${(total('all-in-one') / kubeRss).toFixed(1)}x (${parts('all-in-one')} vs ${kubeRss.toFixed(0)} MiB) | ${(total('distributed') / kubeRss).toFixed(1)}x (${parts('distributed')} MiB vs ${kubeRss.toFixed(0)} MiB) |`);
  return [...lines, ...cpuLines, ...summary];
}
