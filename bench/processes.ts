// Starting the Plinth processes for a benchmark: the storage service over etcd and the gateway
// over the storage service, each a separate node process as in production, or the all-in-one.
// They run compiled, as the image runs them (buildApps first), with the node flags of the
// image's ENTRYPOINT: the sources through tools/register.js would carry the TypeScript compiler
// and swc in every process's memory.
// BENCH_PROFILE_DIR=DIR writes a CPU profile of each into DIR/<name> when it stops, and a heap
// snapshot when the bench asks for one (heapSnapshot) after its run.
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageNodeFlags } from '@plinth/build-tools';
import { startEtcd, startNats } from '@plinth/testing';

const root = join(__dirname, '..');

// ServiceProcess is a started Plinth process: its pid (for its RSS) and, under
// BENCH_PROFILE_DIR, a heap snapshot on demand.
export interface ServiceProcess {
  readonly pid: number;
  heapSnapshot(): Promise<string | undefined>;
  stop(): Promise<void>;
}

interface BenchProcess extends ServiceProcess {
  match: RegExpExecArray;
}

// profileDir is where BENCH_PROFILE_DIR puts a service's CPU profile and heap snapshots.
function profileDir(name: string): string | undefined {
  const base = process.env.BENCH_PROFILE_DIR;
  if (!base) return undefined;
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

function profileFlags(dir: string | undefined): string[] {
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${dir}`] : [];
}

// buildApps compiles the apps into dist/ (their Nx build targets, cached when nothing changed).
export function buildApps(): void {
  execFileSync('npx', ['nx', 'run-many', '-t', 'build', '--projects=tag:type:app', '--output-style=static'], { cwd: root, env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' }, stdio: ['ignore', 'ignore', 'inherit'] });
}

// startNode runs the compiled entry point of an app (apps/<name>/src/main.ts → dist/…/main.js).
function startNode(app: string, args: string[], env: NodeJS.ProcessEnv, ready: RegExp, profile?: string): Promise<BenchProcess> {
  const script = `dist/apps/${app}/src/main.js`;
  const child: ChildProcess = spawn(process.execPath, [...imageNodeFlags(root), ...profileFlags(profile), join(root, script), ...args], {
    cwd: root,
    env: { ...process.env, ...env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      const match = ready.exec(log);
      if (match) resolve({ match, pid: child.pid ?? 0, heapSnapshot: () => (profile ? heapSnapshot(child, profile) : Promise.resolve(undefined)), stop: () => stopChild(child) });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}): ${log}`)));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

// heapSnapshot signals the process to write a heap snapshot into dir and resolves with its path
// once the file has stopped growing (the process writes it synchronously).
async function heapSnapshot(child: ChildProcess, dir: string): Promise<string> {
  const before = new Set(readdirSync(dir));
  child.kill('SIGUSR2');
  let lastSize = -1;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const written = readdirSync(dir).find((name) => name.endsWith('.heapsnapshot') && !before.has(name));
    if (!written) continue;
    const size = statSync(join(dir, written)).size;
    if (size > 0 && size === lastSize) return join(dir, written);
    lastSize = size;
  }
}

// writeHeapSnapshots takes a heap snapshot of each service (under BENCH_PROFILE_DIR; nothing
// otherwise), one after the other, and names the files on stderr.
export async function writeHeapSnapshots(services: [string, ServiceProcess][]): Promise<void> {
  for (const [name, service] of services) {
    const file = await service.heapSnapshot();
    if (file) console.error(`heap snapshot of ${name}: ${file}`);
  }
}

// startStorageService serves plaintext (--storage-insecure) unless given the flags of its
// TLS files (storageServingFlags of @plinth/testing).
export async function startStorageService(etcdEndpoint: string, tlsFlags: string[] = ['--storage-insecure']): Promise<ServiceProcess & { address: string }> {
  const proc = await startNode('storage', tlsFlags, { PLINTH_ETCD_ENDPOINTS: etcdEndpoint, PLINTH_STORAGE_ADDRESS: '127.0.0.1:0' }, /listening on (\S+:\d+)/, profileDir('storage'));
  return { ...proc, address: proc.match[1] };
}

// startAuthz and startGateway reach the storage service in plaintext (--storage-insecure),
// as startStorageService serves by default, and NATS in plaintext (--nats-insecure).
export async function startAuthz(storageAddress: string, natsUrl: string): Promise<ServiceProcess> {
  return startNode('authz', ['--storage-address', storageAddress, '--storage-insecure', '--nats-url', natsUrl, '--nats-insecure'], {}, /authz serving on/, profileDir('authz'));
}

export async function startGateway(storageAddress: string, natsUrl: string, extraArgs: string[] = []): Promise<ServiceProcess & { port: number; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'plinth-bench-gw-'));
  const proc = await startNode('gateway', ['--storage-address', storageAddress, '--storage-insecure', '--nats-url', natsUrl, '--nats-insecure', '--port', '0', '--data-dir', dataDir, ...extraArgs], {}, /serving on https:\/\/[^\s]*:(\d+)/, profileDir('gateway'));
  return {
    pid: proc.pid,
    heapSnapshot: proc.heapSnapshot,
    port: Number(proc.match[1]),
    dataDir,
    async stop() {
      await proc.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// startAllInOne runs the all-in-one (embedded store) on a free port with a throw-away data
// directory.
export async function startAllInOne(): Promise<ServiceProcess & { port: number; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'plinth-bench-aio-'));
  const proc = await startNode('plinth', ['--port', '0', '--data-dir', dataDir], {}, /serving on https:\/\/[^\s]*:(\d+)/, profileDir('plinth'));
  return {
    pid: proc.pid,
    heapSnapshot: proc.heapSnapshot,
    port: Number(proc.match[1]),
    dataDir,
    async stop() {
      await proc.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// cpuSecondsOf is the CPU time (user and system) a process has used so far.
export function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

// FormName names the two ways Plinth runs: the distributed apps (etcd, NATS, storage, authz,
// gateway, each its own process) or the all-in-one.
export type FormName = 'distributed' | 'all-in-one';

// PlinthForm is a started Plinth: the port and data directory (the admin's credentials) of the
// server clients reach, and the processes that serve, the one clients reach first (etcd and NATS
// run beside them, not measured). stop takes the heap snapshots BENCH_PROFILE_DIR asks for, then
// stops everything, last started first.
export interface PlinthForm {
  name: FormName;
  port: number;
  dataDir: string;
  services: [string, ServiceProcess][];
  stop(): Promise<void>;
}

// startForm starts a form; when a part fails to start, what started is stopped.
export async function startForm(name: FormName): Promise<PlinthForm> {
  if (name === 'all-in-one') {
    const plinth = await startAllInOne();
    const services: [string, ServiceProcess][] = [['plinth', plinth]];
    return { name, port: plinth.port, dataDir: plinth.dataDir, services, stop: () => stopAfterSnapshots(services, [plinth]) };
  }
  const started: { stop(): Promise<void> }[] = [];
  const start = async <T extends { stop(): Promise<void> }>(starting: Promise<T>): Promise<T> => {
    const running = await starting;
    started.push(running);
    return running;
  };
  try {
    const etcd = await start(startEtcd({ progressNotifyInterval: '5s', fsync: process.env.BENCH_ETCD_FSYNC !== '0' }));
    const nats = await start(startNats());
    const storage = await start(startStorageService(etcd.endpoint));
    const authz = await start(startAuthz(storage.address, nats.url));
    const gateway = await start(startGateway(storage.address, nats.url));
    const services: [string, ServiceProcess][] = [
      ['gateway', gateway],
      ['storage', storage],
      ['authz', authz],
    ];
    return { name, port: gateway.port, dataDir: gateway.dataDir, services, stop: () => stopAfterSnapshots(services, started) };
  } catch (err) {
    await stopAll(started);
    throw err;
  }
}

async function stopAfterSnapshots(services: [string, ServiceProcess][], started: { stop(): Promise<void> }[]): Promise<void> {
  await writeHeapSnapshots(services);
  await stopAll(started);
}

async function stopAll(started: { stop(): Promise<void> }[]): Promise<void> {
  for (const running of [...started].reverse()) await running.stop();
}
