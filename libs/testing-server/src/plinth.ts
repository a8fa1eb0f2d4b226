import { spawn, ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { ApiClient } from '@plinth/client';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface PlinthProcess {
  readonly pid: number;
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly kubeconfig: string;
  output(): string;
  // exited resolves with the exit code once the process is gone.
  readonly exited: Promise<number | null>;
  stop(): Promise<void>;
}

const root = resolve(__dirname, '../../..');

// startPlinth runs the real all-in-one process (`npm start`'s entry point) on a free port with a
// throw-away data directory, and resolves once it serves.
export async function startPlinth(extraArgs: string[] = [], options: { dataDir?: string; timeoutMs?: number } = {}): Promise<PlinthProcess> {
  const ownDir = !options.dataDir;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'plinth-e2e-'));
  const child: ChildProcess = spawn(process.execPath, ['-r', join(root, 'tools/register.js'), join(root, 'apps/plinth/src/main.ts'), '--data-dir', dataDir, '--port', '0', ...extraArgs], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let log = '';
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const port = await new Promise<number>((resolvePort, reject) => {
    // A process that does not start in time is killed, not left behind the failed test.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
      reject(new Error(`plinth did not start within ${options.timeoutMs ?? 30000} ms:\n${log}`));
    }, options.timeoutMs ?? 30000);
    const onData = (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-20000);
      const match = /serving on https:\/\/[^\s]*:(\d+)/.exec(log);
      if (match) {
        clearTimeout(timer);
        resolvePort(Number(match[1]));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`plinth exited with code ${code}:\n${log}`));
    });
  });
  return {
    pid: child.pid ?? 0,
    url: `https://127.0.0.1:${port}`,
    port,
    dataDir,
    kubeconfig: join(dataDir, 'admin.kubeconfig'),
    output: () => log,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(killer);
      }
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// adminClient is an API client of a started Plinth as its administrator (the generated admin
// client certificate).
export function adminClient(plinth: PlinthProcess): ApiClient {
  const pki = (name: string) => readFileSync(join(plinth.dataDir, 'pki', name), 'utf8');
  return new ApiClient({ server: plinth.url, caPem: pki('ca.crt'), certPem: pki('admin.crt'), keyPem: pki('admin.key') });
}
