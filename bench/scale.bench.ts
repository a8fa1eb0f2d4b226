// The scale section: N watches open on one API server (the distributed gateway → storage service
// → etcd, and the all-in-one), then 50 creates at 10/s, each create timed from when it was sent;
// every watch should see every create. Prints create → event latency over all (watch, event)
// pairs, the events lost (and the watches the server cut, which would explain them), the
// creates' own latency under that load, the CPU the servers and the load generator spent per
// delivered event, and the RSS the open watches added to the server processes, per thousand
// (bench/memory.ts). The watches are opened as
// client-go opens them, multiplexed on HTTP/2 sessions of up to 1,000 streams, and over
// HTTP/1.1, a connection each. BENCH_SCALE_WATCHES sets N, BENCH_SCALE_FORMS the forms
// (distributed,all-in-one), BENCH_SCALE_TRANSPORTS the transports (h2,http1).
import { readFileSync } from 'node:fs';
import { ClientHttp2Session, connect as connectHttp2 } from 'node:http2';
import { Agent, request } from 'node:https';
import { join } from 'node:path';
import { LeanHttpsPool } from './lean-https';
import { memoryPerThousand, sampleRss } from './memory';
import { cpuSecondsOf, FormName, PlinthForm, startForm } from './processes';
import { percentile } from './stats';

const creates = 50;
const createIntervalMs = 100;
const collection = '/apis/coordination.k8s.io/v1/namespaces/default/leases';

export type ScaleTransport = 'h2' | 'http1';

// streamsPerSession is how many watches share an HTTP/2 session: the server's limit
// (kube-apiserver's 1,000), beyond which client-go's transport opens another connection.
const streamsPerSession = 1000;


// WatchStreams are the open watches: each line that names a create is timed against when that
// create was sent; a stream that ends before the bench closes it counts as cut.
class WatchStreams {
  readonly latencies: number[] = [];
  readonly sentAt = new Map<string, bigint>();
  cut = 0;
  private readonly closers: (() => void)[] = [];
  private closing = false;

  onLine(line: string, arrived: bigint): void {
    const name = /"name":"([^"]+)"/.exec(line)?.[1];
    const sent = name === undefined ? undefined : this.sentAt.get(name);
    if (sent !== undefined) this.latencies.push(Number(arrived - sent) / 1e6);
  }

  opened(close: () => void): void {
    this.closers.push(close);
  }

  ended(): void {
    if (!this.closing) this.cut++;
  }

  closeAll(): void {
    this.closing = true;
    for (const close of this.closers) close();
  }
}

// watchLines hands each line of a watch stream to streams, with when its chunk arrived.
function watchLines(streams: WatchStreams): (chunk: Buffer) => void {
  let buffer = '';
  return (chunk) => {
    const arrived = process.hrtime.bigint();
    buffer += chunk.toString();
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      streams.onLine(buffer.slice(0, nl), arrived);
      buffer = buffer.slice(nl + 1);
    }
  };
}

// openHttp1Watch opens one watch on its own HTTP/1.1 connection (node:https), as a client
// without HTTP/2 does.
function openHttp1Watch(target: PlinthForm, agent: Agent, path: string, streams: WatchStreams): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: target.port, path, agent }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`watch answered ${res.statusCode}`));
      resolve();
      res.on('data', watchLines(streams));
      res.on('end', () => streams.ended());
      res.on('aborted', () => streams.ended());
    });
    req.on('error', reject);
    req.end();
    streams.opened(() => req.destroy());
  });
}

// Http2Sessions opens watches as client-go does: streams on a shared session, a new session
// once one carries streamsPerSession.
class Http2Sessions {
  private readonly sessions: ClientHttp2Session[] = [];
  private streams = 0;

  constructor(
    private readonly target: PlinthForm,
    private readonly tls: { ca: string; cert: string; key: string },
  ) {}

  openWatch(path: string, streams: WatchStreams): Promise<void> {
    const session = this.session();
    return new Promise<void>((resolve, reject) => {
      const stream = session.request({ ':path': path });
      stream.on('response', (headers) => {
        if (headers[':status'] !== 200) reject(new Error(`watch answered ${headers[':status']}`));
        resolve();
      });
      stream.on('data', watchLines(streams));
      stream.on('end', () => streams.ended());
      stream.on('error', reject);
      streams.opened(() => stream.close());
    });
  }

  close(): void {
    for (const session of this.sessions) session.destroy();
  }

  private session(): ClientHttp2Session {
    if (this.streams++ % streamsPerSession === 0) {
      // Go's HTTP/2 transport's flow-control windows: 4 MiB a stream, 1 GiB the connection.
      const session = connectHttp2(`https://127.0.0.1:${this.target.port}`, { ...this.tls, settings: { initialWindowSize: 4 << 20 } });
      session.once('connect', () => session.setLocalWindowSize(1 << 30));
      session.on('error', () => undefined);
      this.sessions.push(session);
    }
    return this.sessions[this.sessions.length - 1];
  }
}

function serverCpuSeconds(target: PlinthForm): number {
  return target.services.reduce((sum, [, service]) => sum + cpuSecondsOf(service.pid), 0);
}

function clientCpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

// terminatedWatchers reads apiserver_terminated_watchers_total (all resources) from /metrics.
async function terminatedWatchers(pool: LeanHttpsPool): Promise<number> {
  const metrics = (await pool.call('GET', '/metrics')).body;
  let total = 0;
  for (const match of metrics.matchAll(/^apiserver_terminated_watchers_total\{[^}]*\} (\d+)/gm)) total += Number(match[1]);
  return total;
}

export async function scaleBench(watches: number, forms: FormName[], transports: ScaleTransport[]): Promise<string[]> {
  const lines: string[] = [];
  for (const form of forms) {
    for (const transport of transports) {
      if (lines.length > 0) lines.push('');
      lines.push(...(await scaleRun(form, transport, watches)));
    }
  }
  return lines;
}

async function scaleRun(form: FormName, transport: ScaleTransport, watches: number): Promise<string[]> {
  const target = await startForm(form);
  const pki = (name: string) => readFileSync(join(target.dataDir, 'pki', name), 'utf8');
  const tls = { ca: pki('ca.crt'), cert: pki('admin.crt'), key: pki('admin.key') };
  // The pool that lists is not the one that creates: opening thousands of watches takes longer
  // than the server keeps an idle connection.
  let pool = new LeanHttpsPool(target.port, tls, {});
  const agent = new Agent({ maxSockets: Infinity, keepAlive: false, ...tls });
  const sessions = new Http2Sessions(target, tls);
  const open = (path: string, streams: WatchStreams) => (transport === 'h2' ? sessions.openWatch(path, streams) : openHttp1Watch(target, agent, path, streams));
  const streams = new WatchStreams();
  try {
    const listed = JSON.parse((await pool.call('GET', collection)).body) as { metadata: { resourceVersion: string } };
    const path = `${collection}?watch=1&resourceVersion=${listed.metadata.resourceVersion}`;
    const beforeWatches = sampleRss(target.services);
    const opening = process.hrtime.bigint();
    for (let opened = 0; opened < watches; opened += 200) await Promise.all(Array.from({ length: Math.min(200, watches - opened) }, () => open(path, streams)));
    const openSeconds = Number(process.hrtime.bigint() - opening) / 1e9;
    const watchesMemory = memoryPerThousand('open watches', watches, beforeWatches, sampleRss(target.services));
    pool.close();
    pool = new LeanHttpsPool(target.port, tls, {});
    const createLatencies: number[] = [];
    let failedCreates = 0;
    const writes: Promise<void>[] = [];
    const serverCpu = serverCpuSeconds(target);
    const clientCpu = clientCpuSeconds();
    for (let i = 0; i < creates; i++) {
      const name = `scale-${i}`;
      const sent = process.hrtime.bigint();
      streams.sentAt.set(name, sent);
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
    const expected = watches * (creates - failedCreates);
    const deadline = Date.now() + 30_000;
    while (streams.latencies.length < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const serverCpuUs = (serverCpuSeconds(target) - serverCpu) * 1e6;
    const clientCpuUs = (clientCpuSeconds() - clientCpu) * 1e6;
    const delivered = Math.max(1, streams.latencies.length);
    const terminated = await terminatedWatchers(pool);
    const sorted = [...streams.latencies].sort((a, b) => a - b);
    const createsSorted = [...createLatencies].sort((a, b) => a - b);
    const lost = expected - streams.latencies.length;
    return [
      `scale: ${watches} watches on the ${form === 'distributed' ? 'distributed gateway' : 'all-in-one'} over ${transport === 'h2' ? `HTTP/2 (${Math.ceil(watches / streamsPerSession)} connections)` : 'HTTP/1.1'} (opened in ${openSeconds.toFixed(1)} s), ${creates} creates at ${1000 / createIntervalMs}/s`,
      `  create → event: p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms; events lost ${lost} of ${expected} (${((100 * lost) / Math.max(1, expected)).toFixed(1)}%); watches cut ${streams.cut} (server's terminated watchers ${terminated})`,
      `  creates under that load: p50 ${percentile(createsSorted, 50).toFixed(1)} ms, p99 ${percentile(createsSorted, 99).toFixed(1)} ms, ${failedCreates} failed`,
      `  CPU per delivered event: servers ${(serverCpuUs / delivered).toFixed(1)} µs (${target.services.map(([name]) => name).join(' + ')}), load generator ${(clientCpuUs / delivered).toFixed(1)} µs`,
      watchesMemory,
    ];
  } finally {
    streams.closeAll();
    sessions.close();
    agent.destroy();
    pool.close();
    await target.stop();
  }
}
