// Starting the distributed Plinth processes for a benchmark: the storage service over etcd and
// the gateway over the storage service, each a separate node process as in production.
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..');

export interface BenchProcess {
  match: RegExpExecArray;
  stop(): Promise<void>;
}

function startNode(script: string, args: string[], env: NodeJS.ProcessEnv, ready: RegExp, nodeArgs: string[] = []): Promise<BenchProcess> {
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, '-r', join(root, 'tools/register.js'), join(root, script), ...args], {
    cwd: root,
    env: { ...process.env, ...env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      const match = ready.exec(log);
      if (match) resolve({ match, stop: () => stopChild(child) });
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

// startStorageService serves plaintext (--storage-insecure) unless given the flags of its
// TLS files (storageServingFlags of @plinth/testing).
export async function startStorageService(etcdEndpoint: string, tlsFlags: string[] = ['--storage-insecure']): Promise<{ address: string; stop(): Promise<void> }> {
  const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}/storage`] : [];
  const proc = await startNode('apps/storage/src/main.ts', tlsFlags, { PLINTH_ETCD_ENDPOINTS: etcdEndpoint, PLINTH_STORAGE_ADDRESS: '127.0.0.1:0' }, /listening on (\S+:\d+)/, profile);
  return { address: proc.match[1], stop: proc.stop };
}

// startAuthz and startGateway reach the storage service in plaintext (--storage-insecure),
// as startStorageService serves by default, and NATS in plaintext (--nats-insecure).
export async function startAuthz(storageAddress: string, natsUrl: string): Promise<{ stop(): Promise<void> }> {
  const proc = await startNode('apps/authz/src/main.ts', ['--storage-address', storageAddress, '--storage-insecure', '--nats-url', natsUrl, '--nats-insecure'], {}, /authz serving on/);
  return { stop: proc.stop };
}

export async function startGateway(storageAddress: string, natsUrl: string, extraArgs: string[] = []): Promise<{ port: number; dataDir: string; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'plinth-bench-gw-'));
  // BENCH_PROFILE_DIR writes a CPU profile of the gateway there (open it in Chrome DevTools).
  const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  const proc = await startNode('apps/gateway/src/main.ts', ['--storage-address', storageAddress, '--storage-insecure', '--nats-url', natsUrl, '--nats-insecure', '--port', '0', '--data-dir', dataDir, ...extraArgs], {}, /serving on https:\/\/[^\s]*:(\d+)/, profile);
  return {
    port: Number(proc.match[1]),
    dataDir,
    async stop() {
      await proc.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
