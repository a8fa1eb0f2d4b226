// startDistributed runs Plinth as it runs in a cluster, every link secured: the storage service
// over a real etcd that requires client certificates, serving mutual TLS; the authz service
// and the gateway reaching it with their own certificates and a real nats-server over TLS,
// each under its own NATS user with the permissions natsPermissions gives it. Each app is its
// own node process with the environment given; the gateway reads a static token file
// (admin-token in system:masters, alice-token a plain user) and writes an admin kubeconfig.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { natsPermissions, natsServerAuthorization } from '@plinth/authz-nats';
import {
  etcdClientFlags,
  EtcdServer,
  LinkPki,
  makeLinkPki,
  natsClientFlags,
  NatsServer,
  RunningProcess,
  startEtcd,
  startNats,
  startProcess,
  storageClientFlags,
  storageServingFlags,
  waitForOutput,
} from '@plinth/testing';

const root = join(__dirname, '..');

export interface HttpAnswer {
  status: number;
  body: string;
}

export interface DistributedPlinth {
  // adminKubeconfig is the gateway's admin kubeconfig (system:masters).
  readonly adminKubeconfig: string;
  readonly pki: LinkPki;
  // storageAddress and natsUrl are where the storage service and NATS listen.
  readonly storageAddress: string;
  readonly natsUrl: string;
  request(method: string, path: string, token: string, body?: unknown, headers?: Record<string, string>): Promise<HttpAnswer>;
  // port and ca are the gateway's HTTPS port and the cluster CA (PEM) it serves with.
  port: number;
  ca: string;
  // serviceAccountKey is the gateway's service-account signing key (PEM).
  serviceAccountKey: string;
  // gatewayExited tells whether the gateway process has ended.
  gatewayExited(): boolean;
  // exited names the apps (storage, authz, gateway, controllers when started) whose process has
  // ended.
  exited(): string[];
  stop(): Promise<void>;
}

// extraArgs are more flags for an app (e.g. --metrics-bind-address for storage and authz);
// controllers, when given, also runs the controller manager (apps/controllers) with those flags
// against the gateway, as the gateway's controller-manager kubeconfig names it, without leader
// election; it has started once its job controller (the last to start) runs.
export async function startDistributed(env: NodeJS.ProcessEnv, extraArgs: { storage?: string[]; authz?: string[]; controllers?: string[] } = {}): Promise<DistributedPlinth> {
  const dir = mkdtempSync(join(tmpdir(), 'plinth-distributed-'));
  writeFileSync(join(dir, 'tokens.csv'), 'admin-token,admin,admin-uid,"system:masters"\nalice-token,alice,alice-uid,"developers"\nbob-token,bob,bob-uid\n');
  const processes: RunningProcess[] = [];
  let etcd: EtcdServer | undefined;
  let nats: NatsServer | undefined;
  const pki = makeLinkPki();
  let stopped: Promise<void> | null = null;
  // stop ends the apps with SIGTERM, the gateway first, then etcd and NATS.
  const stop = () =>
    (stopped ??= (async () => {
      for (const proc of [...processes].reverse()) await proc.stop();
      await Promise.all([etcd?.stop(), nats?.stop()]);
      rmSync(dir, { recursive: true, force: true });
      pki.remove();
    })());
  const run = (main: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}) => {
    const proc = startProcess(process.execPath, ['-r', join(root, 'tools/register.js'), join(root, main), ...args], { ...process.env, NO_COLOR: '1', ...env, ...extraEnv });
    processes.push(proc);
    return proc;
  };
  try {
    const permissions = natsPermissions();
    const authorization = natsServerAuthorization([
      { ...pki.nats.gateway, permissions: permissions.gateway },
      { ...pki.nats.authz, permissions: permissions.authz },
    ]);
    [etcd, nats] = await Promise.all([startEtcd({ tls: pki.etcdServer }), startNats({ tls: pki.natsServer, authorization })]);
    const storage = run('apps/storage/src/main.ts', ['--etcd-servers', etcd.endpoint, ...etcdClientFlags(pki), '--storage-address', '127.0.0.1:0', ...storageServingFlags(pki), ...(extraArgs.storage ?? [])]);
    const storageAddress = await waitForOutput(storage, 'the storage service', /storage service listening on (\S+:\d+)/);
    const authz = run('apps/authz/src/main.ts', ['--storage-address', storageAddress, ...storageClientFlags(pki.authzClient), `--nats-url=${nats.url}`, ...natsClientFlags(pki, 'authz'), ...(extraArgs.authz ?? [])]);
    await waitForOutput(authz, 'the authz service', /authz serving on (\S+)/);
    const gateway = run('apps/gateway/src/main.ts', [
      '--storage-address', storageAddress, ...storageClientFlags(pki.gatewayClient),
      '--nats-url', nats.url, ...natsClientFlags(pki, 'gateway'),
      '--port', '0', '--data-dir', join(dir, 'gateway'), '--token-auth-file', join(dir, 'tokens.csv'),
    ]);
    const port = Number(await waitForOutput(gateway, 'the gateway', /serving on https:\/\/[^\s]*:(\d+)/));
    const apps: Record<string, RunningProcess> = { storage, authz, gateway };
    if (extraArgs.controllers) {
      apps.controllers = run('apps/controllers/src/main.ts', ['--kubeconfig', join(dir, 'gateway', 'controller-manager.kubeconfig'), '--leader-elect=false', ...extraArgs.controllers]);
      await waitForOutput(apps.controllers, 'the controller manager', /(job) controller running/);
    }
    const ca = readFileSync(join(dir, 'gateway', 'pki', 'ca.crt'), 'utf8');
    const serviceAccountKey = readFileSync(join(dir, 'gateway', 'pki', 'sa.key'), 'utf8');
    return {
      adminKubeconfig: join(dir, 'gateway', 'admin.kubeconfig'),
      pki,
      storageAddress,
      natsUrl: nats.url,
      request: (method, path, token, body, headers) => send(port, ca, method, path, token, body, headers),
      port,
      ca,
      serviceAccountKey,
      gatewayExited: () => gateway.child.exitCode !== null || gateway.child.signalCode !== null,
      exited: () =>
        Object.entries(apps)
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

