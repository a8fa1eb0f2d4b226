// startDistributed runs Plinth as it runs in a cluster: the storage service over a real etcd,
// the authz service and the gateway over a real nats-server, each its own node process with
// the environment given, the gateway reading a static token file (admin-token in
// system:masters, alice-token a plain user).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EtcdServer, NatsServer, RunningProcess, startEtcd, startNats, startProcess, waitForOutput } from '@plinth/testing';

const root = join(__dirname, '../..');

export interface HttpAnswer {
  status: number;
  body: string;
}

export interface DistributedPlinth {
  request(method: string, path: string, token: string, body?: unknown, headers?: Record<string, string>): Promise<HttpAnswer>;
  // port and ca are the gateway's HTTPS port and the cluster CA (PEM) it serves with.
  port: number;
  ca: string;
  // serviceAccountKey is the gateway's service-account signing key (PEM).
  serviceAccountKey: string;
  // gatewayExited tells whether the gateway process has ended.
  gatewayExited(): boolean;
  // natsUrl and storageAddress are where the authz and storage services listen.
  natsUrl: string;
  storageAddress: string;
  // exited names the apps (storage, authz, gateway) whose process has ended.
  exited(): string[];
  stop(): Promise<void>;
}

export async function startDistributed(env: NodeJS.ProcessEnv): Promise<DistributedPlinth> {
  const dir = mkdtempSync(join(tmpdir(), 'plinth-distributed-'));
  writeFileSync(join(dir, 'tokens.csv'), 'admin-token,admin,admin-uid,"system:masters"\nalice-token,alice,alice-uid,"developers"\nbob-token,bob,bob-uid\n');
  const processes: RunningProcess[] = [];
  let etcd: EtcdServer | undefined;
  let nats: NatsServer | undefined;
  let stopped: Promise<void> | null = null;
  // stop ends the apps with SIGTERM, the gateway first, then etcd and NATS.
  const stop = () =>
    (stopped ??= (async () => {
      for (const proc of [...processes].reverse()) await proc.stop();
      await Promise.all([etcd?.stop(), nats?.stop()]);
      rmSync(dir, { recursive: true, force: true });
    })());
  const run = (main: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}) => {
    const proc = startProcess(process.execPath, ['-r', join(root, 'tools/register.js'), join(root, main), ...args], { ...process.env, NO_COLOR: '1', ...env, ...extraEnv });
    processes.push(proc);
    return proc;
  };
  try {
    [etcd, nats] = await Promise.all([startEtcd(), startNats()]);
    // The storage link runs in plaintext here (--storage-insecure): these tests are not about its TLS.
    const storage = run('apps/storage/src/main.ts', [], { PLINTH_ETCD_ENDPOINTS: etcd.endpoint, PLINTH_STORAGE_ADDRESS: '127.0.0.1:0', PLINTH_STORAGE_INSECURE: 'true' });
    const storageAddress = await waitForOutput(storage, 'the storage service', /storage service listening on (\S+:\d+)/);
    const authz = run('apps/authz/src/main.ts', ['--storage-address', storageAddress, `--nats-url=${nats.url}`]);
    await waitForOutput(authz, 'the authz service', /authz serving on (\S+)/);
    const gateway = run('apps/gateway/src/main.ts', ['--storage-insecure', '--storage-address', storageAddress, '--nats-url', nats.url, '--port', '0', '--data-dir', join(dir, 'gateway'), '--token-auth-file', join(dir, 'tokens.csv')]);
    const port = Number(await waitForOutput(gateway, 'the gateway', /serving on https:\/\/[^\s]*:(\d+)/));
    const ca = readFileSync(join(dir, 'gateway', 'pki', 'ca.crt'), 'utf8');
    const serviceAccountKey = readFileSync(join(dir, 'gateway', 'pki', 'sa.key'), 'utf8');
    return {
      request: (method, path, token, body, headers) => send(port, ca, method, path, token, body, headers),
      port,
      ca,
      serviceAccountKey,
      gatewayExited: () => gateway.child.exitCode !== null || gateway.child.signalCode !== null,
      natsUrl: nats.url,
      storageAddress,
      exited: () =>
        Object.entries({ storage, authz, gateway })
          .filter(([, proc]) => proc.child.exitCode !== null || proc.child.signalCode !== null)
          .map(([name]) => name),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

function send(port: number, ca: string, method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      { host: '127.0.0.1', port, method, path, ca, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'user-agent': 'plinth-e2e/1.0', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

